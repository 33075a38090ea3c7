// SPDX-License-Identifier: MIT
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include <fmt/format.h>

namespace dtl::hip {

result<device_guard> device_guard::enter(int device) {
  // The common case, the device is already current, costs one hipGetDevice (every allocation and
  // launch enters a guard). Devices are counted (check_device) only to explain a failure, and before a
  // switch, so that a bad id is refused without provoking a HIP error.
  int previous = no_device;
  if (const hipError_t e = hipGetDevice(&previous); e != hipSuccess) {
    const status native = to_status(e, "hipGetDevice");
    if (status s = check_device(device); !s.ok()) return s;
    return native;
  }
  if (previous == device) return device_guard(previous, device, false);
  if (status s = check_device(device); !s.ok()) return s;
  if (const hipError_t e = hipSetDevice(device); e != hipSuccess)
    return to_status(e, fmt::format("hipSetDevice({})", device));
  return device_guard(previous, device, true);
}

device_guard::device_guard(int target_device) noexcept
    : previous_(no_device), target_(target_device), switched_(false) {
  if (result<device_guard> entered = enter(target_device); entered) {
    previous_ = entered->previous_;
    switched_ = entered->switched_;
    entered->switched_ = false;  // this guard restores, not the temporary
  }
}

device_guard::device_guard(device_guard&& other) noexcept
    : previous_(other.previous_), target_(other.target_), switched_(other.switched_) {
  other.switched_ = false;  // the moved-from guard restores nothing
}

device_guard::~device_guard() {
  if (!switched_) return;
  if (const hipError_t e = hipSetDevice(previous_); e != hipSuccess)
    report_unhandled(to_status(e, fmt::format("restoring device {} (hipSetDevice)", previous_)));
}

}  // namespace dtl::hip
