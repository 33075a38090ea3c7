// SPDX-License-Identifier: MIT
#include <dtl/core/status_boundary.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/event_pool.hpp>

#include "event_query.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace dtl::hip {

namespace detail {

struct event_pool_core::impl {
  mutable std::mutex mutex;
  std::vector<hipEvent_t> idle;
  std::size_t max_cached = 0;
  std::atomic<std::size_t> created{0};
};

event_pool_core::event_pool_core(int device, std::size_t max_cached) noexcept
    : impl_(std::make_unique<impl>()), device_(device) {
  impl_->max_cached = max_cached;
}

event_pool_core::~event_pool_core() {
  if (impl_->idle.empty()) return;
  auto guard = device_guard::enter(device_);
  for (hipEvent_t e : impl_->idle) {
    if (const hipError_t err = hipEventDestroy(e); err != hipSuccess) {
      report_unhandled(to_status(err, fmt::format("hipEventDestroy (event pool of device {})", device_)));
      break;  // the runtime is failing; do not report every event
    }
  }
}

namespace {

/// A new timing-disabled event on the current device (which the caller made `device`).
status create_event(int device, std::atomic<std::size_t>& created, hipEvent_t& out) {
  if (const hipError_t e = hipEventCreateWithFlags(&out, hipEventDisableTiming); e != hipSuccess)
    return to_status(e, fmt::format("hipEventCreateWithFlags(hipEventDisableTiming) on device {}", device));
  created.fetch_add(1, std::memory_order_relaxed);
  return {};
}

}  // namespace

status event_pool_core::acquire(hipEvent_t& out, bool device_is_current) {
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->idle.empty()) {
      out = impl_->idle.back();
      impl_->idle.pop_back();
      return {};
    }
  }
  if (device_is_current) return create_event(device_, impl_->created, out);
  auto guard = device_guard::enter(device_);
  if (!guard.has_value()) return std::move(guard).error();
  return create_event(device_, impl_->created, out);
}

void event_pool_core::recycle(hipEvent_t event) noexcept {
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->idle.size() < impl_->max_cached) {
      try {
        impl_->idle.push_back(event);
        return;
      } catch (...) {
        // no memory to cache it: destroy it below
      }
    }
  }
  destroy(event);
}

void event_pool_core::destroy(hipEvent_t event) noexcept {
  // hipEventDestroy does not depend on the current device; after a sticky error it fails, which
  // the owner of the failed operation has already been told about.
  if (hipEventDestroy(event) != hipSuccess) static_cast<void>(hipGetLastError());
}

status event_pool_core::reserve(std::size_t count) {
  if (count > impl_->max_cached)
    return status(status_code::invalid_argument,
                  fmt::format("event_pool::reserve({}): more than the pool keeps idle (max_cached {}) on device {}",
                              count, impl_->max_cached, device_));
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(device_));
  std::size_t missing = 0;
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->idle.size() >= count) return {};
    missing = count - impl_->idle.size();
  }
  std::vector<hipEvent_t> fresh;
  fresh.reserve(missing);  // at most max_cached: bounded above
  while (fresh.size() < missing) {
    hipEvent_t e = nullptr;
    if (status s = create_event(device_, impl_->created, e); !s.ok()) {
      for (hipEvent_t f : fresh) destroy(f);  // a failed reserve leaves the pool as it was
      return s;
    }
    fresh.push_back(e);
  }
  std::lock_guard lock(impl_->mutex);
  // Other threads may have returned events meanwhile: keep what fits under max_cached, which is count or more.
  try {
    impl_->idle.reserve(std::min(impl_->max_cached, impl_->idle.size() + fresh.size()));
  } catch (...) {  // no room to keep them: the pool stays as it was
    for (hipEvent_t f : fresh) destroy(f);
    return current_exception_status("event_pool::reserve");
  }
  for (hipEvent_t f : fresh) {  // no allocation: the capacity is there
    if (impl_->idle.size() < impl_->max_cached) {
      impl_->idle.push_back(f);
    } else {
      destroy(f);
    }
  }
  return {};
}

std::size_t event_pool_core::idle() const noexcept {
  std::lock_guard lock(impl_->mutex);
  return impl_->idle.size();
}

std::size_t event_pool_core::created() const noexcept { return impl_->created.load(std::memory_order_relaxed); }

}  // namespace detail

// ---- pooled_event ----

pooled_event::pooled_event(pooled_event&& other) noexcept
    : pool_(std::move(other.pool_)), event_(std::exchange(other.event_, nullptr)) {}

pooled_event& pooled_event::operator=(pooled_event&& other) noexcept {
  if (this != &other) {
    if (event_ != nullptr) pool_->recycle(event_);
    pool_ = std::move(other.pool_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

pooled_event::~pooled_event() {
  if (event_ != nullptr) pool_->recycle(event_);
}

int pooled_event::device() const noexcept { return pool_ ? pool_->device() : no_device; }

namespace {
status empty_pooled_event() {
  return status(status_code::invalid_state, "this pooled_event is empty (moved from or discarded)");
}
}  // namespace

result<void> pooled_event::record(stream_ref stream) {
  if (event_ == nullptr) return empty_pooled_event();
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(pool_->device()));
  if (const hipError_t e = hipEventRecord(event_, stream.get()); e != hipSuccess)
    return to_status(e, fmt::format("hipEventRecord (pooled event, device {})", pool_->device()));
  return {};
}

event_status pooled_event::query() const {
  if (event_ == nullptr) return event_status::failed(empty_pooled_event());
  return detail::query_event(event_, "hipEventQuery (pooled event)");
}

result<void> pooled_event::synchronize() {
  if (event_ == nullptr) return empty_pooled_event();
  if (const hipError_t e = hipEventSynchronize(event_); e != hipSuccess)
    return to_status(e, fmt::format("hipEventSynchronize (pooled event, device {})", pool_->device()));
  return {};
}

void pooled_event::discard() noexcept {
  if (event_ == nullptr) return;
  pool_->destroy(std::exchange(event_, nullptr));
  pool_.reset();
}

// ---- event_pool ----

result<event_pool> event_pool::create(std::optional<int> device, std::size_t max_cached) {
  return status_boundary("event_pool::create", [&]() -> result<event_pool> {
    DTL_ASSIGN_OR_RETURN(const int dev, resolve_device(device));
    return event_pool(std::make_shared<detail::event_pool_core>(dev, max_cached));
  });
}

result<pooled_event> event_pool::acquire() {
  hipEvent_t e = nullptr;
  if (status s = core_->acquire(e); !s.ok()) return s;
  return pooled_event(core_, e);
}

result<void> event_pool::reserve(std::size_t count) {
  return status_boundary("event_pool::reserve", [&] { return core_->reserve(count); });
}

int event_pool::device() const noexcept { return core_->device(); }
std::size_t event_pool::idle() const noexcept { return core_->idle(); }
std::size_t event_pool::created() const noexcept { return core_->created(); }

}  // namespace dtl::hip
