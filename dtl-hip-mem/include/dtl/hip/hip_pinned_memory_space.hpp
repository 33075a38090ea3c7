#pragma once
// hip_pinned_memory_space: page-locked host memory (hipHostMalloc). The host uses it like any memory;
// devices reach it directly through unified addressing, and copies to and from it are truly
// asynchronous (pageable memory is staged; see hip_memory_transfer.hpp).
// Note: hipHostFree may synchronise the device, so keep pinned buffers for reuse.

#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class hip_pinned_memory_space {
 public:
  using pointer = void*;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;
  /// hipHostMalloc aligns to at least 256 bytes; larger alignments are refused with invalid_argument.
  static constexpr std::size_t max_alignment = 256;

  /// Allocates with the device current now (pinned memory needs an initialised device).
  hip_pinned_memory_space();
  /// Allocates with `device` current. A bad id makes every allocate return invalid_argument.
  explicit hip_pinned_memory_space(int device);

  hip_pinned_memory_space(const hip_pinned_memory_space&) = delete;
  hip_pinned_memory_space& operator=(const hip_pinned_memory_space&) = delete;

  [[nodiscard]] result<void*> allocate(std::size_t bytes) { return allocate(bytes, max_alignment); }
  /// `alignment` must be a power of two <= max_alignment.
  [[nodiscard]] result<void*> allocate(std::size_t bytes, std::size_t alignment);
  /// Frees `ptr` (nullptr is ignored); a hipHostFree failure goes to dtl::report_unhandled().
  void deallocate(void* ptr, std::size_t bytes) noexcept;
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes);

  [[nodiscard]] const status& availability() const noexcept { return availability_; }
  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_pinned"; }
  [[nodiscard]] int device_id() const noexcept { return device_; }
  [[nodiscard]] allocation_stats stats() const noexcept { return counter_.snapshot(); }
  /// Whether `ptr` points into pinned host memory (any pinned allocation, not only this instance's).
  [[nodiscard]] result<bool> contains(const void* ptr) const;

 private:
  int device_;
  status availability_;
  allocation_counter counter_;
};

static_assert(MemorySpace<hip_pinned_memory_space>);

}  // namespace dtl::hip
