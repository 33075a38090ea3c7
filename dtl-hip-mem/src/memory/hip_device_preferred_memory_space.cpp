#include <dtl/hip/hip_device_preferred_memory_space.hpp>

#include <dtl/hip/error.hpp>

#include "space_support.hpp"

#include <fmt/format.h>

namespace dtl::hip {

namespace {

// The advice is part of the allocation: if it fails, the memory is freed and the error returned.
status prefer_device(void* ptr, std::size_t bytes, int device) {
  if (const hipError_t e = hipMemAdvise(ptr, bytes, hipMemAdviseSetPreferredLocation, device); e != hipSuccess)
    return to_status(e, fmt::format("hipMemAdvise(SetPreferredLocation, {} bytes, device {})", bytes, device));
  return {};
}

const detail::allocator_calls preferred_calls{
    [](void** out, std::size_t bytes) { return hipMallocManaged(out, bytes, hipMemAttachGlobal); },
    "hipMallocManaged", [](void* ptr) { return hipFree(ptr); }, "hipFree", prefer_device};

}  // namespace

hip_device_preferred_memory_space::hip_device_preferred_memory_space() : memory_space_base(preferred_calls) {
  if (availability().ok())
    restrict_availability(detail::check_managed_capability(device_id(), true, name(), support_));
}

hip_device_preferred_memory_space::hip_device_preferred_memory_space(int device)
    : memory_space_base(preferred_calls, device) {
  if (availability().ok())
    restrict_availability(detail::check_managed_capability(device_id(), true, name(), support_));
}

result<void> hip_device_preferred_memory_space::prefetch_to_device(const void* ptr, std::size_t bytes,
                                                                   stream_ref stream) const {
  if (!availability().ok()) return availability();
  return hip::prefetch_to_device(ptr, bytes, device_id(), stream);
}

result<void> hip_device_preferred_memory_space::prefetch_to_host(const void* ptr, std::size_t bytes,
                                                                 stream_ref stream) const {
  if (!availability().ok()) return availability();
  return hip::prefetch_to_host(ptr, bytes, stream);
}

memory_space_properties hip_device_preferred_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = true,
          .unified = true,
          .pageable = true,
          .supports_atomics = true,
          .alignment = max_alignment,
          .device_id = device_id()};
}

result<bool> hip_device_preferred_memory_space::contains(const void* ptr) const {
  return holds(ptr, memory_kind::managed, false);
}

}  // namespace dtl::hip
