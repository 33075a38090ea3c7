#pragma once
// hip_pinned_memory_space: page-locked host memory (hipHostMalloc). The host uses it like any memory;
// devices reach it directly through unified addressing, and copies to and from it are truly
// asynchronous (pageable memory is staged; see hip_memory_transfer.hpp).
// Note: hipHostFree may synchronise the device, so keep pinned buffers for reuse.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/hip/memory_space_base.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class DTL_HIP_MEM_API hip_pinned_memory_space : public memory_space_base {
 public:
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;

  /// Allocates with the device current now (pinned memory needs an initialised device).
  hip_pinned_memory_space();
  /// Allocates with `device` current. A bad id makes every allocate return invalid_argument.
  explicit hip_pinned_memory_space(int device);

  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_pinned"; }
  /// Whether `ptr` points into pinned host memory (any pinned allocation, not only this instance's).
  [[nodiscard]] result<bool> contains(const void* ptr) const;
};

static_assert(MemorySpace<hip_pinned_memory_space>);

}  // namespace dtl::hip
