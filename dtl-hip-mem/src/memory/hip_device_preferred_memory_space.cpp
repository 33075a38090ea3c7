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

hip_device_preferred_memory_space::hip_device_preferred_memory_space() {
  const detail::bound_device d = detail::bind_current_device();
  device_ = d.id;
  availability_ = detail::check_managed_capability(d, true, name(), support_);
}

hip_device_preferred_memory_space::hip_device_preferred_memory_space(int device) : device_(device) {
  availability_ = detail::check_managed_capability(detail::bind_device(device), true, name(), support_);
}

result<void*> hip_device_preferred_memory_space::allocate(std::size_t bytes, std::size_t alignment) {
  return detail::allocate_on(device_, availability_, bytes, alignment, preferred_calls, counter_);
}

void hip_device_preferred_memory_space::deallocate(void* ptr, std::size_t bytes) noexcept {
  detail::free_or_report(device_, availability_, ptr, bytes, preferred_calls, counter_);
}

status hip_device_preferred_memory_space::try_deallocate(void* ptr, std::size_t bytes) {
  return detail::free_on(device_, availability_, ptr, bytes, preferred_calls, counter_);
}

result<void> hip_device_preferred_memory_space::prefetch_to_device(const void* ptr, std::size_t bytes,
                                                                   stream_ref stream) const {
  if (!availability_.ok()) return availability_;
  return hip::prefetch_to_device(ptr, bytes, device_, stream);
}

result<void> hip_device_preferred_memory_space::prefetch_to_host(const void* ptr, std::size_t bytes,
                                                                 stream_ref stream) const {
  if (!availability_.ok()) return availability_;
  return hip::prefetch_to_host(ptr, bytes, stream);
}

memory_space_properties hip_device_preferred_memory_space::properties() const noexcept {
  return {.host_accessible = true,
          .device_accessible = true,
          .unified = true,
          .pageable = true,
          .supports_atomics = true,
          .alignment = max_alignment,
          .device_id = device_};
}

result<bool> hip_device_preferred_memory_space::contains(const void* ptr) const {
  return detail::holds(any_device, availability_, ptr, memory_kind::managed);
}

}  // namespace dtl::hip
