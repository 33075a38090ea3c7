#pragma once
// hip_memory_space: device memory (hipMalloc) on one device.
//
//   dtl::hip::hip_memory_space space;            // the current device
//   dtl::hip::hip_memory_space on1(1);           // device 1, whatever device is current later
//   DTL_ASSIGN_OR_RETURN(void* p, space.allocate(1 << 20));
//   ...
//   space.deallocate(p, 1 << 20);
//
// Every call runs with the space's device current and restores the caller's device afterwards.
// Failures are statuses, never nullptr: invalid_argument (0 bytes, a bad alignment or device id),
// out_of_memory (the device is full; the native HIP error is kept), backend_not_available (no device).

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/hip/memory_space_base.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class DTL_HIP_MEM_API hip_memory_space : public memory_space_base {
 public:
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;

  /// Bound to the device current now. Without a device, every allocate returns backend_not_available.
  hip_memory_space();
  /// Bound to `device`. A bad id makes every allocate return invalid_argument (see availability()).
  explicit hip_memory_space(int device);

  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_device"; }
  /// Whether `ptr` points into hipMalloc memory on this space's device (any such allocation, not only
  /// this instance's). false for nullptr.
  [[nodiscard]] result<bool> contains(const void* ptr) const;
};

static_assert(MemorySpace<hip_memory_space>);

}  // namespace dtl::hip
