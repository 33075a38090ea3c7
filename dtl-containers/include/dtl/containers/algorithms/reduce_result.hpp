// SPDX-License-Identifier: MIT
#pragma once
// dtl::reduce_result<T>: what distributed_reduce and reduce_to_root give (upstream DTL's type).

namespace dtl {

/// This rank's partial and the combined value (upstream DTL's reduce_result).
template <class T>
struct reduce_result {
  /// init op this rank's elements.
  T local_value;
  /// init op every rank's elements (valid when has_global).
  T global_value;
  /// Whether global_value holds the combined value on this rank.
  bool has_global;
  [[nodiscard]] constexpr T value() const noexcept { return has_global ? global_value : local_value; }
  [[nodiscard]] constexpr operator T() const noexcept { return value(); }  // NOLINT: upstream's implicit conversion
};

}  // namespace dtl
