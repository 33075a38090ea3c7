// SPDX-License-Identifier: MIT
// The requirements of the dtl-hip-* tests, added to the shared test main (dtl-core's tests/support):
//   --requires=gpu          a HIP device (devices:1)
//   --requires=devices:N    at least N devices (devices:2 for cases that use two devices)
//   --requires=no-device    only where the HIP runtime finds no device (the statuses given without one)
//   --requires=pool         a device on which a hip_pool_memory_space built with the automatic backing
//                           (so the one DTL_HIP_POOL_BACKING names) can be had; not_supported is a skip
#include "test_main.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <string>

namespace {

std::string plural(int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

/// Why tests that need `min_devices` devices cannot run here; empty when they can.
std::string too_few_devices(int min_devices) {
  const int devices = dtl::hip::device_count();
  if (devices >= min_devices) return {};
  return "these tests need " + plural(min_devices, "HIP device") + "; this machine has " +
         plural(devices, "HIP device");
}

std::string no_device() {
  const int devices = dtl::hip::device_count();
  if (devices == 0) return {};
  return "these tests check what happens without a HIP device; this machine has " + plural(devices, "HIP device");
}

std::string pool() {
  if (std::string why = too_few_devices(1); !why.empty()) return why;
  const dtl::hip::hip_pool_memory_space probe;  // other failures are the tests' to report
  if (probe.availability() == dtl::status_code::not_supported) return probe.availability().to_string();
  return {};
}

[[maybe_unused]] const bool registered = [] {
  dtl_test::add_requirement("gpu", [](int) { return too_few_devices(1); });
  dtl_test::add_requirement("devices:N", too_few_devices);
  dtl_test::add_requirement("no-device", [](int) { return no_device(); });
  dtl_test::add_requirement("pool", [](int) { return pool(); });
  return true;
}();

}  // namespace
