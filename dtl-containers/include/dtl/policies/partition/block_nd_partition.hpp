// SPDX-License-Identifier: MIT
#pragma once
// block_nd_partition<N>: an N-dimensional domain split over an N-dimensional grid of ranks. Along each
// dimension d the extent is split into proc_grid[d] blocks the way block_partition splits a range (the
// first extent % proc_grid[d] blocks one longer); rank r sits at grid coordinates rank_to_grid(r), in
// row-major order (the last dimension varies fastest), and holds the product of its blocks.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/policies/partition/partition_policy.hpp>

#include <array>

namespace dtl {

template <size_type N>
class block_nd_partition {
 public:
  using policy_category = partition_policy_tag;
  static constexpr size_type dimensions = N;
  using grid_type = std::array<rank_t, N>;
  using grid_coord_type = std::array<rank_t, N>;
  using extent_type = nd_extent<N>;

  /// One rank along every dimension.
  constexpr block_nd_partition() noexcept { proc_grid_.fill(1); }
  /// proc_grid[d] ranks along dimension d (each at least 1); the job has total_ranks() ranks.
  constexpr explicit block_nd_partition(const grid_type& proc_grid) noexcept : proc_grid_(proc_grid) {}

  [[nodiscard]] constexpr const grid_type& proc_grid() const noexcept { return proc_grid_; }
  [[nodiscard]] constexpr rank_t proc_grid_dim(size_type d) const noexcept { return proc_grid_[d]; }
  [[nodiscard]] constexpr rank_t total_ranks() const noexcept {
    rank_t total = 1;
    for (const rank_t p : proc_grid_) total *= p;
    return total;
  }

  [[nodiscard]] constexpr grid_coord_type rank_to_grid(rank_t rank) const noexcept {
    grid_coord_type coords{};
    for (size_type d = N; d-- > 0;) {
      coords[d] = rank % proc_grid_[d];
      rank /= proc_grid_[d];
    }
    return coords;
  }
  [[nodiscard]] constexpr rank_t grid_to_rank(const grid_coord_type& coords) const noexcept {
    rank_t rank = 0;
    for (size_type d = 0; d < N; ++d) rank = rank * proc_grid_[d] + coords[d];
    return rank;
  }

  /// The extent of rank's block in every dimension.
  [[nodiscard]] constexpr extent_type local_extents(const extent_type& global, rank_t rank) const noexcept {
    const auto coords = rank_to_grid(rank);
    extent_type local{};
    for (size_type d = 0; d < N; ++d) local[d] = block_partition<>::local_size(global[d], proc_grid_[d], coords[d]);
    return local;
  }
  /// The global position of rank's first element.
  [[nodiscard]] constexpr nd_index<N> local_starts(const extent_type& global, rank_t rank) const noexcept {
    const auto coords = rank_to_grid(rank);
    nd_index<N> start{};
    for (size_type d = 0; d < N; ++d) start[d] = block_partition<>::local_start(global[d], proc_grid_[d], coords[d]);
    return start;
  }
  [[nodiscard]] constexpr size_type local_size(const extent_type& global, rank_t rank) const noexcept {
    return extents_size(local_extents(global, rank));
  }

  [[nodiscard]] constexpr rank_t owner(const nd_index<N>& global_idx, const extent_type& global) const noexcept {
    grid_coord_type coords{};
    for (size_type d = 0; d < N; ++d) coords[d] = block_partition<>::owner(global_idx[d], global[d], proc_grid_[d]);
    return grid_to_rank(coords);
  }
  [[nodiscard]] constexpr bool is_local(const nd_index<N>& global_idx, const extent_type& global,
                                        rank_t rank) const noexcept {
    const auto start = local_starts(global, rank);
    const auto extent = local_extents(global, rank);
    for (size_type d = 0; d < N; ++d)
      if (global_idx[d] < start[d] || global_idx[d] >= start[d] + static_cast<index_t>(extent[d])) return false;
    return true;
  }
  [[nodiscard]] constexpr nd_index<N> to_local(const nd_index<N>& global_idx, const extent_type& global,
                                               rank_t rank) const noexcept {
    const auto start = local_starts(global, rank);
    nd_index<N> local{};
    for (size_type d = 0; d < N; ++d) local[d] = global_idx[d] - start[d];
    return local;
  }
  [[nodiscard]] constexpr nd_index<N> to_global(const nd_index<N>& local_idx, const extent_type& global,
                                                rank_t rank) const noexcept {
    const auto start = local_starts(global, rank);
    nd_index<N> global_idx{};
    for (size_type d = 0; d < N; ++d) global_idx[d] = local_idx[d] + start[d];
    return global_idx;
  }

 private:
  grid_type proc_grid_;
};

using block_2d_partition = block_nd_partition<2>;
using block_3d_partition = block_nd_partition<3>;

}  // namespace dtl
