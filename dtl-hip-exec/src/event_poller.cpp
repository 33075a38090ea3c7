// SPDX-License-Identifier: MIT
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/event_poller.hpp>

#include <dtl/core/status_boundary.hpp>

#include "engine_core.hpp"

#include <cstdlib>

namespace dtl::hip {

event_poller::event_poller() : core_(std::make_shared<detail::engine_core>()) {}

event_poller::~event_poller() { core_->shutdown(); }

event_poller& event_poller::global() {
  // Never destroyed: futures and pooled events must not outlive the HIP runtime's teardown. The
  // background thread (if any) is stopped by an exit handler, which runs before HIP's own teardown
  // because it is registered later.
  static event_poller* const engine = [] {
    auto* e = new event_poller();
    static_cast<void>(std::atexit([] { static_cast<void>(event_poller::global().stop_background()); }));
    return e;
  }();
  return *engine;
}

future<void> event_poller::enqueue(const hip_stream& stream) {
  if (!stream.valid()) return make_failed_future<void>(stream.error());
  return enqueue(stream_ref(stream.native_handle()), stream.device());
}

future<void> event_poller::enqueue(stream_ref stream, int device) {
  auto guard = device_guard::enter(device);
  if (!guard.has_value()) return make_failed_future<void>(std::move(guard).error());
  return core_->enqueue_current(stream.get(), device);
}

bool event_poller::unwatch(std::uint64_t id) { return core_->unwatch(id); }

std::size_t event_poller::poll() noexcept { return core_->poll(); }

std::size_t event_poller::pending() const noexcept { return core_->pending(); }

result<void> event_poller::synchronize(std::chrono::nanoseconds timeout) {
  const auto deadline = detail::deadline_after(timeout);
  while (core_->pending() > 0) {
    if (core_->poll() == 0) {
      if (std::chrono::steady_clock::now() >= deadline)
        return status(status_code::timeout,
                      "event_poller::synchronize: operations still pending when the timeout passed");
      std::this_thread::yield();
    }
  }
  return {};
}

result<void> event_poller::start_background(std::chrono::microseconds interval) {
  if (status s = core_->start_background(interval); !s.ok()) return s;
  return {};
}

result<void> event_poller::stop_background() {
  if (status s = core_->stop_background(); !s.ok()) return s;
  return {};
}

bool event_poller::background_running() const noexcept { return core_->background_running(); }

result<void> event_poller::reserve_events(int device, std::size_t count) {
  auto reserve = [&] { return core_->reserve_events(device, count); };
  if (status s = status_boundary("event_poller::reserve_events", reserve); !s.ok()) return s;
  return {};
}

watch_handle event_poller::watch_node(std::unique_ptr<detail::source_node> node) {
  return core_->watch(std::move(node));
}

scoped_background_progress::scoped_background_progress(event_poller& engine, std::chrono::microseconds interval)
    : engine_(engine) {
  if (auto r = engine_.start_background(interval); !r.has_value()) started_ = std::move(r).error();
}

scoped_background_progress::~scoped_background_progress() {
  if (!started_.ok()) return;
  if (auto r = engine_.stop_background(); !r.has_value()) report_unhandled(r.error());
}

}  // namespace dtl::hip
