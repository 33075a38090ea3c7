#pragma once
// device_guard: makes a device current for a scope and restores the caller's device afterwards.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/result.hpp>

namespace dtl::hip {

class [[nodiscard]] DTL_HIP_MEM_API device_guard {
 public:
  /// Makes `device` current (a no-op when it already is). Fails with the status of check_device().
  static result<device_guard> enter(int device);

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

 private:
  device_guard(int previous, int target, bool switched) noexcept
      : previous_(previous), target_(target), switched_(switched) {}
  int previous_;
  int target_;
  bool switched_;
};

}  // namespace dtl::hip
