#pragma once
// memory_space_base: what the four HIP memory spaces share. A space is bound to one device; it
// allocates and frees with that device current (restoring the caller's), answers a bad request with a
// status (never nullptr), and counts every byte it hands out, exactly and thread-safely.
// hip_memory_space, hip_managed_memory_space, hip_device_preferred_memory_space and
// hip_pinned_memory_space derive from it and add their name, properties and extras.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/pointer.hpp>

#include <cstddef>

namespace dtl::hip {

namespace detail {
struct allocator_calls;  // how a space gets and returns memory (private to dtl-hip-mem)
}

class DTL_HIP_MEM_API memory_space_base {
 public:
  using pointer = void*;
  /// hipMalloc, hipMallocManaged and hipHostMalloc align to 256 bytes. Larger alignments would need
  /// over-allocation and a side table: they are refused with invalid_argument, never leaked.
  static constexpr std::size_t max_alignment = 256;

  memory_space_base(const memory_space_base&) = delete;
  memory_space_base& operator=(const memory_space_base&) = delete;

  /// `bytes` aligned to max_alignment. 0 bytes is invalid_argument; more than the device has is
  /// out_of_memory (with the native HIP error); a space without a usable device returns availability().
  [[nodiscard]] result<void*> allocate(std::size_t bytes) { return allocate(bytes, max_alignment); }
  /// `alignment` must be a power of two <= max_alignment.
  [[nodiscard]] result<void*> allocate(std::size_t bytes, std::size_t alignment);

  /// Frees `ptr` (nullptr is ignored); `bytes` must be what was allocated, so the statistics stay exact.
  /// A failure cannot be returned from here: it goes to dtl::report_unhandled().
  void deallocate(void* ptr, std::size_t bytes) noexcept;
  /// Like deallocate(), but returns the failure.
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes);

  /// ok when allocate can be asked; otherwise the status every allocate returns.
  [[nodiscard]] const status& availability() const noexcept { return availability_; }
  /// The device this space allocates with (dtl::no_device when it was built without a device).
  [[nodiscard]] int device_id() const noexcept { return device_; }
  /// Exact, thread-safe counts of what this space has handed out.
  [[nodiscard]] allocation_stats stats() const noexcept { return counter_.snapshot(); }

 protected:
  /// Bound to the device current now; without a device every allocate returns backend_not_available.
  explicit memory_space_base(const detail::allocator_calls& calls);
  /// Bound to `device`; a bad id makes every allocate return invalid_argument.
  memory_space_base(const detail::allocator_calls& calls, int device);
  ~memory_space_base() = default;

  /// For spaces with further requirements (managed memory): an error `reason` becomes the status every
  /// allocate returns, unless the space was already unusable.
  void restrict_availability(status reason);

  /// Whether `ptr` is memory of `kind` (allocated by any space), on this space's device when
  /// `on_this_device`. false for nullptr.
  [[nodiscard]] result<bool> holds(const void* ptr, memory_kind kind, bool on_this_device) const;

 private:
  const detail::allocator_calls* calls_;
  int device_;
  status availability_;
  allocation_counter counter_;
};

}  // namespace dtl::hip
