#pragma once
// hip_managed_memory_space: managed memory (hipMallocManaged, attached globally) that the host and
// every device can touch; the runtime migrates pages to whoever uses them (placement: unified_memory).
//
// The space reads its device's managed-memory capability when it is built and never degrades
// silently: on a device without managed memory every allocate returns not_supported. support() tells
// whether host and device may touch the memory concurrently (without it, e.g. AMD without XNACK, the
// memory stays in host memory and the device reaches it over the bus).

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/hip/memory_space_base.hpp>
#include <dtl/hip/managed_memory.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class DTL_HIP_MEM_API hip_managed_memory_space : public memory_space_base {
 public:
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;

  /// Bound to the device current now (its capabilities are checked; it allocates with it current).
  hip_managed_memory_space();
  /// Bound to `device`. A bad id makes every allocate return invalid_argument (see availability()).
  explicit hip_managed_memory_space(int device);

  /// The device's managed-memory capabilities (all false when the space has no usable device).
  [[nodiscard]] managed_memory_support support() const noexcept { return support_; }
  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_managed"; }
  /// Whether `ptr` points into managed memory (any managed allocation, not only this instance's).
  [[nodiscard]] result<bool> contains(const void* ptr) const;

 private:
  managed_memory_support support_;
};

static_assert(MemorySpace<hip_managed_memory_space>);

}  // namespace dtl::hip
