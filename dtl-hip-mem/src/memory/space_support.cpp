#include "space_support.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include <fmt/format.h>

#include <cstdint>

namespace dtl::hip::detail {

bound_device bind_current_device() {
  result<int> current = current_device();
  if (!current) return {no_device, std::move(current).error()};
  return {*current, status{}};
}

bound_device bind_device(int device) { return {device, check_device(device)}; }

status check_managed_capability(const bound_device& device, bool need_concurrent_access, std::string_view space,
                                managed_memory_support& support) {
  DTL_TRY(device.availability);
  DTL_ASSIGN_OR_RETURN(support, query_managed_memory_support(device.id));
  if (!support.managed_memory)
    return status(status_code::not_supported,
                  fmt::format("{}: device {} does not support managed memory (hipDeviceAttributeManagedMemory = 0)",
                              space, device.id));
  if (need_concurrent_access && !support.concurrent_managed_access)
    return status(status_code::not_supported,
                  fmt::format("{}: device {} has no concurrent managed access "
                              "(hipDeviceAttributeConcurrentManagedAccess = 0), so a preferred location would "
                              "have no effect",
                              space, device.id));
  return {};
}

namespace {

// Frees memory that was never counted because a later step of its allocation failed. The caller is
// already returning that first error, so a failure here can only be reported.
void release_uncounted(void* ptr, const allocator_calls& calls) noexcept {
  if (const hipError_t e = calls.free(ptr); e != hipSuccess)
    report_unhandled(to_status(e, fmt::format("{} after a failed allocation", calls.free_name)));
}

}  // namespace

result<void*> allocate_on(int device, const status& availability, std::size_t bytes, std::size_t alignment,
                          const allocator_calls& calls, allocation_counter& counter) {
  // Larger alignments would need over-allocation and a side table; they are refused, never leaked.
  DTL_TRY(check_allocation_request(bytes, alignment, runtime_alignment));
  DTL_TRY(availability);
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device));

  void* ptr = nullptr;
  if (const hipError_t e = calls.allocate(&ptr, bytes); e != hipSuccess)
    return to_status(e, fmt::format("{}({} bytes) on device {}", calls.allocate_name, bytes, device));
  if (ptr == nullptr)
    return status(status_code::internal_error,
                  fmt::format("{}({} bytes) on device {} succeeded but gave nullptr", calls.allocate_name, bytes,
                              device));
  if (reinterpret_cast<std::uintptr_t>(ptr) % alignment != 0) {
    release_uncounted(ptr, calls);
    return status(status_code::internal_error,
                  fmt::format("{}({} bytes) on device {} gave memory aligned to less than {} bytes",
                              calls.allocate_name, bytes, device, alignment));
  }
  if (calls.after_allocate != nullptr) {
    if (status s = calls.after_allocate(ptr, bytes, device); !s.ok()) {
      release_uncounted(ptr, calls);
      return s;
    }
  }
  counter.record_allocate(bytes);
  return ptr;
}

status free_on(int device, const status& availability, void* ptr, std::size_t bytes, const allocator_calls& calls,
               allocation_counter& counter) {
  if (ptr == nullptr) return {};
  DTL_TRY(availability);  // such a space never allocated anything
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device));
  if (const hipError_t e = calls.free(ptr); e != hipSuccess)
    return to_status(e, fmt::format("{}({} bytes) on device {}", calls.free_name, bytes, device));
  counter.record_deallocate(bytes);
  return {};
}

void free_or_report(int device, const status& availability, void* ptr, std::size_t bytes, const allocator_calls& calls,
                    allocation_counter& counter) noexcept {
  if (status s = free_on(device, availability, ptr, bytes, calls, counter); !s.ok()) report_unhandled(s);
}

result<bool> holds(int device, const status& availability, const void* ptr, memory_kind kind) {
  if (ptr == nullptr) return false;
  DTL_TRY(availability);
  DTL_ASSIGN_OR_RETURN(const pointer_attributes attr, query_pointer(ptr));
  if (attr.kind != kind) return false;
  return device == any_device || attr.device == device;
}

}  // namespace dtl::hip::detail
