#include <dtl/hip/hip_managed_memory_space.hpp>

#include "space_support.hpp"

namespace dtl::hip {

namespace {

const detail::allocator_calls managed_calls{
    [](void** out, std::size_t bytes) { return hipMallocManaged(out, bytes, hipMemAttachGlobal); },
    "hipMallocManaged", [](void* ptr) { return hipFree(ptr); }, "hipFree"};

}  // namespace

hip_managed_memory_space::hip_managed_memory_space() : memory_space_base(managed_calls) {
  if (availability().ok())
    restrict_availability(detail::check_managed_capability(device_id(), false, name(), support_));
}

hip_managed_memory_space::hip_managed_memory_space(int device) : memory_space_base(managed_calls, device) {
  if (availability().ok())
    restrict_availability(detail::check_managed_capability(device_id(), false, name(), support_));
}

memory_space_properties hip_managed_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = true,
          .unified = true,
          .pageable = true,  // pages migrate between host and device
          .supports_atomics = support_.concurrent_managed_access,  // otherwise it is host memory over the bus
          .alignment = max_alignment,
          .device_id = device_id()};
}

result<bool> hip_managed_memory_space::contains(const void* ptr) const {
  return holds(ptr, memory_kind::managed, false);
}

}  // namespace dtl::hip
