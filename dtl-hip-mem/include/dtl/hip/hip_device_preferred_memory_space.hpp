#pragma once
// hip_device_preferred_memory_space: managed memory that prefers to live on one device
// (hipMallocManaged + hipMemAdviseSetPreferredLocation). The host can still touch it; pages then
// migrate (or are mapped) and return to the device on its next use. Placement: device_preferred_on<N>.
//
// It needs a device with concurrent managed access; without one the advice would do nothing, so
// every allocate returns not_supported instead (see availability()).

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/hip/memory_space_base.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class DTL_HIP_MEM_API hip_device_preferred_memory_space : public memory_space_base {
 public:
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;

  /// Prefers the device current now.
  hip_device_preferred_memory_space();
  /// Prefers `device`. A bad id makes every allocate return invalid_argument (see availability()).
  explicit hip_device_preferred_memory_space(int device);

  /// Starts moving [ptr, ptr + bytes) to this space's device, ordered on `stream`.
  [[nodiscard]] result<void> prefetch_to_device(const void* ptr, std::size_t bytes, stream_ref stream = {}) const;
  /// Starts moving [ptr, ptr + bytes) to the host, ordered on `stream` (wait on the stream before the
  /// host relies on the pages being local).
  [[nodiscard]] result<void> prefetch_to_host(const void* ptr, std::size_t bytes, stream_ref stream = {}) const;

  [[nodiscard]] managed_memory_support support() const noexcept { return support_; }
  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_device_preferred"; }
  /// Whether `ptr` points into managed memory (any managed allocation, not only this instance's).
  [[nodiscard]] result<bool> contains(const void* ptr) const;

 private:
  managed_memory_support support_;
};

static_assert(MemorySpace<hip_device_preferred_memory_space>);

}  // namespace dtl::hip
