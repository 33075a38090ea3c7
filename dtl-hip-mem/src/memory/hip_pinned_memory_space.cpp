#include <dtl/hip/hip_pinned_memory_space.hpp>

#include "space_support.hpp"

namespace dtl::hip {

namespace {

const detail::allocator_calls pinned_calls{
    [](void** out, std::size_t bytes) { return hipHostMalloc(out, bytes, hipHostMallocDefault); },
    "hipHostMalloc", [](void* ptr) { return hipHostFree(ptr); }, "hipHostFree"};

}  // namespace

hip_pinned_memory_space::hip_pinned_memory_space() {
  detail::bound_device d = detail::bind_current_device();
  device_ = d.id;
  availability_ = std::move(d.availability);
}

hip_pinned_memory_space::hip_pinned_memory_space(int device)
    : device_(device), availability_(detail::bind_device(device).availability) {}

result<void*> hip_pinned_memory_space::allocate(std::size_t bytes, std::size_t alignment) {
  return detail::allocate_on(device_, availability_, bytes, alignment, pinned_calls, counter_);
}

void hip_pinned_memory_space::deallocate(void* ptr, std::size_t bytes) noexcept {
  detail::free_or_report(device_, availability_, ptr, bytes, pinned_calls, counter_);
}

status hip_pinned_memory_space::try_deallocate(void* ptr, std::size_t bytes) {
  return detail::free_on(device_, availability_, ptr, bytes, pinned_calls, counter_);
}

memory_space_properties hip_pinned_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = true,
          .unified = false,
          .pageable = false,
          .supports_atomics = false,  // device atomics on host memory depend on the bus (PCIe atomics)
          .alignment = max_alignment,
          .device_id = device_};
}

result<bool> hip_pinned_memory_space::contains(const void* ptr) const {
  return detail::holds(any_device, availability_, ptr, memory_kind::host_pinned);
}

}  // namespace dtl::hip
