// SPDX-License-Identifier: MIT
#pragma once
// memory_space_base: the one implementation behind the four HIP memory spaces. A space is bound to one
// device; it allocates and frees with that device current (restoring the caller's), answers a bad
// request with a status (never nullptr), and counts every byte it hands out, exactly and thread-safely.
// What differs between the spaces (the HIP calls, the properties, the managed-memory checks) is a row
// of a table selected by space_kind; basic_memory_space<Kind> (basic_memory_space.hpp) adds the static
// members the MemorySpace concept asks for.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/pointer.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dtl::hip {

/// The kinds of HIP memory a space can hand out.
enum class space_kind {
  device,            // hipMalloc: device memory                        (hip_memory_space)
  managed,           // hipMallocManaged: host and devices, migrating  (hip_managed_memory_space)
  device_preferred,  // hipMallocManaged + preferred location          (hip_device_preferred_memory_space)
  pinned,            // hipHostMalloc: page-locked host memory          (hip_pinned_memory_space)
};

/// The space's name(): "hip_device", "hip_managed", "hip_device_preferred" or "hip_pinned".
[[nodiscard]] constexpr std::string_view space_kind_name(space_kind kind) noexcept {
  switch (kind) {
    case space_kind::device: return "hip_device";
    case space_kind::managed: return "hip_managed";
    case space_kind::device_preferred: return "hip_device_preferred";
    case space_kind::pinned: return "hip_pinned";
  }
  return "hip_unknown";
}

/// True for the kinds that hand out managed memory.
[[nodiscard]] constexpr bool is_managed(space_kind kind) noexcept {
  return kind == space_kind::managed || kind == space_kind::device_preferred;
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

  /// Frees `ptr` (nullptr is ignored); `bytes` must be what was allocated. A pointer this space did not
  /// hand out (invalid_pointer) or a wrong size (invalid_argument) frees nothing and changes no count;
  /// neither reaches HIP. A failure cannot be returned from here: it goes to dtl::report_unhandled().
  void deallocate(void* ptr, std::size_t bytes) noexcept;
  /// Like deallocate(), but returns the failure.
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes);

  /// ok when allocate can be asked; otherwise the status every allocate returns.
  [[nodiscard]] const status& availability() const noexcept { return availability_; }
  /// The device this space allocates with (dtl::no_device when it was built without a device).
  [[nodiscard]] int device_id() const noexcept { return device_; }
  /// Exact, thread-safe counts of what this space has handed out.
  [[nodiscard]] allocation_stats stats() const noexcept { return counter_.snapshot(); }
  /// What the memory of this space is (dtl::memory_space_properties).
  [[nodiscard]] memory_space_properties properties() const noexcept;
  /// Whether `ptr` points into memory of this space's kind: on this space's device for device memory,
  /// any such allocation (not only this instance's) for pinned and managed memory. false for nullptr.
  [[nodiscard]] result<bool> contains(const void* ptr) const;

 protected:
  /// Bound to the device current now; without a device every allocate returns backend_not_available.
  explicit memory_space_base(space_kind kind);
  /// Bound to `device`; a bad id makes every allocate return invalid_argument.
  memory_space_base(space_kind kind, int device);
  ~memory_space_base() = default;

  /// The device's managed-memory capabilities, read at construction (managed kinds; all false otherwise).
  [[nodiscard]] managed_memory_support managed_support() const noexcept { return support_; }

 private:
  void check_capabilities();

  space_kind kind_;
  std::uint64_t owner_;  // names this space's allocations in dtl-hip-mem's table of known memory
  int device_;
  status availability_;
  managed_memory_support support_;
  allocation_counter counter_;
};

}  // namespace dtl::hip
