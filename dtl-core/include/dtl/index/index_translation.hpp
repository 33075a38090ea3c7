// SPDX-License-Identifier: MIT
#pragma once
// Global <-> local index arithmetic of the two standard distributions (upstream DTL's names), for n
// elements over p ranks:
//   block_partition_translation    consecutive blocks; the first n % p ranks hold one element more
//                                  (the layout of distributed_vector's even partition)
//   cyclic_partition_translation   element i on rank i % p
// owner() gives no_rank for an index outside [0, n) (or p <= 0); to_local() and to_global() give an
// invalid index for an element the rank does not hold. Plain arithmetic: no communication.

#include <dtl/core/types.hpp>
#include <dtl/index/global_index.hpp>

#include <algorithm>
#include <ranges>

namespace dtl {

namespace block_partition_translation {

/// Elements on rank r.
template <class I>
[[nodiscard]] constexpr I local_size(I n, rank_t p, rank_t r) noexcept {
  if (p <= 0 || r < 0 || r >= p || n <= 0) return I{0};
  return n / p + (r < n % p ? 1 : 0);
}
/// The global index of rank r's first element.
template <class I>
[[nodiscard]] constexpr I rank_offset(I n, rank_t p, rank_t r) noexcept {
  if (p <= 0 || n <= 0) return I{0};
  return static_cast<I>(r) * (n / p) + std::min(static_cast<I>(r), n % p);
}
template <class I>
[[nodiscard]] constexpr rank_t owner(I i, I n, rank_t p) noexcept {
  if (p <= 0 || i < 0 || i >= n) return no_rank;
  const I base = n / p, extra = n % p;
  const I wide = extra * (base + 1);  // elements on the ranks that hold one more
  return static_cast<rank_t>(i < wide ? i / (base + 1) : extra + (i - wide) / base);
}
template <class I>
[[nodiscard]] constexpr bool is_local(I i, I n, rank_t p, rank_t r) noexcept {
  return owner(i, n, p) == r && r != no_rank;
}
template <class I>
[[nodiscard]] constexpr local_index<I> to_local(I i, I n, rank_t p, rank_t r) noexcept {
  return is_local(i, n, p, r) ? local_index<I>(i - rank_offset(n, p, r)) : local_index<I>();
}
template <class I>
[[nodiscard]] constexpr global_index<I> to_global(I local, I n, rank_t p, rank_t r) noexcept {
  return local >= 0 && local < local_size(n, p, r) ? global_index<I>(rank_offset(n, p, r) + local) : global_index<I>();
}
/// Rank r's global indices, in order.
template <class I>
[[nodiscard]] constexpr auto owned_range(I n, rank_t p, rank_t r) noexcept {
  const I first = rank_offset(n, p, r);
  return std::views::iota(first, first + local_size(n, p, r));
}

}  // namespace block_partition_translation

namespace cyclic_partition_translation {

template <class I>
[[nodiscard]] constexpr rank_t owner(I i, rank_t p) noexcept {
  return p <= 0 || i < 0 ? no_rank : static_cast<rank_t>(i % p);
}
/// Elements on rank r: the same counts as the block distribution's (the first n % p ranks one more).
template <class I>
[[nodiscard]] constexpr I local_size(I n, rank_t p, rank_t r) noexcept {
  return block_partition_translation::local_size(n, p, r);
}
template <class I>
[[nodiscard]] constexpr bool is_local(I i, rank_t p, rank_t r) noexcept {
  return owner(i, p) == r && r != no_rank;
}
template <class I>
[[nodiscard]] constexpr local_index<I> to_local(I i, rank_t p, rank_t r) noexcept {
  return is_local(i, p, r) ? local_index<I>(i / p) : local_index<I>();
}
/// Rank r's local element l (any l >= 0: the count of elements is not known here).
template <class I>
[[nodiscard]] constexpr global_index<I> to_global(I local, rank_t p, rank_t r) noexcept {
  return local >= 0 && p > 0 && r >= 0 && r < p ? global_index<I>(local * p + r) : global_index<I>();
}

}  // namespace cyclic_partition_translation

}  // namespace dtl
