#include <dtl/hip/hip_memory_space.hpp>

#include "space_support.hpp"

namespace dtl::hip {

namespace {

const detail::allocator_calls device_calls{
    [](void** out, std::size_t bytes) { return hipMalloc(out, bytes); }, "hipMalloc",
    [](void* ptr) { return hipFree(ptr); }, "hipFree"};

}  // namespace

hip_memory_space::hip_memory_space() : memory_space_base(device_calls) {}

hip_memory_space::hip_memory_space(int device) : memory_space_base(device_calls, device) {}

memory_space_properties hip_memory_space::properties() const noexcept {
  return {.host_accessible = false,
          .device_accessible = true,
          .unified = false,
          .pageable = false,
          .supports_atomics = true,
          .alignment = max_alignment,
          .device_id = device_id()};
}

result<bool> hip_memory_space::contains(const void* ptr) const {
  return holds(ptr, memory_kind::device, true);
}

}  // namespace dtl::hip
