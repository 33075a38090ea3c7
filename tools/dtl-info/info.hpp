// SPDX-License-Identifier: MIT
#pragma once
// dtl-info's findings: how this build was made, the HIP runtime, every device, and (with --bandwidth) a
// quick copy measurement. probe() fills them in; probe_hip.cpp (HIP builds) or probe_without_hip.cpp
// (host-only builds) implements it, chosen by the build.

#include <dtl/core/device_id.hpp>
#include <dtl/core/status.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dtl_info {

/// One copy direction measured with --bandwidth: GB/s (10^9 bytes per second), or why it failed.
struct bandwidth {
  double gbps = 0.0;
  dtl::status error;
};

struct device_bandwidth {
  std::size_t bytes = 0;  // per copy
  int repeats = 0;        // the figure is the best of these
  bandwidth host_to_device;
  bandwidth device_to_host;
  bandwidth device_to_device;
};

struct device_info {
  int id = dtl::no_device;
  std::string name;
  std::string arch;
  int wavefront_size = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0;
  std::size_t free_memory = 0;
  bool managed_memory = false;
  bool concurrent_managed_access = false;
  bool pageable_memory_access = false;
  std::optional<device_bandwidth> copies;  // with --bandwidth
  dtl::status error;                       // when the device could not be queried
};

struct runtime_info {
  std::string name;         // "HIP (ROCm)" or "HIP on CUDA"
  int runtime_version = 0;  // hipRuntimeGetVersion
  int driver_version = 0;   // hipDriverGetVersion; 0 when there is no driver
};

struct report {
  std::optional<runtime_info> runtime;  // none in a build without HIP
  std::vector<device_info> devices;
  /// peer[i][j]: device i can access device j's memory directly (hipDeviceCanAccessPeer).
  std::vector<std::vector<bool>> peer;
  /// Set when there is no device: why, in one line, plus hints on what to check.
  std::string no_device_reason;
  std::vector<std::string> no_device_hints;
};

/// Looks at the runtime and every device; measures copies when `bandwidth` is set.
report probe(bool bandwidth);

}  // namespace dtl_info
