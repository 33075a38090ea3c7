// SPDX-License-Identifier: MIT
#pragma once
// Partition policies (upstream DTL's names): how N global indices are spread over ranks. Each maps a
// global index to its owner, a rank to its element count, and indices between global and a rank's
// local numbering; make_info(n, ranks, rank) gathers one rank's view in a partition_info.
//   block_partition<D>   contiguous blocks, the first n % ranks one longer (dtl-containers)
//   cyclic_partition<B>  blocks of B (0 means 1) dealt round-robin: block-cyclic
//   replicated           every rank holds everything
//   hash_partition<H>    a key's owner is its hash modulo the rank count
//   custom_partition<F>  the owner is F(index, n, ranks); local numbering in index order
//   dynamic_block        contiguous blocks of explicit sizes (dtl-containers)
//   block_nd_partition<N> an N-dimensional domain over an N-dimensional grid of ranks (dtl-containers)

#include <dtl/core/types.hpp>
#include <dtl/policies/policy_category.hpp>

#include <concepts>

namespace dtl {

/// Upstream's full partition requirement: PartitionPolicy plus the index conversions.
template <class P>
concept PartitionPolicyConcept = std::same_as<typename P::policy_category, partition_policy_tag> &&
    requires(const P& p, index_t global_idx, index_t local_idx, size_type n, rank_t ranks, rank_t rank) {
  { p.owner(global_idx, n, ranks) } -> std::convertible_to<rank_t>;
  { p.local_size(n, ranks, rank) } -> std::convertible_to<size_type>;
  { p.to_local(global_idx, n, ranks, rank) } -> std::convertible_to<index_t>;
  { p.to_global(local_idx, n, ranks, rank) } -> std::convertible_to<index_t>;
};

/// One rank's contiguous share [local_start, local_end) of global_size elements over num_ranks.
/// (For a non-contiguous partition, cyclic say, local_start/local_end number the rank's own elements.)
struct partition_info {
  size_type global_size = 0;
  rank_t num_ranks = 0;
  rank_t my_rank = 0;
  size_type local_size = 0;
  index_t local_start = 0;
  index_t local_end = 0;

  [[nodiscard]] constexpr bool is_local(index_t global_idx) const noexcept {
    return global_idx >= local_start && global_idx < local_end;
  }
  /// global_idx - local_start, for an index known to be local.
  [[nodiscard]] constexpr index_t to_local_unchecked(index_t global_idx) const noexcept {
    return global_idx - local_start;
  }
  [[nodiscard]] constexpr index_t to_global(index_t local_idx) const noexcept { return local_idx + local_start; }
};

namespace detail {
/// The partition_info of `rank` under P, whose local numbering starts at `start`.
template <class P>
[[nodiscard]] constexpr partition_info make_partition_info(const P& p, size_type n, rank_t ranks, rank_t rank,
                                                           index_t start) {
  partition_info info;
  info.global_size = n;
  info.num_ranks = ranks;
  info.my_rank = rank;
  info.local_size = p.local_size(n, ranks, rank);
  info.local_start = start;
  info.local_end = start + static_cast<index_t>(info.local_size);
  return info;
}
}  // namespace detail

}  // namespace dtl
