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

#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

class hip_memory_space {
 public:
  using pointer = void*;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;
  /// hipMalloc aligns to 256 bytes; larger alignments are refused with invalid_argument.
  static constexpr std::size_t max_alignment = 256;

  /// Bound to the device current now. Without a device, every allocate returns backend_not_available.
  hip_memory_space();
  /// Bound to `device`. A bad id makes every allocate return invalid_argument (see availability()).
  explicit hip_memory_space(int device);

  hip_memory_space(const hip_memory_space&) = delete;
  hip_memory_space& operator=(const hip_memory_space&) = delete;

  /// `bytes` of device memory aligned to 256 bytes.
  [[nodiscard]] result<void*> allocate(std::size_t bytes) { return allocate(bytes, max_alignment); }
  /// `alignment` must be a power of two <= max_alignment.
  [[nodiscard]] result<void*> allocate(std::size_t bytes, std::size_t alignment);

  /// Frees `ptr` (nullptr is ignored); `bytes` must be what was allocated, so the statistics stay exact.
  /// A hipFree failure cannot be returned from here: it goes to dtl::report_unhandled().
  void deallocate(void* ptr, std::size_t bytes) noexcept;
  /// Like deallocate(), but returns the failure.
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes);

  /// ok when allocate can be asked; otherwise the status every allocate returns.
  [[nodiscard]] const status& availability() const noexcept { return availability_; }
  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_device"; }
  /// The device this space allocates on (dtl::no_device when it was built without a device).
  [[nodiscard]] int device_id() const noexcept { return device_; }
  /// Exact, thread-safe counts of what this space has handed out.
  [[nodiscard]] allocation_stats stats() const noexcept { return counter_.snapshot(); }
  /// Whether `ptr` points into hipMalloc memory on this space's device (any such allocation, not only
  /// this instance's). false for nullptr.
  [[nodiscard]] result<bool> contains(const void* ptr) const;

 private:
  int device_;
  status availability_;
  allocation_counter counter_;
};

static_assert(MemorySpace<hip_memory_space>);

}  // namespace dtl::hip
