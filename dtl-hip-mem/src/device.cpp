// SPDX-License-Identifier: MIT
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/error.hpp>

#include "platform.hpp"

#include <fmt/format.h>

#include <cctype>
#include <string>

namespace dtl::hip {

namespace {

int query_device_count() noexcept {
  int count = 0;
  // Any error means "no usable device": hipErrorNoDevice (100) on AMD, 35 on NVIDIA without a driver.
  if (hipGetDeviceCount(&count) != hipSuccess) {
    const hipError_t cleared = hipGetLastError();  // do not leave it pending for a later launch check
    static_cast<void>(cleared);
    return 0;
  }
  return count < 0 ? 0 : count;
}

status no_device_status(std::string_view what) {
  if (what.empty()) return status(status_code::backend_not_available, "no HIP device is available");
  return status(status_code::backend_not_available, fmt::format("{}: no HIP device is available", what));
}

}  // namespace

int device_count() noexcept {
  // The runtime fixes the devices a process sees when it starts (HIP_VISIBLE_DEVICES,
  // CUDA_VISIBLE_DEVICES), so one query serves the whole run; every check on a hot path asks this.
  static const int count = query_device_count();
  return count;
}

status require_device(std::string_view what) {
  if (device_count() > 0) return {};
  return no_device_status(what);
}

status check_device(int device) {
  // The argument first: a negative id names no device on any machine.
  if (device < 0)
    return status(status_code::invalid_argument,
                  fmt::format("device {} does not exist (device ids start at 0)", device));
  const int count = device_count();
  if (count == 0) return no_device_status({});
  if (device >= count)
    return status(status_code::invalid_argument,
                  fmt::format("device {} does not exist (this process sees {} HIP device{})", device, count,
                              count == 1 ? "" : "s"));
  return {};
}

result<int> resolve_device(std::optional<int> device) {
  if (!device.has_value()) return current_device();
  if (status s = check_device(*device); !s.ok()) return s;
  return *device;
}

result<int> current_device() {
  DTL_TRY(require_device({}));
  int device = no_device;
  DTL_HIP_TRY(hipGetDevice(&device));
  return device;
}

namespace {

result<int> attribute(hipDeviceAttribute_t attr, int device, const char* what) {
  int value = 0;
  if (const hipError_t e = hipDeviceGetAttribute(&value, attr, device); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceGetAttribute({}) on device {}", what, device));
  return value;
}

result<std::string> pci_bus_id(int device) {
  char text[32] = {};  // "dddd:bb:dd.f" and its terminator, with room to spare
  if (const hipError_t e = hipDeviceGetPCIBusId(text, static_cast<int>(sizeof text), device); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceGetPCIBusId on device {}", device));
  std::string id(text);
  // NVIDIA's runtime gives "00000000:C1:00.0"; sysfs (and AMD) "0000:c1:00.0": one spelling for both.
  if (const auto colon = id.find(':'); colon != std::string::npos && colon > 4) id.erase(0, colon - 4);
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return id;
}

}  // namespace

result<memory_info> get_memory_info(int device) {
  DTL_ASSIGN_OR_RETURN(device_guard guard, device_guard::enter(device));
  memory_info info;
  if (const hipError_t e = hipMemGetInfo(&info.free, &info.total); e != hipSuccess)
    return to_status(e, fmt::format("hipMemGetInfo on device {}", device));
  return info;
}

result<device_properties> get_static_device_properties(int device) {
  if (status s = check_device(device); !s.ok()) return s;
  hipDeviceProp_t prop{};
  if (const hipError_t e = hipGetDeviceProperties(&prop, device); e != hipSuccess)
    return to_status(e, fmt::format("hipGetDeviceProperties on device {}", device));

  device_properties p;
  p.id = device;
  p.name = prop.name;
  p.arch = platform::arch_name(prop);
  p.warp_size = prop.warpSize;
  p.compute_major = prop.major;
  p.compute_minor = prop.minor;
  p.multiprocessors = prop.multiProcessorCount;
  p.total_memory = prop.totalGlobalMem;
  p.shared_memory_per_block = prop.sharedMemPerBlock;

  DTL_ASSIGN_OR_RETURN(const int managed, attribute(hipDeviceAttributeManagedMemory, device, "ManagedMemory"));
  DTL_ASSIGN_OR_RETURN(const int concurrent,
                       attribute(hipDeviceAttributeConcurrentManagedAccess, device, "ConcurrentManagedAccess"));
  DTL_ASSIGN_OR_RETURN(const int pageable,
                       attribute(hipDeviceAttributePageableMemoryAccess, device, "PageableMemoryAccess"));
  p.managed_memory = managed != 0;
  p.concurrent_managed_access = concurrent != 0;
  p.pageable_memory_access = pageable != 0;

  DTL_ASSIGN_OR_RETURN(p.pci_bus_id, pci_bus_id(device));
  return p;
}

result<device_properties> get_device_properties(int device) {
  DTL_ASSIGN_OR_RETURN(device_properties p, get_static_device_properties(device));
  DTL_ASSIGN_OR_RETURN(const memory_info mem, get_memory_info(device));
  p.free_memory = mem.free;
  return p;
}

result<bool> can_access_peer(int device, int peer) {
  DTL_TRY(check_device(device));
  DTL_TRY(check_device(peer));
  if (device == peer) return true;  // the runtime answers 0 for a device and itself
  int can = 0;
  if (const hipError_t e = hipDeviceCanAccessPeer(&can, device, peer); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceCanAccessPeer({}, {})", device, peer));
  return can != 0;
}

result<int> runtime_version() {
  int version = 0;
  DTL_HIP_TRY(hipRuntimeGetVersion(&version));
  return version;
}

const char* platform_name() noexcept { return platform::name(); }

}  // namespace dtl::hip
