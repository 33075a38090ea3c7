#include <dtl/hip/hip_managed_memory_space.hpp>

#include "space_support.hpp"

namespace dtl::hip {

namespace {

const detail::allocator_calls managed_calls{
    [](void** out, std::size_t bytes) { return hipMallocManaged(out, bytes, hipMemAttachGlobal); },
    "hipMallocManaged", [](void* ptr) { return hipFree(ptr); }, "hipFree"};

}  // namespace

hip_managed_memory_space::hip_managed_memory_space() {
  const detail::bound_device d = detail::bind_current_device();
  device_ = d.id;
  availability_ = detail::check_managed_capability(d, false, name(), support_);
}

hip_managed_memory_space::hip_managed_memory_space(int device) : device_(device) {
  availability_ = detail::check_managed_capability(detail::bind_device(device), false, name(), support_);
}

result<void*> hip_managed_memory_space::allocate(std::size_t bytes, std::size_t alignment) {
  return detail::allocate_on(device_, availability_, bytes, alignment, managed_calls, counter_);
}

void hip_managed_memory_space::deallocate(void* ptr, std::size_t bytes) noexcept {
  detail::free_or_report(device_, availability_, ptr, bytes, managed_calls, counter_);
}

status hip_managed_memory_space::try_deallocate(void* ptr, std::size_t bytes) {
  return detail::free_on(device_, availability_, ptr, bytes, managed_calls, counter_);
}

memory_space_properties hip_managed_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = true,
          .unified = true,
          .pageable = true,  // pages migrate between host and device
          .supports_atomics = support_.concurrent_managed_access,  // otherwise it is host memory over the bus
          .alignment = max_alignment,
          .device_id = device_};
}

result<bool> hip_managed_memory_space::contains(const void* ptr) const {
  return detail::holds(any_device, availability_, ptr, memory_kind::managed);
}

}  // namespace dtl::hip
