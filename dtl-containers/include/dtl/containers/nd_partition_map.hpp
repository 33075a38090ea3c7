// SPDX-License-Identifier: MIT
#pragma once
// nd_partition_map<Policy, N>: upstream DTL's map of an N-dimensional index space split over ranks along
// one dimension (partition_dim) by a one-dimensional partition policy; every other dimension is whole on
// every rank. It answers, for one rank of a job, without communication:
//
//   dtl::nd_partition_map<dtl::block_partition<>, 2> map({10, 5}, 0, 4, 1);   // rank 1 of 4, split rows
//   map.local_extents();            // {3, 5}: rows [3, 6) (block_partition: the first 10 % 4 ranks one more)
//   map.owner({6, 0});              // 2
//   map.to_local({3, 2});           // {0, 2}; to_global({0, 2}) is {3, 2}
//   map.is_local({6, 0});           // false
//
// The split along partition_dim is the policy's own (its static owner, local_size, to_local and
// to_global, as the policies of dtl/policies/partition/ have; block_partition<> is distributed_tensor's,
// whose rows it describes); a policy's static is_local is used where it has one (replicated). owner()
// and is_local() check the whole index against the extents (outside them: dtl::no_rank, false);
// to_local() and to_global() translate without checks, as upstream's. local_offset() is the global index
// of this rank's first local element (the policy's to_global of local index 0 along partition_dim).
// The constructor throws dtl::status_error (invalid_argument) for a partition dimension of N or more, fewer
// than one rank, or a rank outside [0, num_ranks); create() returns that status instead.

#include <dtl/containers/nd_extent.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>
#include <dtl/policies/partition/partition_policy.hpp>

#include <string>

namespace dtl {

template <class Policy, size_type N>
class nd_partition_map {
  static_assert(N >= 1, "an nd_partition_map has at least one dimension");
  static_assert(
      PartitionPolicyConcept<Policy>,
      "nd_partition_map splits one dimension by a partition policy (block_partition<>, cyclic_partition<B>, ...)");

 public:
  using partition_policy = Policy;
  using extent_type = nd_extent<N>;
  using index_type = nd_index<N>;
  static constexpr size_type dimensions = N;

  /// `extents` over `num_ranks` ranks, split along `partition_dim`, as rank `my_rank` sees it. Throws
  /// dtl::status_error (invalid_argument) for bad arguments (see create()).
  constexpr nd_partition_map(const extent_type& extents, size_type partition_dim, rank_t num_ranks, rank_t my_rank)
      : global_(extents), dim_(partition_dim), ranks_(num_ranks), rank_(my_rank) {
    if (!valid(partition_dim, num_ranks, my_rank)) throw status_error(check(partition_dim, num_ranks, my_rank));
    local_ = global_;
    local_[dim_] = Policy::local_size(split_extent(), ranks_, rank_);
    offset_[dim_] = Policy::to_global(0, split_extent(), ranks_, rank_);
  }

  /// The same without exceptions: invalid_argument for a partition dimension of N or more, fewer than one
  /// rank, or a rank outside [0, num_ranks).
  [[nodiscard]] static result<nd_partition_map> create(const extent_type& extents, size_type partition_dim,
                                                       rank_t num_ranks, rank_t my_rank) {
    if (!valid(partition_dim, num_ranks, my_rank)) return check(partition_dim, num_ranks, my_rank);
    return nd_partition_map(extents, partition_dim, num_ranks, my_rank);
  }

