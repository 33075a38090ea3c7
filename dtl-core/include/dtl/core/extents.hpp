// SPDX-License-Identifier: MIT
#pragma once
// dtl::extents<E...>: the extents of an N-dimensional shape, each known at compile time or, given as
// dtl::dynamic_extent, at run time (upstream DTL's, shaped as std::extents: rank(), rank_dynamic(),
// static_extent(n), extent(n), size()).
//
//   dtl::extents<10, dtl::dynamic_extent> e(20);   // 10 x 20: e.extent(1) == 20, e.size() == 200
//   dtl::extents e2(4, 5);                          // both dynamic (the deduction guide)

#include <dtl/core/types.hpp>

#include <array>
#include <concepts>

namespace dtl {

template <size_type... E>
class extents {
 public:
  [[nodiscard]] static constexpr size_type rank() noexcept { return sizeof...(E); }
  /// How many extents are known only at run time.
  [[nodiscard]] static constexpr size_type rank_dynamic() noexcept {
    return (size_type{0} + ... + (E == dynamic_extent ? 1 : 0));
  }
  /// Extent n as the type gives it: dynamic_extent for a run-time one, and for n >= rank().
  [[nodiscard]] static constexpr size_type static_extent(size_type n) noexcept {
    constexpr std::array<size_type, sizeof...(E)> given{E...};
    return n < rank() ? given[n] : dynamic_extent;
  }

  constexpr extents() noexcept = default;
  /// The run-time extents, in order.
  template <std::convertible_to<size_type>... D>
  requires(sizeof...(D) == rank_dynamic()) constexpr explicit extents(D... dynamic) noexcept
      : dynamic_{static_cast<size_type>(dynamic)...} {}

  /// Extent n (n < rank()).
  [[nodiscard]] constexpr size_type extent(size_type n) const noexcept {
    if (static_extent(n) != dynamic_extent) return static_extent(n);
    size_type before = 0;  // run-time extents before n: n's place among them
    for (size_type d = 0; d < n; ++d)
      if (static_extent(d) == dynamic_extent) ++before;
    return dynamic_[before];
  }
  /// The element count: the product of the extents (1 for rank 0).
  [[nodiscard]] constexpr size_type size() const noexcept {
    size_type count = 1;
    for (size_type d = 0; d < rank(); ++d) count *= extent(d);
    return count;
  }

 private:
  std::array<size_type, rank_dynamic()> dynamic_{};
};

template <std::convertible_to<size_type>... D>
extents(D...) -> extents<(static_cast<void>(sizeof(D)), dynamic_extent)...>;

using extents_1d = extents<dynamic_extent>;
using extents_2d = extents<dynamic_extent, dynamic_extent>;
using extents_3d = extents<dynamic_extent, dynamic_extent, dynamic_extent>;

}  // namespace dtl
