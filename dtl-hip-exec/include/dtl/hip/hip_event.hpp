// SPDX-License-Identifier: MIT
#pragma once
// hip_event: an RAII HIP event, bound to the device it was created on.
//
//   dtl::hip::hip_event event;   // timing disabled: the cheap kind, for synchronisation only
//   event.record(stream);
//   if (event.query()) { /* the work is done */ }
//   event.synchronize();
//
// As with hip_stream, the constructors throw dtl::status_error when the event cannot be made
// (backend_not_available without a device, invalid_argument for bad flags, hip_error from HIP);
// create() is the non-throwing twin. A moved-from event is the one invalid state: its operations
// return invalid_state.
//
// query() never blocks and says whether the recorded work is done; synchronize() blocks the host
// until it is (the vocabulary of dtl/core/event.hpp).

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/handle_state.hpp>
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <optional>

namespace dtl::hip {

class hip_stream;

/// Event options. Timing is off unless asked for: timed events cost about 10x more to record.
enum class event_flags : unsigned {
  none = 0,
  /// Records timestamps, so elapsed_ms() works (no hipEventDisableTiming).
  timing = 1u << 0,
  /// synchronize() sleeps instead of spinning (hipEventBlockingSync).
  blocking_sync = 1u << 1,
  /// Shareable with other processes (hipEventInterprocess); HIP requires timing to be off.
  interprocess = 1u << 2,
};

[[nodiscard]] constexpr event_flags operator|(event_flags a, event_flags b) noexcept {
  return static_cast<event_flags>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
[[nodiscard]] constexpr event_flags operator&(event_flags a, event_flags b) noexcept {
  return static_cast<event_flags>(static_cast<unsigned>(a) & static_cast<unsigned>(b));
}
[[nodiscard]] constexpr bool has_flag(event_flags set, event_flags flag) noexcept {
  return (set & flag) == flag && flag != event_flags::none;
}

class DTL_HIP_EXEC_API hip_event {
 public:
  /// An event on the current device, timing disabled. Throws status_error on failure (create() does not).
  hip_event();
  explicit hip_event(event_flags flags);

  /// The constructors' twin: a failure comes back as a status. `device` defaults to the current one.
  /// Unknown flag bits, and interprocess together with timing (as HIP requires), are invalid_argument,
  /// checked before the device.
  [[nodiscard]] static result<hip_event> create(event_flags flags = event_flags::none,
                                                std::optional<int> device = std::nullopt);

  /// An event in the moved-from state (owns nothing; every call returns invalid_state).
  explicit hip_event(detail::moved_from_t) noexcept {}

  hip_event(hip_event&& other) noexcept;
  hip_event& operator=(hip_event&& other) noexcept;
  hip_event(const hip_event&) = delete;
  hip_event& operator=(const hip_event&) = delete;
  ~hip_event();

  /// false only for a moved-from event.
  [[nodiscard]] bool valid() const noexcept { return state_.valid(); }
  /// invalid_state for a moved-from event; ok otherwise.
  [[nodiscard]] const status& error() const noexcept;

  /// Captures the work submitted to `stream` so far. The stream must be valid and on this event's device.
  [[nodiscard]] result<void> record(const hip_stream& stream);
  /// Same, for a stream of this event's device given as a view (the default stream: that device's).
  [[nodiscard]] result<void> record(stream_ref stream);

  /// complete when the recorded work is done (also when nothing was ever recorded, as in HIP),
  /// pending while it runs, failed when the device reports an error (a kernel fault, for example).
  /// `if (event.query())` reads "the work is done".
  [[nodiscard]] event_status query() const;
  /// Blocks the host until the recorded work is done; returns the device's error if it failed.
  [[nodiscard]] result<void> synchronize();

  /// Milliseconds between two completed events; both need event_flags::timing and a record().
  [[nodiscard]] static result<float> elapsed_ms(const hip_event& start, const hip_event& end);

  [[nodiscard]] hipEvent_t native_handle() const noexcept { return handle_; }
  /// The device the event belongs to; dtl::no_device when moved from.
  [[nodiscard]] int device() const noexcept { return device_; }
  [[nodiscard]] event_flags flags() const noexcept { return flags_; }
  /// true once record() has succeeded.
  [[nodiscard]] bool recorded() const noexcept { return recorded_; }

 private:
  hip_event(hipEvent_t handle, int device, event_flags flags) noexcept;
  void release() noexcept;

  hipEvent_t handle_ = nullptr;
  int device_ = no_device;
  event_flags flags_ = event_flags::none;
  bool recorded_ = false;
  detail::handle_state state_;
};

static_assert(dtl::Event<hip_event>);

}  // namespace dtl::hip
