// SPDX-License-Identifier: MIT
#pragma once
// The vocabulary of N-dimensional containers (upstream DTL's names):
//   nd_extent<N>   the size of each of N dimensions
//   nd_index<N>    a position in them (signed, as dtl::index_t)
//   row_major      the last dimension varies fastest (the layout of distributed_tensor)
//   column_major   the first dimension varies fastest
// Both layouts: linearize(index, extents) -> index_t, delinearize<N>(linear, extents) -> nd_index<N>,
// size(extents) -> the element count.

#include <dtl/core/types.hpp>

#include <array>
#include <cstddef>

namespace dtl {

template <size_type N>
using nd_extent = std::array<size_type, N>;

template <size_type N>
using nd_index = std::array<index_t, N>;

/// The element count of `extents` (1 for N == 0).
template <size_type N>
[[nodiscard]] constexpr size_type extents_size(const nd_extent<N>& extents) noexcept {
  size_type count = 1;
  for (const size_type e : extents) count *= e;
  return count;
}

struct row_major {
  template <size_type N>
  [[nodiscard]] static constexpr index_t linearize(const nd_index<N>& index, const nd_extent<N>& extents) noexcept {
    index_t linear = 0;
    for (size_type d = 0; d < N; ++d) linear = linear * static_cast<index_t>(extents[d]) + index[d];
    return linear;
  }
  template <size_type N>
  [[nodiscard]] static constexpr nd_index<N> delinearize(index_t linear, const nd_extent<N>& extents) noexcept {
    nd_index<N> index{};
    for (size_type d = N; d-- > 0;) {
      const auto e = static_cast<index_t>(extents[d]);
      index[d] = e == 0 ? 0 : linear % e;
      linear = e == 0 ? 0 : linear / e;
    }
    return index;
  }
  template <size_type N>
  [[nodiscard]] static constexpr size_type size(const nd_extent<N>& extents) noexcept {
    return extents_size(extents);
  }
};

struct column_major {
  template <size_type N>
  [[nodiscard]] static constexpr index_t linearize(const nd_index<N>& index, const nd_extent<N>& extents) noexcept {
    index_t linear = 0;
    for (size_type d = N; d-- > 0;) linear = linear * static_cast<index_t>(extents[d]) + index[d];
    return linear;
  }
  template <size_type N>
  [[nodiscard]] static constexpr nd_index<N> delinearize(index_t linear, const nd_extent<N>& extents) noexcept {
    nd_index<N> index{};
    for (size_type d = 0; d < N; ++d) {
      const auto e = static_cast<index_t>(extents[d]);
      index[d] = e == 0 ? 0 : linear % e;
      linear = e == 0 ? 0 : linear / e;
    }
    return index;
  }
  template <size_type N>
  [[nodiscard]] static constexpr size_type size(const nd_extent<N>& extents) noexcept {
    return extents_size(extents);
  }
};

namespace detail {
/// Calls f(at, run) for every row of a box of `extents`: `at` its position (the last index 0), `run` its
/// length (the last extent), in row-major order. Nothing for an empty box.
template <size_type N, class F>
void for_each_row(const nd_extent<N>& extents, F&& f) {
  if (extents_size(extents) == 0) return;
  nd_extent<N> at{};
  for (;;) {
    f(static_cast<const nd_extent<N>&>(at), extents[N - 1]);
    size_type d = N - 1;
    while (d-- > 0) {
      if (++at[d] < extents[d]) break;
      at[d] = 0;
    }
    if (d == static_cast<size_type>(-1)) return;
  }
}
}  // namespace detail

}  // namespace dtl
