// SPDX-License-Identifier: MIT
#pragma once
// Helpers for the gpu tests: test data, an owned stream, guarded host and device buffers, the current
// device, counting what reaches dtl::report_unhandled().

#include "doctest.hpp"

#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/status.hpp>
#include <dtl/hip/basic_memory_space.hpp>
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace dtl_test {

/// Random bytes, none of them zero (so zero-filled memory can never pass for copied data). A random
/// block of prime length is tiled, which keeps 1 GiB fast and still exposes any shifted block.
inline void fill_never_zero(unsigned char* out, std::size_t n, std::uint64_t seed) {
  constexpr std::size_t period = 1'000'003;  // prime, so no power-of-two offset maps the data onto itself
  std::mt19937_64 rng(seed);
  const std::size_t head = std::min(n, period);
  for (std::size_t i = 0; i < head; ++i) out[i] = static_cast<unsigned char>(1 + rng() % 255);
  for (std::size_t done = head; done < n;) {
    const std::size_t chunk = std::min(head, n - done);
    std::memcpy(out + done, out, chunk);
    done += chunk;
  }
}

/// Host memory with 64 guard bytes on each side, to catch a copy that writes past its range.
class guarded_buffer {
 public:
  static constexpr std::size_t guard = 64;
  static constexpr unsigned char guard_value = 0xA5;

  explicit guarded_buffer(std::size_t n) : n_(n), bytes_(n + 2 * guard, 0) {
    std::fill_n(bytes_.begin(), guard, guard_value);
    std::fill_n(bytes_.end() - static_cast<std::ptrdiff_t>(guard), guard, guard_value);
  }
  [[nodiscard]] unsigned char* data() noexcept { return bytes_.data() + guard; }
  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  [[nodiscard]] bool guards_intact() const noexcept {
    const auto intact = [](unsigned char b) { return b == guard_value; };
    return std::all_of(bytes_.begin(), bytes_.begin() + guard, intact) &&
           std::all_of(bytes_.end() - static_cast<std::ptrdiff_t>(guard), bytes_.end(), intact);
  }

 private:
  std::size_t n_;
  std::vector<unsigned char> bytes_;
};

/// A non-blocking stream owned by one test.
class owned_stream {
 public:
  owned_stream() { REQUIRE(hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking) == hipSuccess); }
  ~owned_stream() { CHECK(hipStreamDestroy(stream_) == hipSuccess); }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;

  [[nodiscard]] hipStream_t get() const noexcept { return stream_; }
  [[nodiscard]] dtl::hip::stream_ref ref() const noexcept { return stream_; }

 private:
  hipStream_t stream_ = nullptr;
};

/// The calling thread's current device, straight from HIP (not through the code under test).
inline int hip_current_device() {
  int device = -1;
  REQUIRE(hipGetDevice(&device) == hipSuccess);
  return device;
}

/// Clears an error some earlier call left pending for this thread, so that a later
/// CHECK(hipGetLastError() == hipSuccess) judges only the calls made in between.
inline void clear_pending_hip_error() {
  if (const hipError_t stale = hipGetLastError(); stale != hipSuccess)
    MESSAGE("cleared a HIP error left pending before this test: " << hipGetErrorName(stale));
}

/// Makes `device` current for the rest of a test and restores the previous device afterwards.
class scoped_current_device {
 public:
  explicit scoped_current_device(int device) : previous_(hip_current_device()) {
    REQUIRE(hipSetDevice(device) == hipSuccess);
  }
  ~scoped_current_device() { CHECK(hipSetDevice(previous_) == hipSuccess); }
  scoped_current_device(const scoped_current_device&) = delete;
  scoped_current_device& operator=(const scoped_current_device&) = delete;

 private:
  int previous_;
};

/// Device memory from a hip_memory_space, freed at the end of the scope.
class device_buffer {
 public:
  device_buffer(dtl::hip::hip_memory_space& space, std::size_t bytes) : space_(space), bytes_(bytes) {
    const auto r = space.allocate(bytes);
    REQUIRE(r.has_value());
    ptr_ = static_cast<unsigned char*>(*r);
  }
  ~device_buffer() { space_.deallocate(ptr_, bytes_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  [[nodiscard]] unsigned char* get() const noexcept { return ptr_; }

 private:
  dtl::hip::hip_memory_space& space_;
  std::size_t bytes_;
  unsigned char* ptr_ = nullptr;
};

/// Counts what dtl::report_unhandled() reports while it exists, instead of printing it.
class unhandled_counter {
 public:
  unhandled_counter() : previous_(dtl::set_unhandled_error_handler(record)) {
    reports_ = 0;
    last_ = dtl::status_code::ok;
  }
  ~unhandled_counter() { dtl::set_unhandled_error_handler(previous_); }
  unhandled_counter(const unhandled_counter&) = delete;
  unhandled_counter& operator=(const unhandled_counter&) = delete;
  [[nodiscard]] int reports() const noexcept { return reports_; }
  [[nodiscard]] dtl::status_code last_code() const noexcept { return last_; }

 private:
  static void record(const dtl::status& s) noexcept {
    ++reports_;
    last_ = s.code();
  }
  static inline int reports_ = 0;
  static inline dtl::status_code last_ = dtl::status_code::ok;
  dtl::unhandled_error_handler previous_;
};

/// The counts of what callers allocated are the same (pool_stats compares as its allocation_stats).
inline bool same_counts(const dtl::allocation_stats& a, const dtl::allocation_stats& b) {
  return a.bytes_in_use == b.bytes_in_use && a.peak_bytes == b.peak_bytes && a.live_allocations == b.live_allocations &&
         a.total_allocations == b.total_allocations;
}

}  // namespace dtl_test
