// SPDX-License-Identifier: MIT
#include <dtl/hip/memory_space_base.hpp>

#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include "known_memory.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace dtl::hip {

namespace {

// The advice is part of a device-preferred allocation: if it fails, the memory is freed and the error returned.
status prefer_device(void* ptr, std::size_t bytes, int device) {
  if (const hipError_t e = hipMemAdvise(ptr, bytes, hipMemAdviseSetPreferredLocation, device); e != hipSuccess)
    return to_status(e, fmt::format("hipMemAdvise(SetPreferredLocation, {} bytes, device {})", bytes, device));
  return {};
}

/// What one kind of space does differently: a row of the table below.
struct space_traits {
  hipError_t (*allocate)(void** out, std::size_t bytes);
  const char* allocate_name;  // for messages: "hipMalloc"
  hipError_t (*free)(void* ptr);
  const char* free_name;            // "hipFree"
  memory_kind memory;               // what query_pointer says about the memory
  bool contains_needs_same_device;  // contains(): only memory of this space's device counts
  bool needs_managed_memory;
  bool needs_concurrent_access;
  /// Optional: runs after a successful allocate; if it fails the memory is freed and its error returned.
  status (*after_allocate)(void* ptr, std::size_t bytes, int device);
  memory_space_properties properties;  // device_id is filled in; supports_atomics may depend on the device
};

hipError_t hip_free(void* ptr) { return hipFree(ptr); }
hipError_t managed_allocate(void** out, std::size_t bytes) { return hipMallocManaged(out, bytes, hipMemAttachGlobal); }

constexpr std::size_t alignment = memory_space_base::max_alignment;

const space_traits& traits(space_kind kind) noexcept {
  // One row per space, as a table.
  // clang-format off
  static const space_traits device{[](void** out, std::size_t bytes) { return hipMalloc(out, bytes); },
                                   "hipMalloc", hip_free, "hipFree", memory_kind::device, true, false, false,
                                   nullptr,
                                   {.host_accessible = false, .device_accessible = true, .unified = false,
                                    .pageable = false, .supports_atomics = true, .alignment = alignment}};
  static const space_traits managed{managed_allocate, "hipMallocManaged", hip_free, "hipFree", memory_kind::managed,
                                    false, true, false, nullptr,
                                    // pages migrate between host and device; atomics only with concurrent access
                                    {.host_accessible = true, .device_accessible = true, .unified = true,
                                     .pageable = true, .supports_atomics = true, .alignment = alignment}};
  static const space_traits preferred{managed_allocate, "hipMallocManaged", hip_free, "hipFree",
                                      memory_kind::managed, false, true, true, prefer_device,
                                      {.host_accessible = true, .device_accessible = true, .unified = true,
                                       .pageable = true, .supports_atomics = true, .alignment = alignment}};
  static const space_traits pinned{
      [](void** out, std::size_t bytes) { return hipHostMalloc(out, bytes, hipHostMallocDefault); }, "hipHostMalloc",
      [](void* ptr) { return hipHostFree(ptr); }, "hipHostFree", memory_kind::host_pinned, false, false, false,
      nullptr,
      // device atomics on host memory depend on the bus (PCIe atomics)
      {.host_accessible = true, .device_accessible = true, .unified = false, .pageable = false,
       .supports_atomics = false, .alignment = alignment}};
  // clang-format on
  switch (kind) {
    case space_kind::device: return device;
    case space_kind::managed: return managed;
    case space_kind::device_preferred: return preferred;
    case space_kind::pinned: break;
  }
  return pinned;
}

// Frees memory that was never counted because a later step of its allocation failed. The caller is
// already returning that first error, so a failure here can only be reported.
void release_uncounted(void* ptr, const space_traits& t) noexcept {
  if (const hipError_t e = t.free(ptr); e != hipSuccess)
    report_unhandled(to_status(e, std::string(t.free_name) + " after a failed allocation"));
}

}  // namespace

memory_space_base::memory_space_base(space_kind kind)
    : kind_(kind), owner_(detail::new_owner_id()), device_(no_device) {
  result<int> current = current_device();
  if (current.has_value())
    device_ = *current;
  else
    availability_ = std::move(current).error();
  check_capabilities();
}

memory_space_base::memory_space_base(space_kind kind, int device)
    : kind_(kind), owner_(detail::new_owner_id()), device_(device), availability_(check_device(device)) {
  check_capabilities();
}

