// SPDX-License-Identifier: MIT
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/hip_event.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <fmt/format.h>

#include <utility>

namespace dtl::hip {

namespace {

status check_options(stream_flags flags, stream_priority priority) {
  if (flags != stream_flags::default_flags && flags != stream_flags::non_blocking)
    return status(status_code::invalid_argument,
                  fmt::format("hip_stream: unknown stream_flags {}", static_cast<unsigned>(flags)));
  if (priority != stream_priority::low && priority != stream_priority::normal && priority != stream_priority::high)
    return status(status_code::invalid_argument,
                  fmt::format("hip_stream: unknown stream_priority {}", static_cast<int>(priority)));
  return {};
}

unsigned hip_flags(stream_flags flags) noexcept {
  return flags == stream_flags::non_blocking ? hipStreamNonBlocking : hipStreamDefault;
}

/// The priority a wrapped stream was created with, in DTL's three levels.
stream_priority classify_priority(int value, int least, int greatest) noexcept {
  if (least == greatest) return stream_priority::normal;  // the device has no priorities
  if (value == greatest) return stream_priority::high;
  // CUDA's default priority (0) is also its least, so "least" reads as normal, not low.
  return stream_priority::normal;
}

}  // namespace

hip_stream::hip_stream(hipStream_t handle, int device, bool owns, stream_flags flags, stream_priority priority) noexcept
    : handle_(handle),
      device_(device),
      owns_(owns),
      flags_(flags),
      priority_(priority),
      state_(detail::handle_state::make_valid()) {}

// The constructors are their twins plus a throw (dtl/core/status_error.hpp).
hip_stream::hip_stream() : hip_stream(value_or_throw(default_stream())) {}

hip_stream::hip_stream(stream_flags flags, stream_priority priority)
    : hip_stream(value_or_throw(create(flags, priority))) {}

hip_stream::hip_stream(hipStream_t external, bool owns) : hip_stream(value_or_throw(wrap(external, owns))) {}

result<hip_stream> hip_stream::default_stream(std::optional<int> device) {
  DTL_ASSIGN_OR_RETURN(const int dev, resolve_device(device));
  return hip_stream(nullptr, dev, false, stream_flags::default_flags, stream_priority::normal);
}

result<hip_stream> hip_stream::create(stream_flags flags, stream_priority priority, std::optional<int> device) {
  DTL_TRY(check_options(flags, priority));
  DTL_ASSIGN_OR_RETURN(const int dev, resolve_device(device));
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(dev));
  hipStream_t handle = nullptr;
  if (priority == stream_priority::normal) {
    if (const hipError_t e = hipStreamCreateWithFlags(&handle, hip_flags(flags)); e != hipSuccess)
      return to_status(e, fmt::format("hipStreamCreateWithFlags on device {}", dev));
  } else {
    int least = 0;
    int greatest = 0;
    if (const hipError_t e = hipDeviceGetStreamPriorityRange(&least, &greatest); e != hipSuccess)
      return to_status(e, fmt::format("hipDeviceGetStreamPriorityRange on device {}", dev));
    const int value = priority == stream_priority::high ? greatest : least;
    if (const hipError_t e = hipStreamCreateWithPriority(&handle, hip_flags(flags), value); e != hipSuccess)
      return to_status(e, fmt::format("hipStreamCreateWithPriority({}) on device {}", value, dev));
  }
  return hip_stream(handle, dev, true, flags, priority);
}

result<hip_stream> hip_stream::wrap(hipStream_t external, bool owns, std::optional<int> device) {
  if (external == nullptr && owns)
    return status(status_code::invalid_argument, "hip_stream: the default stream cannot be owned");
  DTL_ASSIGN_OR_RETURN(const int dev, resolve_device(device));
  if (external == nullptr) return hip_stream(nullptr, dev, false, stream_flags::default_flags, stream_priority::normal);
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(dev));
  unsigned raw_flags = 0;
  if (const hipError_t e = hipStreamGetFlags(external, &raw_flags); e != hipSuccess)
    return to_status(e, "hipStreamGetFlags on the stream to wrap");
  int value = 0;
  int least = 0;
  int greatest = 0;
  if (const hipError_t e = hipStreamGetPriority(external, &value); e != hipSuccess)
    return to_status(e, "hipStreamGetPriority on the stream to wrap");
  if (const hipError_t e = hipDeviceGetStreamPriorityRange(&least, &greatest); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceGetStreamPriorityRange on device {}", dev));
  const stream_flags flags =
      (raw_flags & hipStreamNonBlocking) != 0 ? stream_flags::non_blocking : stream_flags::default_flags;
  return hip_stream(external, dev, owns, flags, classify_priority(value, least, greatest));
}

hip_stream::hip_stream(hip_stream&& other) noexcept
    : handle_(other.handle_),
      device_(other.device_),
      owns_(other.owns_),
      flags_(other.flags_),
      priority_(other.priority_),
      state_(std::move(other.state_)) {
  other.handle_ = nullptr;
  other.device_ = no_device;
  other.owns_ = false;
}

hip_stream& hip_stream::operator=(hip_stream&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = std::exchange(other.device_, no_device);
    owns_ = std::exchange(other.owns_, false);
    flags_ = other.flags_;
    priority_ = other.priority_;
    state_ = std::move(other.state_);
  }
  return *this;
}

hip_stream::~hip_stream() { release(); }

void hip_stream::release() noexcept {
  if (!owns_ || handle_ == nullptr) return;
  // Destroy with the stream's device current (AMD needs it); the caller's device comes back after.
  auto guard = device_guard::enter(device_);
  if (const hipError_t e = hipStreamDestroy(handle_); e != hipSuccess)
    report_unhandled(to_status(e, fmt::format("hipStreamDestroy on device {}", device_)));
  handle_ = nullptr;
  owns_ = false;
}

const status& hip_stream::error() const noexcept {
  static const status moved_from(status_code::invalid_state, "this hip_stream was moved from");
  return state_.error(moved_from);
}

stream_properties hip_stream::properties() const noexcept {
  stream_properties p;
  p.priority = priority_;
  p.non_blocking = flags_ == stream_flags::non_blocking;
  p.owning = owns_;
  p.device_id = device_;
  return p;
}

result<stream_ref> hip_stream::ref() const {
  if (!valid()) return error();
  return stream_ref(handle_);
}

result<void> hip_stream::wait(const hip_event& event) {
  if (!valid()) return error();
  if (!event.valid()) return event.error();
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(device_));
  if (const hipError_t e = hipStreamWaitEvent(handle_, event.native_handle(), 0); e != hipSuccess)
    return to_status(e, fmt::format("hipStreamWaitEvent on device {}", device_));
  return {};
}

result<void> hip_stream::record(hip_event& event) const { return event.record(*this); }

event_status hip_stream::query() const {
  if (!valid()) return event_status::failed(error());
  auto guard = device_guard::enter(device_);
  if (!guard.has_value()) return event_status::failed(std::move(guard).error());
  return stream_ref(handle_).query();
}

result<void> hip_stream::synchronize() const {
  if (!valid()) return error();
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(device_));
  return stream_ref(handle_).synchronize();
}

}  // namespace dtl::hip
