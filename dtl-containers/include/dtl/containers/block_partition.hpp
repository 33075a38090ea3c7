// SPDX-License-Identifier: MIT
#pragma once
// block_partition: how a global index range [0, n) is split into contiguous blocks over ranks.
// The first (n % ranks) ranks hold one element more, so block sizes differ by at most one.
// With a unit u (a row of u elements, say), the n / u units are split that way and every block holds
// whole units.
// from_sizes() makes an irregular partition instead: explicit per-rank sizes (what a redistributed
// vector has), kept as offsets in one shared immutable array, so copies stay cheap; local_range() and
// owner() (a binary search) mean the same on both kinds.
// It is also upstream DTL's block_partition<Dim> partition policy: the static owner / local_size /
// local_start / to_local / to_global / make_info answer the even split (unit 1) of any size over any
// rank count, with no object. Dim names the dimension that is split; every container here splits
// dimension 0 (rows), hence block_partition<> (Dim = 0).

#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>
#include <dtl/policies/partition/partition_policy.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dtl {

/// Where block `r` of n elements split into `blocks` even blocks begins (r == blocks: n): the first
/// n % blocks blocks hold one element more. The one block formula of the partitions and of the
/// algorithms' host chunks.
[[nodiscard]] constexpr std::size_t even_block_begin(std::size_t n, std::size_t blocks, std::size_t r) noexcept {
  const std::size_t base = n / blocks, extra = n % blocks;
  return r * base + (r < extra ? r : extra);
}

struct index_range {
  std::size_t begin = 0;
  std::size_t end = 0;
  [[nodiscard]] constexpr std::size_t size() const noexcept { return end - begin; }
  [[nodiscard]] constexpr bool contains(std::size_t i) const noexcept { return i >= begin && i < end; }
  friend constexpr bool operator==(index_range, index_range) = default;
};

template <size_type Dim = 0>
class block_partition {
 public:
  using policy_category = partition_policy_tag;
  static constexpr size_type distributed_dimension = Dim;

  // Upstream's static policy: the even split of n elements over `ranks` (0 or fewer ranks: nothing).
  /// The rank holding global_idx (rank 0 when n == 0 or ranks <= 0).
  [[nodiscard]] static constexpr rank_t owner(index_t global_idx, size_type n, rank_t ranks) noexcept {
    if (n == 0 || ranks <= 0) return 0;
    const auto i = static_cast<size_type>(global_idx), nr = static_cast<size_type>(ranks);
    const size_type base = n / nr, extra = n % nr;
    const size_type big = extra * (base + 1);  // elements held by the ranks with one extra
    return static_cast<rank_t>(i < big ? i / (base + 1) : extra + (i - big) / base);
  }
  [[nodiscard]] static constexpr size_type local_size(size_type n, rank_t ranks, rank_t rank) noexcept {
    if (ranks <= 0 || rank < 0 || rank >= ranks) return 0;
    const auto nr = static_cast<size_type>(ranks), r = static_cast<size_type>(rank);
    return even_block_begin(n, nr, r + 1) - even_block_begin(n, nr, r);
  }
  /// The global index of rank's first element.
  [[nodiscard]] static constexpr index_t local_start(size_type n, rank_t ranks, rank_t rank) noexcept {
    if (ranks <= 0 || rank < 0) return 0;
    const auto r = rank < ranks ? rank : ranks;
    return static_cast<index_t>(even_block_begin(n, static_cast<size_type>(ranks), static_cast<size_type>(r)));
  }
  [[nodiscard]] static constexpr index_t to_local(index_t global_idx, size_type n, rank_t ranks, rank_t rank) noexcept {
    return global_idx - local_start(n, ranks, rank);
  }
  [[nodiscard]] static constexpr index_t to_global(index_t local_idx, size_type n, rank_t ranks, rank_t rank) noexcept {
    return local_idx + local_start(n, ranks, rank);
  }
  [[nodiscard]] static constexpr partition_info make_info(size_type n, rank_t ranks, rank_t rank) noexcept {
    const index_t start = local_start(n, ranks, rank);
    const size_type count = local_size(n, ranks, rank);
    return partition_info{n, ranks, rank, count, start, start + static_cast<index_t>(count)};
  }

