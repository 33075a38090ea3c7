#include <dtl/hip/hip_pinned_memory_space.hpp>

#include "space_support.hpp"

namespace dtl::hip {

namespace {

const detail::allocator_calls pinned_calls{
    [](void** out, std::size_t bytes) { return hipHostMalloc(out, bytes, hipHostMallocDefault); },
    "hipHostMalloc", [](void* ptr) { return hipHostFree(ptr); }, "hipHostFree"};

}  // namespace

hip_pinned_memory_space::hip_pinned_memory_space() : memory_space_base(pinned_calls) {}

hip_pinned_memory_space::hip_pinned_memory_space(int device) : memory_space_base(pinned_calls, device) {}

memory_space_properties hip_pinned_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = true,
          .unified = false,
          .pageable = false,
          .supports_atomics = false,  // device atomics on host memory depend on the bus (PCIe atomics)
          .alignment = max_alignment,
          .device_id = device_id()};
}

result<bool> hip_pinned_memory_space::contains(const void* ptr) const {
  return holds(ptr, memory_kind::host_pinned, false);
}

}  // namespace dtl::hip
