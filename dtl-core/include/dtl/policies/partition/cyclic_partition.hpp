// SPDX-License-Identifier: MIT
#pragma once
// cyclic_partition<B>: block-cyclic. The indices form blocks of B (B == 0 means 1: plain round-robin),
// dealt to ranks 0, 1, ..., ranks-1, 0, ...; a rank numbers its own elements in index order.

#include <dtl/policies/partition/partition_policy.hpp>

namespace dtl {

template <size_type B = 1>
struct cyclic_partition {
  using policy_category = partition_policy_tag;
  static constexpr size_type block_size = B == 0 ? 1 : B;
  /// Upstream's name for block_size.
  static constexpr size_type cycle_size = block_size;

  /// Rank 0 when ranks <= 0.
  [[nodiscard]] static constexpr rank_t owner(index_t global_idx, size_type /*n*/, rank_t ranks) noexcept {
    if (ranks <= 0) return 0;
    return static_cast<rank_t>((global_idx / static_cast<index_t>(block_size)) % ranks);
  }
  [[nodiscard]] static constexpr size_type local_size(size_type n, rank_t ranks, rank_t rank) noexcept {
    if (ranks <= 0 || rank < 0 || rank >= ranks) return 0;
    const auto r = static_cast<size_type>(rank), nr = static_cast<size_type>(ranks);
    const size_type blocks = n / block_size, partial = n % block_size;
    // Every rank gets blocks / nr whole blocks; the next blocks % nr ranks one more, and the rank after
    // them the partial block.
    size_type count = (blocks / nr + (r < blocks % nr ? 1 : 0)) * block_size;
    if (r == blocks % nr) count += partial;
    return count;
  }
  [[nodiscard]] static constexpr index_t to_local(index_t global_idx, size_type /*n*/, rank_t ranks,
                                                  rank_t /*rank*/) noexcept {
    if (ranks <= 0) return global_idx;
    const auto b = static_cast<index_t>(block_size);
    return (global_idx / b / ranks) * b + global_idx % b;
  }
  [[nodiscard]] static constexpr index_t to_global(index_t local_idx, size_type /*n*/, rank_t ranks,
                                                   rank_t rank) noexcept {
    if (ranks <= 0) return local_idx;
    const auto b = static_cast<index_t>(block_size);
    return ((local_idx / b) * ranks + rank) * b + local_idx % b;
  }
  /// The rank's elements numbered from 0 (they are not one contiguous global range).
  [[nodiscard]] static constexpr partition_info make_info(size_type n, rank_t ranks, rank_t rank) noexcept {
    return detail::make_partition_info(cyclic_partition{}, n, ranks, rank, 0);
  }
};

}  // namespace dtl
