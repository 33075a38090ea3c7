#pragma once
// Helpers for the gpu tests: test data, an owned stream, guarded host buffers, the current device.

#include "doctest.hpp"

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

}  // namespace dtl_test
