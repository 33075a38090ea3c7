// SPDX-License-Identifier: MIT
#pragma once
// dynamic_block: contiguous blocks whose boundaries are chosen at run time (after a load balance, say):
// rank r holds [boundaries[r], boundaries[r + 1]). Without boundaries it is block_partition<>'s even
// split. owner() is a binary search over the boundaries.

#include <dtl/containers/block_partition.hpp>
#include <dtl/policies/partition/partition_policy.hpp>

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

namespace dtl {

class dynamic_block {
 public:
  using policy_category = partition_policy_tag;

  /// The even split.
  dynamic_block() = default;
  /// Rank r holds [boundaries[r], boundaries[r + 1]); the boundaries start at 0 and do not decrease.
  explicit dynamic_block(std::vector<index_t> boundaries) : boundaries_(std::move(boundaries)) {}
  dynamic_block(std::initializer_list<index_t> boundaries) : boundaries_(boundaries) {}

  /// Rank r holds local_sizes[r] elements, in rank order.
  [[nodiscard]] static dynamic_block from_sizes(const std::vector<size_type>& local_sizes) {
    std::vector<index_t> boundaries(1, 0);
    boundaries.reserve(local_sizes.size() + 1);
    for (const size_type s : local_sizes) boundaries.push_back(boundaries.back() + static_cast<index_t>(s));
    return dynamic_block(std::move(boundaries));
  }

  [[nodiscard]] bool has_explicit_boundaries() const noexcept { return !boundaries_.empty(); }
  [[nodiscard]] const std::vector<index_t>& boundaries() const noexcept { return boundaries_; }

  [[nodiscard]] rank_t owner(index_t global_idx, size_type n, rank_t ranks) const {
    if (boundaries_.empty()) return block_partition<>::owner(global_idx, n, ranks);
    // The last rank whose block starts at or before global_idx (empty blocks before it share its start).
    const auto after = std::upper_bound(boundaries_.begin(), boundaries_.end(), global_idx);
    const auto r = static_cast<rank_t>(after - boundaries_.begin()) - 1;
    return std::clamp(r, rank_t{0}, static_cast<rank_t>(boundaries_.size()) - 2);
  }
  [[nodiscard]] size_type local_size(size_type n, rank_t ranks, rank_t rank) const {
    if (boundaries_.empty()) return block_partition<>::local_size(n, ranks, rank);
    if (rank < 0 || static_cast<size_type>(rank) + 1 >= boundaries_.size()) return 0;
    const auto r = static_cast<size_type>(rank);
    return static_cast<size_type>(boundaries_[r + 1] - boundaries_[r]);
  }
  [[nodiscard]] index_t local_start(size_type n, rank_t ranks, rank_t rank) const {
    if (boundaries_.empty()) return block_partition<>::local_start(n, ranks, rank);
    if (rank < 0) return 0;
    return boundaries_[std::min(static_cast<size_type>(rank), boundaries_.size() - 1)];
  }
  [[nodiscard]] index_t to_local(index_t global_idx, size_type n, rank_t ranks, rank_t rank) const {
    return global_idx - local_start(n, ranks, rank);
  }
  [[nodiscard]] index_t to_global(index_t local_idx, size_type n, rank_t ranks, rank_t rank) const {
    return local_idx + local_start(n, ranks, rank);
  }
  [[nodiscard]] partition_info make_info(size_type n, rank_t ranks, rank_t rank) const {
    return detail::make_partition_info(*this, n, ranks, rank, local_start(n, ranks, rank));
  }

 private:
  std::vector<index_t> boundaries_;  // empty: the even split
};

}  // namespace dtl
