// SPDX-License-Identifier: MIT
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_event.hpp>
#include <dtl/hip/hip_stream.hpp>

#include "event_query.hpp"

#include <fmt/format.h>

#include <utility>

namespace dtl::hip {

namespace {

unsigned hip_flags(event_flags flags) noexcept {
  unsigned raw = hipEventDefault;
  if (!has_flag(flags, event_flags::timing)) raw |= hipEventDisableTiming;
  if (has_flag(flags, event_flags::blocking_sync)) raw |= hipEventBlockingSync;
  if (has_flag(flags, event_flags::interprocess)) raw |= hipEventInterprocess;
  return raw;
}

}  // namespace

hip_event::hip_event(hipEvent_t handle, int device, event_flags flags) noexcept
    : handle_(handle), device_(device), flags_(flags), state_(detail::handle_state::make_valid()) {}

// The constructors are create() plus a throw (dtl/core/status_error.hpp).
hip_event::hip_event() : hip_event(value_or_throw(create())) {}

hip_event::hip_event(event_flags flags) : hip_event(value_or_throw(create(flags))) {}

result<hip_event> hip_event::create(event_flags flags, std::optional<int> device) {
  constexpr auto known = event_flags::timing | event_flags::blocking_sync | event_flags::interprocess;
  if ((static_cast<unsigned>(flags) & ~static_cast<unsigned>(known)) != 0)
    return status(status_code::invalid_argument,
                  fmt::format("hip_event: unknown event_flags bits {:#x}", static_cast<unsigned>(flags)));
  if (has_flag(flags, event_flags::interprocess) && has_flag(flags, event_flags::timing))
    return status(status_code::invalid_argument,
                  "hip_event: an interprocess event cannot record timing (HIP requires hipEventDisableTiming)");
  DTL_ASSIGN_OR_RETURN(const int dev, resolve_device(device));
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(dev));
  hipEvent_t handle = nullptr;
  if (const hipError_t e = hipEventCreateWithFlags(&handle, hip_flags(flags)); e != hipSuccess)
    return to_status(e, fmt::format("hipEventCreateWithFlags({:#x}) on device {}", hip_flags(flags), dev));
  return hip_event(handle, dev, flags);
}

hip_event::hip_event(hip_event&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      device_(std::exchange(other.device_, no_device)),
      flags_(other.flags_),
      recorded_(std::exchange(other.recorded_, false)),
      state_(std::move(other.state_)) {}

hip_event& hip_event::operator=(hip_event&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = std::exchange(other.device_, no_device);
    flags_ = other.flags_;
    recorded_ = std::exchange(other.recorded_, false);
    state_ = std::move(other.state_);
  }
  return *this;
}

hip_event::~hip_event() { release(); }

void hip_event::release() noexcept {
  if (handle_ == nullptr) return;
  auto guard = device_guard::enter(device_);
  if (const hipError_t e = hipEventDestroy(handle_); e != hipSuccess)
    report_unhandled(to_status(e, fmt::format("hipEventDestroy on device {}", device_)));
  handle_ = nullptr;
}

const status& hip_event::error() const noexcept {
  static const status moved_from(status_code::invalid_state, "this hip_event was moved from");
  return state_.error(moved_from);
}

result<void> hip_event::record(const hip_stream& stream) {
  if (!valid()) return error();
  if (!stream.valid()) return stream.error();
  if (stream.device() != device_)
    return status(status_code::invalid_argument,
                  fmt::format("hip_event::record: the event belongs to device {} but the stream to device {}", device_,
                              stream.device()));
  return record(stream_ref(stream.native_handle()));
}

result<void> hip_event::record(stream_ref stream) {
  if (!valid()) return error();
  // The default stream is per device: make the event's device current so it means that device's.
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(device_));
  if (const hipError_t e = hipEventRecord(handle_, stream.get()); e != hipSuccess)
    return to_status(e, fmt::format("hipEventRecord on device {}", device_));
  recorded_ = true;
  return {};
}

event_status hip_event::query() const {
  if (!valid()) return event_status::failed(error());
  return detail::query_event(handle_, "hipEventQuery (hip_event)");
}

result<void> hip_event::synchronize() {
  if (!valid()) return error();
  if (const hipError_t e = hipEventSynchronize(handle_); e != hipSuccess)
    return to_status(e, fmt::format("hipEventSynchronize on device {}", device_));
  return {};
}

result<float> hip_event::elapsed_ms(const hip_event& start, const hip_event& end) {
  if (!start.valid()) return start.error();
  if (!end.valid()) return end.error();
  if (!has_flag(start.flags_, event_flags::timing) || !has_flag(end.flags_, event_flags::timing))
    return status(status_code::invalid_argument,
                  "hip_event::elapsed_ms needs two events created with event_flags::timing");
  if (!start.recorded_ || !end.recorded_)
    return status(status_code::invalid_state, "hip_event::elapsed_ms: both events must have been recorded");
  float ms = 0.0f;
  if (const hipError_t e = hipEventElapsedTime(&ms, start.handle_, end.handle_); e != hipSuccess)
    return to_status(e, "hipEventElapsedTime (is the end event complete?)");
  return ms;
}

}  // namespace dtl::hip
