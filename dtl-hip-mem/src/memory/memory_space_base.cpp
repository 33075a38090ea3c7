#include <dtl/hip/memory_space_base.hpp>

#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include "space_support.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace dtl::hip {

namespace {

// Frees memory that was never counted because a later step of its allocation failed. The caller is
// already returning that first error, so a failure here can only be reported.
void release_uncounted(void* ptr, const detail::allocator_calls& calls) noexcept {
  if (const hipError_t e = calls.free(ptr); e != hipSuccess)
    report_unhandled(to_status(e, std::string(calls.free_name) + " after a failed allocation"));
}

}  // namespace

memory_space_base::memory_space_base(const detail::allocator_calls& calls) : calls_(&calls), device_(no_device) {
  result<int> current = current_device();
  if (current.has_value())
    device_ = *current;
  else
    availability_ = std::move(current).error();
}

memory_space_base::memory_space_base(const detail::allocator_calls& calls, int device)
    : calls_(&calls), device_(device), availability_(check_device(device)) {}

void memory_space_base::restrict_availability(status reason) {
  if (availability_.ok()) availability_ = std::move(reason);
}

result<void*> memory_space_base::allocate(std::size_t bytes, std::size_t alignment) {
  DTL_TRY(check_allocation_request(bytes, alignment, max_alignment));
  DTL_TRY(availability_);
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));

  void* ptr = nullptr;
  if (const hipError_t e = calls_->allocate(&ptr, bytes); e != hipSuccess)
    return to_status(e, fmt::format("{}({} bytes) on device {}", calls_->allocate_name, bytes, device_));
  if (ptr == nullptr)
    return status(status_code::internal_error,
                  fmt::format("{}({} bytes) on device {} succeeded but gave nullptr", calls_->allocate_name, bytes,
                              device_));
  if (reinterpret_cast<std::uintptr_t>(ptr) % alignment != 0) {
    release_uncounted(ptr, *calls_);
    return status(status_code::internal_error,
                  fmt::format("{}({} bytes) on device {} gave memory aligned to less than {} bytes",
                              calls_->allocate_name, bytes, device_, alignment));
  }
  if (calls_->after_allocate != nullptr) {
    if (status s = calls_->after_allocate(ptr, bytes, device_); !s.ok()) {
      release_uncounted(ptr, *calls_);
      return s;
    }
  }
  counter_.record_allocate(bytes);
  return ptr;
}

status memory_space_base::try_deallocate(void* ptr, std::size_t bytes) {
  if (ptr == nullptr) return {};
  DTL_TRY(availability_);  // such a space never allocated anything
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));
  if (const hipError_t e = calls_->free(ptr); e != hipSuccess)
    return to_status(e, fmt::format("{}({} bytes) on device {}", calls_->free_name, bytes, device_));
  counter_.record_deallocate(bytes);
  return {};
}

void memory_space_base::deallocate(void* ptr, std::size_t bytes) noexcept {
  try {
    if (status s = try_deallocate(ptr, bytes); !s.ok()) report_unhandled(s);
  } catch (...) {  // only formatting a message can throw (bad_alloc); the failure is still reported
    report_unhandled(status(status_code::internal_error, "deallocate failed and its error could not be formatted"));
  }
}

result<bool> memory_space_base::holds(const void* ptr, memory_kind kind, bool on_this_device) const {
  if (ptr == nullptr) return false;
  DTL_TRY(availability_);
  DTL_ASSIGN_OR_RETURN(const pointer_attributes attr, query_pointer(ptr));
  if (attr.kind != kind) return false;
  return !on_this_device || attr.device == device_;
}

namespace detail {

status check_managed_capability(int device, bool need_concurrent_access, std::string_view space,
                                managed_memory_support& support) {
  DTL_ASSIGN_OR_RETURN(support, query_managed_memory_support(device));
  if (!support.managed_memory)
    return status(status_code::not_supported,
                  fmt::format("{}: device {} does not support managed memory (hipDeviceAttributeManagedMemory = 0)",
                              space, device));
  if (need_concurrent_access && !support.concurrent_managed_access)
    return status(status_code::not_supported,
                  fmt::format("{}: device {} has no concurrent managed access "
                              "(hipDeviceAttributeConcurrentManagedAccess = 0), so a preferred location would "
                              "have no effect",
                              space, device));
  return {};
}

}  // namespace detail

}  // namespace dtl::hip