  // --- extents ---
  [[nodiscard]] constexpr const extent_type& global_extents() const noexcept { return global_; }
  /// This rank's block: its share of partition_dim, every other extent whole.
  [[nodiscard]] constexpr const extent_type& local_extents() const noexcept { return local_; }
  [[nodiscard]] constexpr size_type global_extent(size_type d) const noexcept { return global_[d]; }
  [[nodiscard]] constexpr size_type local_extent(size_type d) const noexcept { return local_[d]; }
  [[nodiscard]] constexpr size_type global_size() const noexcept { return extents_size(global_); }
  [[nodiscard]] constexpr size_type local_size() const noexcept { return extents_size(local_); }
  /// The element count of rank r's block (0 for a rank outside [0, num_ranks())).
  [[nodiscard]] constexpr size_type local_size_for_rank(rank_t r) const noexcept {
    extent_type block = global_;
    block[dim_] = r < 0 || r >= ranks_ ? 0 : Policy::local_size(split_extent(), ranks_, r);
    return extents_size(block);
  }

  // --- ownership and index translation ---
  /// The rank holding global index g; dtl::no_rank outside the extents.
  [[nodiscard]] constexpr rank_t owner(const index_type& g) const noexcept {
    return in_bounds(g) ? Policy::owner(g[dim_], split_extent(), ranks_) : no_rank;
  }
  /// Whether this rank holds global index g (false outside the extents).
  [[nodiscard]] constexpr bool is_local(const index_type& g) const noexcept {
    if (!in_bounds(g)) return false;
    if constexpr (requires { Policy::is_local(g[dim_], split_extent(), ranks_, rank_); })
      return Policy::is_local(g[dim_], split_extent(), ranks_, rank_);
    else
      return Policy::owner(g[dim_], split_extent(), ranks_) == rank_;
  }
  /// This rank's local index of global index g (meaningful where is_local(g)), and back.
  [[nodiscard]] constexpr index_type to_local(index_type g) const noexcept {
    g[dim_] = Policy::to_local(g[dim_], split_extent(), ranks_, rank_);
    return g;
  }
  [[nodiscard]] constexpr index_type to_global(index_type l) const noexcept {
    l[dim_] = Policy::to_global(l[dim_], split_extent(), ranks_, rank_);
    return l;
  }
  /// The global index of local index {0, ..., 0}: 0 in every dimension but partition_dim.
  [[nodiscard]] constexpr const index_type& local_offset() const noexcept { return offset_; }

  [[nodiscard]] constexpr size_type partition_dim() const noexcept { return dim_; }
  [[nodiscard]] constexpr rank_t num_ranks() const noexcept { return ranks_; }
  [[nodiscard]] constexpr rank_t my_rank() const noexcept { return rank_; }

  friend constexpr bool operator==(const nd_partition_map&, const nd_partition_map&) = default;

 private:
  static constexpr bool valid(size_type partition_dim, rank_t num_ranks, rank_t my_rank) noexcept {
    return partition_dim < N && num_ranks >= 1 && my_rank >= 0 && my_rank < num_ranks;
  }
  static status check(size_type partition_dim, rank_t num_ranks, rank_t my_rank) {
    if (partition_dim >= N)
      return status(status_code::invalid_argument, "nd_partition_map: partition dimension " +
                                                       std::to_string(partition_dim) + " of a " + std::to_string(N) +
                                                       "-dimensional index space");
    if (num_ranks < 1)
      return status(status_code::invalid_argument,
                    "nd_partition_map: " + std::to_string(num_ranks) + " ranks (at least one is needed)");
    if (my_rank < 0 || my_rank >= num_ranks)
      return status(status_code::invalid_argument, "nd_partition_map: rank " + std::to_string(my_rank) +
                                                       " is outside [0, " + std::to_string(num_ranks) + ")");
    return {};
  }

  [[nodiscard]] constexpr size_type split_extent() const noexcept { return global_[dim_]; }
  [[nodiscard]] constexpr bool in_bounds(const index_type& g) const noexcept {
    for (size_type d = 0; d < N; ++d)
      if (g[d] < 0 || static_cast<size_type>(g[d]) >= global_[d]) return false;
    return true;
  }

  extent_type global_{};
  extent_type local_{};
  index_type offset_{};
  size_type dim_ = 0;
  rank_t ranks_ = 1;
  rank_t rank_ = 0;
};

}  // namespace dtl
