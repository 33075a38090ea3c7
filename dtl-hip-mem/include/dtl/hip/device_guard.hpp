// SPDX-License-Identifier: MIT
#pragma once
// device_guard: makes a device current for a scope and restores the caller's device afterwards.

#include <dtl/hip/device.hpp>
#include <dtl/hip/export_mem.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/result.hpp>

namespace dtl::hip {

class [[nodiscard]] DTL_HIP_MEM_API device_guard {
 public:
  /// Makes `device` current (a no-op when it already is). Fails with the status of check_device().
  static result<device_guard> enter(int device);
  /// Upstream DTL's form (dtl::hip::device_guard guard(d);): the same, best effort: where enter() would
  /// fail, nothing is switched (switched() is false) and the scope runs on the caller's device.
  explicit device_guard(int target_device) noexcept;

  device_guard(device_guard&& other) noexcept;
  device_guard& operator=(device_guard&&) = delete;
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

  /// Restores the previous device. A failure cannot be returned from here; it goes to
  /// dtl::report_unhandled().
  ~device_guard();

  [[nodiscard]] int previous_device() const noexcept { return previous_; }
  [[nodiscard]] int device() const noexcept { return target_; }
  [[nodiscard]] bool switched() const noexcept { return switched_; }
  /// Upstream's names: the device asked for, and whether any device is there to switch to.
  [[nodiscard]] int target_device() const noexcept { return target_; }
  [[nodiscard]] static bool available() noexcept { return device_count() > 0; }

 private:
  device_guard(int previous, int target, bool switched) noexcept
      : previous_(previous), target_(target), switched_(switched) {}
  int previous_;
  int target_;
  bool switched_;
};

/// Upstream's spellings: the id of no device, and the calling thread's current device (or
/// invalid_device_id when there is none).
inline constexpr int invalid_device_id = no_device;
[[nodiscard]] inline int current_device_id() noexcept {
  const result<int> d = current_device();
  return d ? *d : invalid_device_id;
}

}  // namespace dtl::hip
