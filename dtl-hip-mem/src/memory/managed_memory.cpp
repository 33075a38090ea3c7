// SPDX-License-Identifier: MIT
#include <dtl/hip/managed_memory.hpp>

#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/pointer.hpp>

#include <fmt/format.h>

namespace dtl::hip {

static_assert(location_host == hipCpuDeviceId);
static_assert(location_none == hipInvalidDeviceId);

namespace {

result<bool> attribute_flag(hipDeviceAttribute_t attr, int device, const char* what) {
  int value = 0;
  if (const hipError_t e = hipDeviceGetAttribute(&value, attr, device); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceGetAttribute({}) on device {}", what, device));
  return value != 0;
}

// nullptr and 0 bytes are refused before anything else is looked at.
status check_range(const void* ptr, std::size_t bytes, std::string_view what) {
  if (ptr == nullptr) return status(status_code::invalid_argument, fmt::format("{}: ptr is nullptr", what));
  if (bytes == 0) return status(status_code::invalid_argument, fmt::format("{}: 0 bytes", what));
  return {};
}

// A device id given as an argument: a device, or location_host where `host_allowed`. Whether that device
// exists can only be told once the devices are counted (check_device, later).
status check_device_argument(int device, bool host_allowed, std::string_view what) {
  if (device >= 0 || (host_allowed && device == location_host)) return {};
  return status(status_code::invalid_argument, fmt::format("{}: device {} is neither a device id{}", what, device,
                                                           host_allowed ? " nor location_host" : ""));
}

// Memory that is not managed is refused before HIP sees it (this needs a device).
result<pointer_attributes> query_managed(const void* ptr, std::string_view what) {
  DTL_ASSIGN_OR_RETURN(const pointer_attributes attr, query_pointer(ptr));
  if (attr.kind != memory_kind::managed)
    return status(status_code::invalid_pointer,
                  fmt::format("{}: {} is {} memory, not managed memory (hipMallocManaged)", what, ptr,
                              memory_kind_name(attr.kind)));
  return attr;
}

// The device whose capabilities govern memory allocated against `attr.device`.
result<int> owning_device(const pointer_attributes& attr) {
  if (attr.device >= 0) return attr.device;
  return current_device();
}

status require_concurrent_access(int device, std::string_view what) {
  DTL_ASSIGN_OR_RETURN(const managed_memory_support support, query_managed_memory_support(device));
  if (!support.managed_memory)
    return status(status_code::not_supported,
                  fmt::format("{}: device {} does not support managed memory", what, device));
  if (!support.concurrent_managed_access)
    return status(status_code::not_supported,
                  fmt::format("{}: device {} has no concurrent managed access "
                              "(hipDeviceAttributeConcurrentManagedAccess = 0), so managed memory does not "
                              "migrate and prefetching or placement advice would have no effect",
                              what, device));
  return {};
}

hipMemoryAdvise to_hip(mem_advice advice) noexcept {
  switch (advice) {
    case mem_advice::set_read_mostly: return hipMemAdviseSetReadMostly;
    case mem_advice::unset_read_mostly: return hipMemAdviseUnsetReadMostly;
    case mem_advice::set_preferred_location: return hipMemAdviseSetPreferredLocation;
    case mem_advice::unset_preferred_location: return hipMemAdviseUnsetPreferredLocation;
    case mem_advice::set_accessed_by: return hipMemAdviseSetAccessedBy;
    case mem_advice::unset_accessed_by: return hipMemAdviseUnsetAccessedBy;
  }
  return hipMemAdviseSetReadMostly;  // unreachable: advise() checks the value first
}

bool is_known(mem_advice advice) noexcept {
  return advice >= mem_advice::set_read_mostly && advice <= mem_advice::unset_accessed_by;
}

result<int> range_location(const void* ptr, std::size_t bytes, hipMemRangeAttribute attribute, std::string_view what) {
  DTL_TRY(check_range(ptr, bytes, what));
  DTL_TRY(query_managed(ptr, what));
  int location = location_none;
  if (const hipError_t e = hipMemRangeGetAttribute(&location, sizeof location, attribute, ptr, bytes); e != hipSuccess)
    return to_status(e, fmt::format("hipMemRangeGetAttribute({}) for {} bytes at {}", what, bytes, ptr));
  return location;
}

}  // namespace

result<managed_memory_support> query_managed_memory_support(int device) {
  DTL_TRY(check_device(device));
  managed_memory_support support;
  DTL_ASSIGN_OR_RETURN(support.managed_memory,
                       attribute_flag(hipDeviceAttributeManagedMemory, device, "ManagedMemory"));
  DTL_ASSIGN_OR_RETURN(support.concurrent_managed_access,
                       attribute_flag(hipDeviceAttributeConcurrentManagedAccess, device, "ConcurrentManagedAccess"));
  DTL_ASSIGN_OR_RETURN(support.pageable_memory_access,
                       attribute_flag(hipDeviceAttributePageableMemoryAccess, device, "PageableMemoryAccess"));
  return support;
}

std::string_view mem_advice_name(mem_advice advice) noexcept {
  switch (advice) {
    case mem_advice::set_read_mostly: return "set_read_mostly";
    case mem_advice::unset_read_mostly: return "unset_read_mostly";
    case mem_advice::set_preferred_location: return "set_preferred_location";
    case mem_advice::unset_preferred_location: return "unset_preferred_location";
    case mem_advice::set_accessed_by: return "set_accessed_by";
    case mem_advice::unset_accessed_by: return "unset_accessed_by";
  }
  return "unknown_mem_advice";
}

result<void> advise(const void* ptr, std::size_t bytes, mem_advice advice, int device) {
  if (!is_known(advice))
    return status(status_code::invalid_argument,
                  fmt::format("advise: unknown mem_advice {}", static_cast<int>(advice)));
  DTL_TRY(check_range(ptr, bytes, "advise"));
  const bool read_mostly = advice == mem_advice::set_read_mostly || advice == mem_advice::unset_read_mostly;
  if (!read_mostly) {
    DTL_TRY(check_device_argument(device, true, "advise"));
  }
  DTL_ASSIGN_OR_RETURN(const pointer_attributes attr, query_managed(ptr, "advise"));
  int target = device;  // what hipMemAdvise is given
  if (read_mostly) {
    DTL_ASSIGN_OR_RETURN(target, owning_device(attr));  // the runtime ignores the device for this advice
  } else if (device != location_host) {
    DTL_TRY(check_device(device));
  }
  // The capability that matters is the target device's; for the host, that of the memory's own device.
  int capable = target;
  if (target == location_host) {
    DTL_ASSIGN_OR_RETURN(capable, owning_device(attr));
  }
  DTL_TRY(require_concurrent_access(capable, "advise"));
  if (const hipError_t e = hipMemAdvise(ptr, bytes, to_hip(advice), target); e != hipSuccess)
    return to_status(e, fmt::format("hipMemAdvise({}, {} bytes, device {})", mem_advice_name(advice), bytes, target));
  return {};
}

result<void> prefetch_to_device(const void* ptr, std::size_t bytes, int device, stream_ref stream) {
  DTL_TRY(check_range(ptr, bytes, "prefetch_to_device"));
  DTL_TRY(check_device_argument(device, false, "prefetch_to_device"));
  DTL_TRY(query_managed(ptr, "prefetch_to_device"));
  DTL_TRY(check_device(device));
  DTL_TRY(require_concurrent_access(device, "prefetch_to_device"));
  if (const hipError_t e = hipMemPrefetchAsync(ptr, bytes, device, stream.get()); e != hipSuccess)
    return to_status(e, fmt::format("hipMemPrefetchAsync({} bytes to device {})", bytes, device));
  return {};
}

result<void> prefetch_to_host(const void* ptr, std::size_t bytes, stream_ref stream) {
  DTL_TRY(check_range(ptr, bytes, "prefetch_to_host"));
  DTL_ASSIGN_OR_RETURN(const pointer_attributes attr, query_managed(ptr, "prefetch_to_host"));
  DTL_ASSIGN_OR_RETURN(const int device, owning_device(attr));
  DTL_TRY(require_concurrent_access(device, "prefetch_to_host"));
  if (const hipError_t e = hipMemPrefetchAsync(ptr, bytes, hipCpuDeviceId, stream.get()); e != hipSuccess)
    return to_status(e, fmt::format("hipMemPrefetchAsync({} bytes to the host)", bytes));
  return {};
}

result<int> preferred_location(const void* ptr, std::size_t bytes) {
  return range_location(ptr, bytes, hipMemRangeAttributePreferredLocation, "preferred_location");
}

result<int> last_prefetch_location(const void* ptr, std::size_t bytes) {
  return range_location(ptr, bytes, hipMemRangeAttributeLastPrefetchLocation, "last_prefetch_location");
}

}  // namespace dtl::hip
