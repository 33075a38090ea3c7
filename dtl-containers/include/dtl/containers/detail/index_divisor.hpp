// SPDX-License-Identifier: MIT
#pragma once
// dtl::detail::index_divisor: division of 32-bit indices by a divisor known ahead of the loop, as a
// multiply-high, an add and a shift (Granlund and Montgomery's round-up method, as CUTLASS's FastDivmod
// and libdivide do it) instead of the ~20 instructions of a GPU's integer division. What the N-d kernels
// use to find an element's position from its index: the same code on the host and on the device.

#include <dtl/containers/host_device.hpp>

#include <cstdint>

namespace dtl::detail {

class index_divisor {
 public:
  /// Division by 1.
  constexpr index_divisor() noexcept = default;
  /// Division by `divisor` (at least 1; 0 is taken as 1).
  explicit constexpr index_divisor(std::uint32_t divisor) noexcept : divisor_(divisor == 0 ? 1 : divisor) {
    // shift: the smallest s with 2^s >= divisor; multiplier: floor(2^32 (2^s - divisor) / divisor) + 1,
    // which is below 2^32 since 2^s - divisor < divisor.
    while ((std::uint64_t{1} << shift_) < divisor_) ++shift_;
    multiplier_ = static_cast<std::uint32_t>(
        ((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift_) - divisor_)) / divisor_ + 1);
  }

  [[nodiscard]] DTL_HOST_DEVICE constexpr std::uint32_t divisor() const noexcept { return divisor_; }
  /// n / divisor(), for every 32-bit n (the sum below needs 33 bits: it is taken in 64).
  [[nodiscard]] DTL_HOST_DEVICE constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
    const std::uint64_t high = (static_cast<std::uint64_t>(n) * multiplier_) >> 32;
    return static_cast<std::uint32_t>((high + n) >> shift_);
  }

 private:
  std::uint32_t divisor_ = 1;
  std::uint32_t multiplier_ = 1;  // with shift 0: n / 1 = ((n * 1) >> 32) + n = n
  std::uint32_t shift_ = 0;
};

}  // namespace dtl::detail
