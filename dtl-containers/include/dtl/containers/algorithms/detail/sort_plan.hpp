// SPDX-License-Identifier: MIT
#pragma once
// The arithmetic of the distributed sample sort, shared by its host and device paths: where each rank
// takes its samples, which samples become splitters, and where a splitter cuts a rank's sorted block.
// No comparisons and no communication here (the paths do those). Not for users.
//
// Every element is ordered by (key, rank, position in its rank's sorted block). Keys that compare
// equal are so spread over the ranks by where they sit, and all-equal input still splits evenly. After
// a stable local sort the positions of equal keys follow their global indices, so the order is the
// stable one: stable_sort needs nothing more than a stable local sort and a merge that keeps equal keys
// in rank order.

#include <dtl/containers/host_device.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace dtl::detail::sort_plan {

/// Samples each rank takes per rank of the context (regular sampling: the buckets stay within about
/// 1 + 1/oversampling of their targets).
inline constexpr std::size_t oversampling = 32;

/// How many samples a rank of `size` elements takes among `ranks`.
[[nodiscard]] inline std::size_t sample_count(std::size_t size, std::size_t ranks) noexcept {
  const std::size_t wanted = oversampling * ranks;
  return size < wanted ? size : wanted;
}

/// The position of sample i of s in a sorted block of `size` elements: the middle of the i-th of s
/// equal stretches.
[[nodiscard]] DTL_HOST_DEVICE inline std::size_t sample_position(std::size_t i, std::size_t s,
                                                                 std::size_t size) noexcept {
  // floor((2i + 1) size / 2s) without overflow: size = q 2s + r.
  const std::size_t twice = 2 * s, odd = 2 * i + 1;
  return (size / twice) * odd + ((size % twice) * odd) / twice;
}

/// One gathered sample: its rank, its position, and where the stretch of elements it stands for starts
/// (its key is in the gathered key array at the same index).
struct sample_ref {
  std::size_t rank;
  std::size_t position;
  std::size_t start;
};

/// The samples of every rank, in rank order (the order of an allgatherv of each rank's samples), and
/// the element count each one stands for.
struct gathered_samples {
  std::vector<sample_ref> refs;
  std::vector<double> weights;
  std::vector<std::size_t> counts;  // per rank, for the allgatherv
  std::vector<std::size_t> displs;
};

[[nodiscard]] inline gathered_samples describe_samples(std::span<const std::size_t> sizes) {
  gathered_samples g;
  const std::size_t ranks = sizes.size();
  g.counts.resize(ranks);
  g.displs.resize(ranks);
  std::size_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    g.counts[r] = sample_count(sizes[r], ranks);
    g.displs[r] = total;
    total += g.counts[r];
  }
  g.refs.reserve(total);
  g.weights.reserve(total);
  for (std::size_t r = 0; r < ranks; ++r) {
    for (std::size_t i = 0; i < g.counts[r]; ++i) {
      const std::size_t s = g.counts[r], size = sizes[r];
      g.refs.push_back({r, sample_position(i, s, size), (size / s) * i + ((size % s) * i) / s});
      g.weights.push_back(static_cast<double>(sizes[r]) / static_cast<double>(g.counts[r]));
    }
  }
  return g;
}

/// A splitter: (the key of a gathered sample, that sample's rank, a position in that rank's block),
/// where bucket j starts; or none when bucket j starts past every element (then it is empty, and so are
/// the ones after it). The position matters only among keys equal to the splitter's.
struct splitter {
  bool exists;
  std::size_t sample;    // index into the gathered samples (its key and rank)
  std::size_t position;  // in the sample's rank
};

/// The ranks - 1 splitters, from the gathered samples in (key, rank, position) order (`order`: indices
/// into the gathered samples). Bucket j (which rank j receives) starts at the first sample whose
/// elements before it reach rank j's first global index in `target_offsets` (the layout the sort ends
/// in), so that the buckets come near the final sizes and the last step moves little.
[[nodiscard]] inline std::vector<splitter> choose_splitters(const gathered_samples& g,
                                                            std::span<const std::size_t> order,
                                                            std::span<const std::size_t> target_offsets) {
  const std::size_t ranks = target_offsets.size() - 1;
  std::vector<splitter> out(ranks > 0 ? ranks - 1 : 0, splitter{false, 0, 0});
  double before = 0;  // elements the samples so far stand for
  std::size_t j = 1;
  for (std::size_t k = 0; k < order.size() && j < ranks; ++k) {
    while (j < ranks && before + 0.5 >= static_cast<double>(target_offsets[j])) {
      // Start the bucket where the target falls in this sample's stretch: with equal keys (all-equal
      // input, say) every rank then keeps its own elements and nothing moves.
      const sample_ref& ref = g.refs[order[k]];
      const double at = static_cast<double>(ref.start) - (before - static_cast<double>(target_offsets[j]));
      out[j++ - 1] = {true, order[k], at <= 0 ? std::size_t{0} : static_cast<std::size_t>(at + 0.5)};
    }
    before += g.weights[order[k]];
  }
  return out;
}

/// Where a splitter (key, rank, position) cuts `me`'s sorted block, given lower_bound and upper_bound of
/// the splitter's key in that block: the elements ordered before (key, rank, position).
[[nodiscard]] DTL_HOST_DEVICE inline std::size_t cut_of(std::size_t me, std::size_t rank, std::size_t position,
                                                        std::size_t lower, std::size_t upper) noexcept {
  return me < rank ? upper : me > rank ? lower : position < lower ? lower : position > upper ? upper : position;
}

/// Per-bucket counts and displacements of a sorted block from its ranks - 1 cuts.
struct bucket_counts {
  std::vector<std::size_t> counts, displs;
};

[[nodiscard]] inline bucket_counts buckets_from_cuts(std::span<const std::size_t> cuts, std::size_t size) {
  const std::size_t ranks = cuts.size() + 1;
  bucket_counts b{std::vector<std::size_t>(ranks), std::vector<std::size_t>(ranks)};
  std::size_t begin = 0;
  for (std::size_t q = 0; q < ranks; ++q) {
    std::size_t end = q + 1 < ranks ? cuts[q] : size;
    // Cuts are monotone except, by rounding, two splitters of one key and rank: the later one then
    // takes none of that rank's run of the key, which keeps the order (and stability).
    if (end < begin) end = begin;
    if (end > size) end = size;
    b.displs[q] = begin;
    b.counts[q] = end - begin;
    begin = end;
  }
  return b;
}

/// Exclusive prefix sums of counts (receive displacements of runs laid end to end).
[[nodiscard]] inline std::vector<std::size_t> displacements(std::span<const std::size_t> counts) {
  std::vector<std::size_t> d(counts.size(), 0);
  std::size_t total = 0;
  for (std::size_t q = 0; q < counts.size(); ++q) {
    d[q] = total;
    total += counts[q];
  }
  return d;
}

}  // namespace dtl::detail::sort_plan
