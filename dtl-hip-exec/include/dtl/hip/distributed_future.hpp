// SPDX-License-Identifier: MIT
#pragma once
// A dtl::hip::future (GPU work, completed by the progress engine) as upstream DTL's
// dtl::distributed_future (dtl/futures/distributed_future.hpp, in dtl-core).
//
//   dtl::distributed_future<void> f = dtl::hip::to_distributed_future(engine.enqueue(stream));
//   f.then([] { ... }).get();   // drives the engine while it waits: no background poller needed
//
// The hip::future completes the distributed_future through a continuation; waiting on the
// distributed_future (or on anything made from it: then, when_all, ...) drives the engines the
// hip::future depends on, between short sleeps, so it completes without a poller thread. With a
// background poller (event_poller::start_background) the continuations run on the poller. Upstream's
// explicit progress calls (dtl::futures::poll(), progress_engine::instance().poll(), dtl/futures/
// progress.hpp) drive them too: each pending one is a progress callback until it is ready or dropped.

#include <dtl/core/result.hpp>
#include <dtl/futures/distributed_future.hpp>
#include <dtl/futures/progress.hpp>
#include <dtl/hip/future.hpp>

#include <memory>
#include <type_traits>
#include <utility>

namespace dtl::hip {

namespace detail {

/// Drives the engines of a hip::future: one non-blocking pass (query()) per call.
class hip_future_driver final : public futures::detail::progress_driver {
 public:
  explicit hip_future_driver(future<void> done) noexcept : done_(std::move(done)) {}
  void drive() noexcept override {
    try {
      (void)done_.query();
    } catch (...) {
      // query() fails only to allocate a status; the next pass tries again.
    }
  }

 private:
  future<void> done_;
};

}  // namespace detail

/// `f` as a distributed_future: its value or its error, once its work is done. Consumes f; an empty
/// f gives a failed distributed_future (invalid_state).
template <class T>
[[nodiscard]] futures::distributed_future<T> to_distributed_future(future<T>&& f) {
  auto state = std::make_shared<futures::detail::shared_state<T>>();
  if (!f.valid()) {
    state->fail(status(status_code::invalid_state, "to_distributed_future of an empty dtl::hip::future"));
    return futures::distributed_future<T>(std::move(state));
  }
  future<void> done = std::move(f).then([state](result<T> r) noexcept {
    if (!r.has_value()) {
      state->fail(r.error());
    } else if constexpr (std::is_void_v<T>) {
      state->set_value();
    } else {
      state->set_value(std::move(r).value());
    }
  });
  // The continuation completes `state` before `done`; until then a waiter on `state` drives `done`.
  auto driver = std::make_shared<detail::hip_future_driver>(std::move(done));
  state->add_driver(driver);
  // Weak (the state owns the driver): a future nobody holds any more leaves the list at the next poll,
  // and the process-wide list never keeps GPU work alive past its engine.
  futures::progress_engine::instance().register_callback(
      [weak_state = std::weak_ptr(state), weak_driver = std::weak_ptr(driver)] {
        const auto s = weak_state.lock();
        const auto d = weak_driver.lock();
        if (!s || !d || s->ready()) return false;
        d->drive();
        return !s->ready();
      });
  return futures::distributed_future<T>(std::move(state));
}

}  // namespace dtl::hip
