// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's pinned_memory_space: page-locked host memory that the GPU reaches by DMA, through static
// members (one space per process), with upstream's statistics:
//
//   void* p = dtl::pinned_memory_space::allocate(1 << 20);   // nullptr for 0 bytes or on failure
//   dtl::pinned_memory_space::deallocate(p, 1 << 20);
//
// HIP builds allocate with hipHostMalloc (dtl::hip::hip_pinned_memory_space, bound to the device current
// at the first allocation). Without HIP, or where HIP has no device, the memory is ordinary host memory
// (dtl::host_memory_space), as upstream's is without CUDA: properties() still describes pinned memory.
// Unlike DTL's own spaces, allocate() returns a plain pointer, so it does not model dtl::MemorySpace.

#include <dtl/containers/config.hpp>
#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/types.hpp>
#include <dtl/memory/memory_space_base.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/hip_pinned_memory_space.hpp>
#endif

namespace dtl {

struct pinned_memory_space_tag {};

class pinned_memory_space {
 public:
  using pointer = void*;
  using size_type = dtl::size_type;
  using tag_type = pinned_memory_space_tag;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;

  /// `bytes` of pinned memory aligned to alignof(max_align_t); nullptr for 0 bytes or when it fails.
  [[nodiscard]] static void* allocate(size_type bytes) { return allocate(bytes, alignof(std::max_align_t)); }
  /// Same, aligned to `alignment` (a power of two; hipHostMalloc aligns to a page, which covers up to 4 KiB).
  [[nodiscard]] static void* allocate(size_type bytes, size_type alignment) {
    if (bytes == 0) return nullptr;
    const result<void*> made = backing().allocate(bytes, alignment);
    if (!made) return nullptr;
    count_allocate(bytes);
    return *made;
  }
  /// Frees what allocate() gave (nullptr is ignored); `bytes` as allocated.
  static void deallocate(void* ptr, size_type bytes) noexcept {
    if (ptr == nullptr) return;
    backing().deallocate(ptr, bytes);
    size_type in_use = in_use_.load(std::memory_order_relaxed);
    while (!in_use_.compare_exchange_weak(in_use, in_use - std::min(in_use, bytes), std::memory_order_relaxed)) {
    }
  }

  [[nodiscard]] static constexpr memory_space_properties properties() noexcept {
    memory_space_properties p;
    p.host_accessible = true;
    p.device_accessible = true;  // by DMA
    p.pageable = false;
    return p;
  }
  [[nodiscard]] static constexpr const char* name() noexcept { return "pinned"; }

  /// Bytes allocated and not yet freed, and their peak, since the start or reset_statistics().
  [[nodiscard]] static size_type total_allocated() noexcept { return in_use_.load(std::memory_order_relaxed); }
  [[nodiscard]] static size_type peak_allocated() noexcept { return peak_.load(std::memory_order_relaxed); }
  /// Zeroes both (memory still allocated is no longer counted).
  static void reset_statistics() noexcept {
    in_use_.store(0, std::memory_order_relaxed);
    peak_.store(0, std::memory_order_relaxed);
  }

 private:
  // What allocates: HIP's pinned memory where HIP has a device, else the host's (decided once).
  struct backing_space {
#if DTL_CONTAINERS_HAS_HIP
    hip::hip_pinned_memory_space pinned;
    bool use_pinned = pinned.availability().ok();
#endif
    host_memory_space host;

    result<void*> allocate(size_type bytes, size_type alignment) {
#if DTL_CONTAINERS_HAS_HIP
      if (use_pinned) return pinned.allocate(bytes, alignment);
#endif
      return host.allocate(bytes, alignment);
    }
    void deallocate(void* ptr, size_type bytes) noexcept {
#if DTL_CONTAINERS_HAS_HIP
      if (use_pinned) return pinned.deallocate(ptr, bytes);
#endif
      host.deallocate(ptr, bytes);
    }
  };
  static backing_space& backing() {
    static backing_space space;
    return space;
  }
  static void count_allocate(size_type bytes) noexcept {
    const size_type now = in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    size_type peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }

  static inline std::atomic<size_type> in_use_{0};
  static inline std::atomic<size_type> peak_{0};
};

template <>
struct memory_space_traits<pinned_memory_space> {
  static constexpr bool is_host_space = true;
  static constexpr bool is_device_space = false;
  static constexpr bool is_unified_space = false;
  static constexpr bool is_thread_safe = true;
};

}  // namespace dtl
