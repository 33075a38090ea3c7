// SPDX-License-Identifier: MIT
#pragma once
// hip_stream: an RAII HIP stream, bound to the device it was created on.
//
// The constructors throw dtl::status_error when the stream cannot be made (backend_not_available
// without a device, invalid_argument for a bad argument, hip_error with HIP's code and name when the
// runtime refuses); create(), default_stream() and wrap() are their non-throwing twins and return the
// same status. A moved-from stream is the one invalid state: valid() is false and every operation
// returns invalid_state. It never silently turns into the default stream.
//
// Completion (the vocabulary of dtl/core/event.hpp): synchronize() blocks the host until the stream's
// work is done, query() says whether it is, wait(event) makes the stream wait for an event.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/executor.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/handle_state.hpp>
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <optional>

namespace dtl::hip {

class hip_event;

enum class stream_flags : unsigned {
  /// Synchronises with the legacy default stream (hipStreamDefault).
  default_flags = 0,
  /// Runs independently of the legacy default stream (hipStreamNonBlocking).
  non_blocking = 1,
};

class DTL_HIP_EXEC_API hip_stream {
 public:
  /// The default (null) stream of the current device; not owned. Throws status_error
  /// (backend_not_available) without a device; default_stream() is the non-throwing twin.
  hip_stream();

  /// A new stream on the current device, owned (destroyed with this object). stream_priority::normal
  /// is the runtime's default priority; low and high are the ends of hipDeviceGetStreamPriorityRange.
  /// Throws status_error on failure; create() is the non-throwing twin.
  explicit hip_stream(stream_flags flags, stream_priority priority = stream_priority::normal);

  /// Wraps `external`, a stream of the current device (HIP cannot tell a stream's device; use wrap()
  /// to name another). With owns == false it is never destroyed here. If wrapping fails (no device,
  /// or HIP rejects the handle), it throws status_error and ownership is not taken: the caller still
  /// owns `external`. wrap() is the non-throwing twin.
  hip_stream(hipStream_t external, bool owns);

  /// The constructors' twins: a failure comes back as a status. `device` defaults to the current one.
  /// The arguments are checked first (unknown flags or priority, a negative device id, owning the
  /// default stream: invalid_argument), then the device (backend_not_available without one).
  [[nodiscard]] static result<hip_stream> create(stream_flags flags = stream_flags::non_blocking,
                                                 stream_priority priority = stream_priority::normal,
                                                 std::optional<int> device = std::nullopt);
  [[nodiscard]] static result<hip_stream> default_stream(std::optional<int> device = std::nullopt);
  [[nodiscard]] static result<hip_stream> wrap(hipStream_t external, bool owns,
                                               std::optional<int> device = std::nullopt);

  /// A stream in the moved-from state (owns nothing; every call returns invalid_state).
  explicit hip_stream(detail::moved_from_t) noexcept {}

  hip_stream(hip_stream&& other) noexcept;
  hip_stream& operator=(hip_stream&& other) noexcept;
  hip_stream(const hip_stream&) = delete;
  hip_stream& operator=(const hip_stream&) = delete;
  /// Destroys an owned stream (pending work still completes); a failure goes to report_unhandled().
  ~hip_stream();

  /// false only for a moved-from stream.
  [[nodiscard]] bool valid() const noexcept { return state_.valid(); }
  /// invalid_state for a moved-from stream; ok otherwise.
  [[nodiscard]] const status& error() const noexcept;

  /// The HIP handle: nullptr for the default stream, and also for a moved-from one (check valid()).
  [[nodiscard]] hipStream_t native_handle() const noexcept { return handle_; }
  /// The device the stream belongs to; dtl::no_device when moved from.
  [[nodiscard]] int device() const noexcept { return device_; }
  [[nodiscard]] bool is_default() const noexcept { return valid() && handle_ == nullptr; }
  [[nodiscard]] bool owns() const noexcept { return owns_; }
  [[nodiscard]] stream_flags flags() const noexcept { return flags_; }
  [[nodiscard]] stream_priority priority() const noexcept { return priority_; }
  [[nodiscard]] stream_properties properties() const noexcept;

  /// Later work on this stream waits until `event`'s recorded work is done (hipStreamWaitEvent): an
  /// ordering on the device, the host does not block. The event may belong to another device.
  [[nodiscard]] result<void> wait(const hip_event& event);
  /// Records `event` here (same as event.record(*this)).
  [[nodiscard]] result<void> record(hip_event& event) const;
  /// complete when all work on the stream is done, pending while some runs, failed with the error
  /// (invalid_state when moved from). Never blocks.
  [[nodiscard]] event_status query() const;
  /// Blocks the host until all work on the stream is done.
  [[nodiscard]] result<void> synchronize() const;

  /// A non-owning view. A moved-from stream gives the default stream's view: check valid() first,
  /// or use ref(), when the stream may have been moved from.
  operator stream_ref() const noexcept { return stream_ref(handle_); }  // NOLINT: implicit on purpose
  /// The view, or invalid_state when the stream was moved from.
  [[nodiscard]] result<stream_ref> ref() const;

 private:
  hip_stream(hipStream_t handle, int device, bool owns, stream_flags flags, stream_priority priority) noexcept;
  void release() noexcept;

  hipStream_t handle_ = nullptr;
  int device_ = no_device;
  bool owns_ = false;
  stream_flags flags_ = stream_flags::default_flags;
  stream_priority priority_ = stream_priority::normal;
  detail::handle_state state_;
};

}  // namespace dtl::hip