  // A partition object: an even split in whole units, or explicit sizes.
  /// invalid_argument when ranks <= 0.
  static result<block_partition> create(std::size_t global_size, int ranks) {
    if (ranks <= 0) return status(status_code::invalid_argument, "a partition needs at least one rank");
    return block_partition(global_size, ranks, 1);
  }
  /// Blocks of whole units of `unit` elements: invalid_argument when unit is 0 or does not divide
  /// global_size.
  static result<block_partition> create(std::size_t global_size, int ranks, std::size_t unit) {
    if (ranks <= 0) return status(status_code::invalid_argument, "a partition needs at least one rank");
    if (unit == 0 || global_size % unit != 0)
      return status(status_code::invalid_argument, "a partition into units of " + std::to_string(unit) +
                                                       " elements needs a global size that is a multiple of it, not " +
                                                       std::to_string(global_size));
    return block_partition(global_size, ranks, unit);
  }
  /// Rank r holds sizes[r] elements (any of them 0), in rank order; unit() is 1. invalid_argument when
  /// sizes is empty or its sum overflows.
  static result<block_partition> from_sizes(std::span<const std::size_t> sizes) {
    if (sizes.empty()) return status(status_code::invalid_argument, "a partition needs at least one rank");
    if (sizes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      return status(status_code::invalid_argument,
                    "a partition of " + std::to_string(sizes.size()) + " ranks is too many");
    auto offsets = std::make_shared<std::vector<std::size_t>>(sizes.size() + 1, 0);
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      if (sizes[r] > std::numeric_limits<std::size_t>::max() - (*offsets)[r])
        return status(status_code::invalid_argument, "the sizes of a partition overflow");
      (*offsets)[r + 1] = (*offsets)[r] + sizes[r];
    }
    block_partition p((*offsets)[sizes.size()], static_cast<int>(sizes.size()), 1);
    p.offsets_ = std::move(offsets);
    return p;
  }

  /// False for the even block formula (create()), true for explicit sizes (from_sizes()).
  [[nodiscard]] bool is_irregular() const noexcept { return offsets_ != nullptr; }
  /// Whether the two give every rank the same block (whichever way each was made).
  [[nodiscard]] bool same_layout(const block_partition& other) const {
    if (ranks_ != other.ranks_ || size_ != other.size_) return false;
    // Every algorithm over two vectors asks: the common cases answer without a walk over the ranks.
    if (offsets_ == other.offsets_ && (offsets_ != nullptr || unit_ == other.unit_)) return true;
    for (int r = 0; r < ranks_; ++r)
      if (local_range(r).value() != other.local_range(r).value()) return false;
    return true;
  }

  [[nodiscard]] constexpr std::size_t global_size() const noexcept { return size_; }
  [[nodiscard]] constexpr int ranks() const noexcept { return ranks_; }
  /// Elements per unit: every block starts and ends on a multiple of it.
  [[nodiscard]] constexpr std::size_t unit() const noexcept { return unit_; }

  /// The block of `rank`; invalid_rank when it is out of range.
  [[nodiscard]] result<index_range> local_range(int rank) const {
    if (rank < 0 || rank >= ranks_)
      return status(status_code::invalid_rank,
                    "rank " + std::to_string(rank) + " is outside [0, " + std::to_string(ranks_) + ")");
    const auto r = static_cast<std::size_t>(rank);
    if (offsets_) return index_range{(*offsets_)[r], (*offsets_)[r + 1]};
    const std::size_t units = size_ / unit_;
    const auto ranks = static_cast<std::size_t>(ranks_);
    return index_range{even_block_begin(units, ranks, r) * unit_, even_block_begin(units, ranks, r + 1) * unit_};
  }

  /// The rank owning global index i; out_of_range when i >= global_size().
  [[nodiscard]] result<int> owner(std::size_t i) const {
    if (i >= size_)
      return status(status_code::out_of_range,
                    "index " + std::to_string(i) + " is outside [0, " + std::to_string(size_) + ")");
    if (offsets_) {
      // The last rank whose block starts at or before i (empty blocks before it share its offset).
      const auto after = std::upper_bound(offsets_->begin(), offsets_->end(), i);
      return static_cast<int>(after - offsets_->begin()) - 1;
    }
    const std::size_t u = i / unit_;  // the unit holding i
    const std::size_t units = size_ / unit_;
    const std::size_t base = units / static_cast<std::size_t>(ranks_);
    const std::size_t extra = units % static_cast<std::size_t>(ranks_);
    const std::size_t big = extra * (base + 1);  // units held by the ranks with one extra unit
    if (u < big) return static_cast<int>(u / (base + 1));
    return static_cast<int>(extra + (u - big) / base);
  }

 private:
  block_partition(std::size_t n, int ranks, std::size_t unit) noexcept : size_(n), ranks_(ranks), unit_(unit) {}
  std::size_t size_;
  int ranks_;
  std::size_t unit_;
  std::shared_ptr<const std::vector<std::size_t>> offsets_;  // null for the even block formula
};

}  // namespace dtl
