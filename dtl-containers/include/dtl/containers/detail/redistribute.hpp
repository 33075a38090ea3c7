// SPDX-License-Identifier: MIT
#pragma once
// The arithmetic of distributed_vector::redistribute() and resize(): checking a new layout, and this
// rank's part of the move from the old layout to the new one (layout_moves.hpp), where the global size
// may change too (resize: the first min(old, new) elements keep their global indices; the rest of the
// new range is filled). Not for users.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/core/result.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace dtl::detail {

/// offsets[r] = where rank r's block begins in `p`; offsets[ranks] = p.global_size().
inline std::vector<std::size_t> partition_offsets(const block_partition<>& p) {
  std::vector<std::size_t> offsets(static_cast<std::size_t>(p.ranks()) + 1, 0);
  for (int r = 0; r < p.ranks(); ++r) offsets[static_cast<std::size_t>(r) + 1] = p.local_range(r).value().end;
  return offsets;
}

/// The per-rank sizes of `p`; empty when p is a failure (the check of the sizes then reports it).
inline std::vector<std::size_t> partition_sizes(const result<block_partition<>>& p) {
  std::vector<std::size_t> sizes;
  if (!p) return sizes;
  sizes.resize(static_cast<std::size_t>(p->ranks()));
  for (int r = 0; r < p->ranks(); ++r) sizes[static_cast<std::size_t>(r)] = p->local_range(r).value().size();
  return sizes;
}

/// A hash of the sizes, for the agreement step's signature (ranks given other sizes disagree).
inline std::int64_t sizes_fingerprint(std::span<const std::size_t> sizes) noexcept {
  std::uint64_t h = 14695981039346656037ull;
  for (const std::size_t s : sizes) {
    std::uint64_t v = s;
    for (int b = 0; b < 8; ++b, v >>= 8) {
      h ^= v & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return static_cast<std::int64_t>(h >> 1);
}

/// invalid_argument unless `sizes` has one entry per rank and sums to `total`.
inline status check_layout_sizes(const char* what, std::span<const std::size_t> sizes, int ranks, std::size_t total) {
  if (sizes.size() != static_cast<std::size_t>(ranks))
    return status(status_code::invalid_argument, std::string(what) + ": " + std::to_string(sizes.size()) +
                                                     " sizes given for " + std::to_string(ranks) + " ranks");
  std::size_t sum = 0;
  for (const std::size_t s : sizes) {
    if (s > total - sum)
      return status(status_code::invalid_argument,
                    std::string(what) + ": the sizes add up to more than the " + std::to_string(total) + " elements");
    sum += s;
  }
  if (sum != total)
    return status(status_code::invalid_argument, std::string(what) + ": the sizes add up to " + std::to_string(sum) +
                                                     " elements, not " + std::to_string(total));
  return {};
}

/// This rank's part of a change of layout. The moves leave out the rank's own entry: what stays is
/// copied locally (keep_*), and `fill_*` is the part of the new block past the old global size.
struct relayout_plan {
  layout_moves moves;
  std::size_t keep_count = 0, keep_from = 0, keep_to = 0;  // elements, old block offset, new block offset
  std::size_t fill_begin = 0, fill_count = 0;              // in the new block
  bool any_rank_exchanges = false;                         // the same on every rank: whether to call alltoallv
};

/// From the layout with offsets `from` to the one with offsets `to` (same ranks; totals may differ).
inline relayout_plan plan_relayout(std::span<const std::size_t> from, std::span<const std::size_t> to,
                                   std::size_t rank) {
  const std::size_t common = std::min(from.back(), to.back());
  std::vector<std::size_t> from_kept(from.begin(), from.end()), to_kept(to.begin(), to.end());
  for (auto& o : from_kept) o = std::min(o, common);
  for (auto& o : to_kept) o = std::min(o, common);
  relayout_plan plan;
  plan.moves = moves_between(from_kept, to_kept, rank);
  plan.keep_count = std::exchange(plan.moves.send_counts[rank], 0);
  plan.keep_from = std::exchange(plan.moves.send_displs[rank], 0);
  plan.keep_to = std::exchange(plan.moves.recv_displs[rank], 0);
  plan.moves.recv_counts[rank] = 0;
  // Elements change owner exactly when some block boundary (within the common part) moves.
  plan.any_rank_exchanges = from_kept != to_kept;
  const std::size_t begin = to[rank], end = to[rank + 1];
  const std::size_t first_new = std::max(begin, from.back());
  if (end > first_new) {
    plan.fill_begin = first_new - begin;
    plan.fill_count = end - first_new;
  }
  return plan;
}

}  // namespace dtl::detail