// Managed spaces: without the capability they need, every allocate says not_supported.
void memory_space_base::check_capabilities() {
  const space_traits& t = traits(kind_);
  if (!availability_.ok() || !t.needs_managed_memory) return;
  result<managed_memory_support> support = query_managed_memory_support(device_);
  if (!support.has_value()) {
    availability_ = std::move(support).error();
    return;
  }
  support_ = *support;
  if (!support_.managed_memory) {
    availability_ = status(status_code::not_supported,
                           fmt::format("{}: device {} does not support managed memory (hipDeviceAttributeManagedMemory "
                                       "= 0)",
                                       space_kind_name(kind_), device_));
  } else if (t.needs_concurrent_access && !support_.concurrent_managed_access) {
    availability_ = status(status_code::not_supported,
                           fmt::format("{}: device {} has no concurrent managed access "
                                       "(hipDeviceAttributeConcurrentManagedAccess = 0), so a preferred location would "
                                       "have no effect",
                                       space_kind_name(kind_), device_));
  }
}

result<void*> memory_space_base::allocate(std::size_t bytes, std::size_t alignment) {
  DTL_TRY(check_allocation_request(bytes, alignment, max_alignment));
  DTL_TRY(availability_);
  const space_traits& t = traits(kind_);
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));

  void* ptr = nullptr;
  if (const hipError_t e = t.allocate(&ptr, bytes); e != hipSuccess)
    return to_status(e, fmt::format("{}({} bytes) on device {}", t.allocate_name, bytes, device_));
  if (ptr == nullptr)
    return status(status_code::internal_error,
                  fmt::format("{}({} bytes) on device {} succeeded but gave nullptr", t.allocate_name, bytes, device_));
  if (reinterpret_cast<std::uintptr_t>(ptr) % alignment != 0) {
    release_uncounted(ptr, t);
    return status(status_code::internal_error,
                  fmt::format("{}({} bytes) on device {} gave memory aligned to less than {} bytes", t.allocate_name,
                              bytes, device_, alignment));
  }
  if (t.after_allocate != nullptr) {
    if (status s = t.after_allocate(ptr, bytes, device_); !s.ok()) {
      release_uncounted(ptr, t);
      return s;
    }
  }
  detail::remember(ptr, {bytes, {t.memory, device_}, owner_});
  counter_.record_allocate(bytes);
  return ptr;
}

status memory_space_base::try_deallocate(void* ptr, std::size_t bytes) {
  if (ptr == nullptr) return {};
  DTL_TRY(availability_);  // such a space never allocated anything
  const space_traits& t = traits(kind_);
  // Only what this space handed out, with its size, reaches HIP and the counters.
  DTL_TRY(detail::forget(ptr, owner_, bytes, space_kind_name(kind_)));
  result<device_guard> guard = device_guard::enter(device_);
  hipError_t e = hipSuccess;
  if (guard.has_value()) e = t.free(ptr);
  if (!guard.has_value() || e != hipSuccess) {
    detail::remember(ptr, {bytes, {t.memory, device_}, owner_});  // still allocated: still ours
    if (!guard.has_value()) return std::move(guard).error();
    return to_status(e, fmt::format("{}({} bytes) on device {}", t.free_name, bytes, device_));
  }
  if (!counter_.record_deallocate(bytes))  // cannot happen: the size was checked above
    return status(status_code::internal_error, "memory_space_base: the statistics disagree with the allocations");
  return {};
}

void memory_space_base::deallocate(void* ptr, std::size_t bytes) noexcept {
  try {
    if (status s = try_deallocate(ptr, bytes); !s.ok()) report_unhandled(s);
  } catch (...) {  // only formatting a message can throw (bad_alloc); the failure is still reported
    report_unhandled(status(status_code::internal_error, "deallocate failed and its error could not be formatted"));
  }
}

memory_space_properties memory_space_base::properties() const noexcept {
  memory_space_properties p = traits(kind_).properties;
  if (kind_ == space_kind::managed)
    p.supports_atomics = support_.concurrent_managed_access;  // else host memory over the bus
  p.device_id = device_;
  return p;
}

result<bool> memory_space_base::contains(const void* ptr) const {
  if (ptr == nullptr) return false;
  DTL_TRY(availability_);
  const space_traits& t = traits(kind_);
  DTL_ASSIGN_OR_RETURN(const pointer_attributes attr, query_pointer(ptr));
  if (attr.kind != t.memory) return false;
  return !t.contains_needs_same_device || attr.device == device_;
}

}  // namespace dtl::hip
