#pragma once
// hip_managed_memory_space: managed memory (hipMallocManaged, attached globally) that the host and
// every device can touch; the runtime migrates pages to whoever uses them (placement: unified_memory).
//
// The space reads its device's managed-memory capability when it is built and never degrades
// silently: on a device without managed memory every allocate returns not_supported. support() tells
// whether host and device may touch the memory concurrently (without it, e.g. AMD without XNACK, the
// memory stays in host memory and the device reaches it over the bus).

#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/managed_memory.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class hip_managed_memory_space {
 public:
  using pointer = void*;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;
  /// hipMallocManaged aligns to at least 256 bytes; larger alignments are refused with invalid_argument.
  static constexpr std::size_t max_alignment = 256;

  /// Bound to the device current now (its capabilities are checked; it allocates with it current).
  hip_managed_memory_space();
  /// Bound to `device`. A bad id makes every allocate return invalid_argument (see availability()).
  explicit hip_managed_memory_space(int device);

  hip_managed_memory_space(const hip_managed_memory_space&) = delete;
  hip_managed_memory_space& operator=(const hip_managed_memory_space&) = delete;

  [[nodiscard]] result<void*> allocate(std::size_t bytes) { return allocate(bytes, max_alignment); }
  /// `alignment` must be a power of two <= max_alignment.
  [[nodiscard]] result<void*> allocate(std::size_t bytes, std::size_t alignment);
  /// Frees `ptr` (nullptr is ignored); a hipFree failure goes to dtl::report_unhandled().
  void deallocate(void* ptr, std::size_t bytes) noexcept;
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes);

  /// ok when allocate can be asked; otherwise the status every allocate returns (not_supported when
  /// the device has no managed memory).
  [[nodiscard]] const status& availability() const noexcept { return availability_; }
  /// The device's managed-memory capabilities (all false when the space has no usable device).
  [[nodiscard]] managed_memory_support support() const noexcept { return support_; }
  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_managed"; }
  [[nodiscard]] int device_id() const noexcept { return device_; }
  [[nodiscard]] allocation_stats stats() const noexcept { return counter_.snapshot(); }
  /// Whether `ptr` points into managed memory (any managed allocation, not only this instance's).
  [[nodiscard]] result<bool> contains(const void* ptr) const;

 private:
  int device_;
  status availability_;
  managed_memory_support support_;
  allocation_counter counter_;
};

static_assert(MemorySpace<hip_managed_memory_space>);

}  // namespace dtl::hip
