// SPDX-License-Identifier: MIT
#pragma once
// Devices: how many, which is current, and what each one can do.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dtl::hip {

/// The number of usable HIP devices. 0 when there is none, including when the runtime reports
/// any error (AMD says hipErrorNoDevice, NVIDIA without a driver says error 35). Never fails. The runtime is
/// asked once per process: the devices a process sees are fixed when the runtime starts.
[[nodiscard]] DTL_HIP_MEM_API int device_count() noexcept;

/// ok when the HIP runtime finds a device; otherwise backend_not_available ("<what>: no HIP device is
/// available"). Every call that needs a device asks this after checking its arguments and before it
/// calls HIP, so that "no device" always reads the same, whichever call met it first.
[[nodiscard]] DTL_HIP_MEM_API status require_device(std::string_view what);

/// The calling thread's current device; backend_not_available when there is no device.
[[nodiscard]] DTL_HIP_MEM_API result<int> current_device();

/// ok when `device` names a usable device. A negative id is invalid_argument on every machine; then
/// backend_not_available when there is no device, invalid_argument for an id past the last one.
[[nodiscard]] DTL_HIP_MEM_API status check_device(int device);

/// `device` once checked (check_device), or the calling thread's current device when none is given.
[[nodiscard]] DTL_HIP_MEM_API result<int> resolve_device(std::optional<int> device);

struct device_properties {
  int id = no_device;
  std::string name;
  std::string arch;   // "gfx90a" on AMD, "sm_90" on NVIDIA
  int warp_size = 0;  // 64 on AMD CDNA (a wavefront), 32 on NVIDIA
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0;  // bytes
  std::size_t free_memory = 0;   // bytes, when the properties were read
  std::size_t shared_memory_per_block = 0;
  bool managed_memory = false;             // hipMallocManaged gives real managed memory
  bool concurrent_managed_access = false;  // host and device may touch managed memory at once; prefetch works
  bool pageable_memory_access = false;     // the device can read plain host memory (HMM / ATS)
  std::string pci_bus_id;  // "0000:c1:00.0" (hipDeviceGetPCIBusId, lower case as Linux's sysfs spells it)
};

/// Reads the properties of `device`; leaves the current device unchanged.
[[nodiscard]] DTL_HIP_MEM_API result<device_properties> get_device_properties(int device);
/// The same without free_memory (left 0), which is the one property that needs a context on the device:
/// for looking at every device without costing each one a context's memory (on NVIDIA).
[[nodiscard]] DTL_HIP_MEM_API result<device_properties> get_static_device_properties(int device);

/// Whether `device` can access `peer`'s memory directly (hipDeviceCanAccessPeer); true for a device and
/// itself. Checks both ids first (check_device).
[[nodiscard]] DTL_HIP_MEM_API result<bool> can_access_peer(int device, int peer);

struct memory_info {
  std::size_t free = 0;
  std::size_t total = 0;
};

/// Free and total memory of `device` (hipMemGetInfo); leaves the current device unchanged.
[[nodiscard]] DTL_HIP_MEM_API result<memory_info> get_memory_info(int device);

/// The HIP runtime's version number (HIP_VERSION style on AMD, CUDA's on NVIDIA).
[[nodiscard]] DTL_HIP_MEM_API result<int> runtime_version();

/// "amd" or "nvidia": the platform this library was built for.
[[nodiscard]] DTL_HIP_MEM_API const char* platform_name() noexcept;

}  // namespace dtl::hip
