// SPDX-License-Identifier: MIT
#pragma once
// Exact, thread-safe allocation statistics shared by every memory space.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace dtl {

struct allocation_stats {
  std::size_t bytes_in_use = 0;
  std::size_t peak_bytes = 0;
  std::size_t live_allocations = 0;
  std::uint64_t total_allocations = 0;
};

class allocation_counter {
 public:
  allocation_counter() noexcept = default;
  allocation_counter(const allocation_counter&) = delete;
  allocation_counter& operator=(const allocation_counter&) = delete;

  void record_allocate(std::size_t bytes) noexcept {
    const std::size_t now = bytes_in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    live_.fetch_add(1, std::memory_order_relaxed);
    total_.fetch_add(1, std::memory_order_relaxed);
    std::size_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }

  /// Counts a deallocation of `bytes`. The counters never wrap: a deallocation of more bytes than are in
  /// use, or with nothing live, clamps them at zero and returns false, so that the caller can report a
  /// size that does not match what was allocated.
  [[nodiscard]] bool record_deallocate(std::size_t bytes) noexcept {
    bool consistent = true;
    std::size_t in_use = bytes_in_use_.load(std::memory_order_relaxed);
    std::size_t next = 0;
    do {
      consistent = bytes <= in_use;
      next = consistent ? in_use - bytes : 0;
    } while (!bytes_in_use_.compare_exchange_weak(in_use, next, std::memory_order_relaxed));
    std::size_t live = live_.load(std::memory_order_relaxed);
    do {
      if (live == 0) return false;
    } while (!live_.compare_exchange_weak(live, live - 1, std::memory_order_relaxed));
    return consistent;
  }

  [[nodiscard]] allocation_stats snapshot() const noexcept {
    return {bytes_in_use_.load(std::memory_order_relaxed), peak_.load(std::memory_order_relaxed),
            live_.load(std::memory_order_relaxed), total_.load(std::memory_order_relaxed)};
  }

 private:
  std::atomic<std::size_t> bytes_in_use_{0};
  std::atomic<std::size_t> peak_{0};
  std::atomic<std::size_t> live_{0};
  std::atomic<std::uint64_t> total_{0};
};

}  // namespace dtl
