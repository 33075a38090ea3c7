// SPDX-License-Identifier: MIT
#pragma once
// The arithmetic of the distributed sample sort, shared by its host and device paths: where each rank
// takes its samples, which samples become splitters, and where a splitter cuts a rank's sorted block.
// No comparisons and no communication here (the paths do those; sort_rounds.hpp runs the rounds).
// Not for users.
//
// Every element is ordered by (key, rank, position in its rank's sorted block). Keys that compare
// equal are so spread over the ranks by where they sit, and all-equal input still splits evenly. After
// a stable local sort the positions of equal keys follow their global indices, so the order is the
// stable one: stable_sort needs nothing more than a stable local sort and a merge that keeps equal keys
// in rank order.
//
// The splitters come in rounds. Round one: every rank takes regular samples of its block, all of them
// are allgathered, and every rank places the same splitters by the samples' weights (choose_splitters).
// With oversampling (32) samples per rank per rank that is today's sample sort, in one round; but its
// 32·p² gathered samples do not fit at a thousand ranks, so round one gathers at most gather_cap samples
// (all ranks together) and, where that leaves a splitter less precise than 32·p samples per rank would,
// brackets it between two gathered samples. A refinement round then sends, for each open splitter, at
// most refine_samples regular samples of every rank's part of its bracket to the splitter's owner rank,
// which places it among them (or brackets it closer), and the owners' results are allgathered: O(p)
// per rank besides refine_samples·p samples, and the error shrinks by about refine_samples/2 a round.

#include <dtl/containers/host_device.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace dtl::detail::sort_plan {

/// Samples each rank takes per rank of the context in one round (regular sampling: the buckets stay
/// within about 1 + 1/oversampling of their targets).
inline constexpr std::size_t oversampling = 32;

/// The sample budgets of the rounds.
struct round_limits {
  std::size_t gather_cap;      // samples allgathered in round one, all ranks together
  std::size_t refine_samples;  // samples a rank sends its owner per open splitter in a refinement round
};
/// Up to 16 ranks round one is the one-round sort (32·p samples per rank); past them it gathers 8192
/// samples, and refinement rounds send 32 per open splitter (measured on a simulated fat tree at 64 and 256
/// ranks: the fewest bytes and rounds together, docs/scaling.md).
inline constexpr round_limits default_limits{oversampling * 16 * 16, oversampling};

/// The budgets the sorts use: default_limits. A hidden setting for tests, which lower it (on every rank
/// alike, between sorts) to take the refinement rounds on 2 or 3 ranks; nothing else changes it.
[[nodiscard]] inline round_limits& limits() noexcept {
  static round_limits current = default_limits;
  return current;
}

/// Refinement rounds after which an open splitter is placed as it stands (never reached with
/// refine_samples of 8 or more: each round shrinks a bracket severalfold). Any splitters sort correctly;
/// they only set how even the buckets are.
inline constexpr std::size_t max_refinements = 64;

/// How many samples a rank of `size` elements takes among `ranks` in round one: oversampling per rank,
/// at most gather_cap / ranks (at least one).
[[nodiscard]] inline std::size_t sample_count(std::size_t size, std::size_t ranks, std::size_t gather_cap) noexcept {
  std::size_t wanted = oversampling * ranks;
  const std::size_t share = gather_cap / ranks > 0 ? gather_cap / ranks : 1;
  if (share < wanted) wanted = share;
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

/// Where stretch i of s of `size` elements starts: floor(i size / s) without overflow.
[[nodiscard]] inline std::size_t stretch_start(std::size_t i, std::size_t s, std::size_t size) noexcept {
  return (size / s) * i + ((size % s) * i) / s;
}

/// Where one rank samples in a round: `count` regular samples of its sorted elements [begin, end).
struct sample_range {
  std::size_t begin, end, count;
};

/// The positions of a range's samples, appended to `out`.
inline void append_positions(const sample_range& r, std::vector<std::size_t>& out) {
  for (std::size_t i = 0; i < r.count; ++i) out.push_back(r.begin + sample_position(i, r.count, r.end - r.begin));
}

/// Round one's ranges: every rank's whole block, sample_count samples.
[[nodiscard]] inline std::vector<sample_range> whole_blocks(std::span<const std::size_t> sizes,
                                                            std::size_t gather_cap) {
  std::vector<sample_range> ranges(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r)
    ranges[r] = {0, sizes[r], sample_count(sizes[r], sizes.size(), gather_cap)};
  return ranges;
}

/// One gathered sample: its rank, its position, and where the stretch of elements it stands for starts
/// (its key is in the gathered key array at the same index).
struct sample_ref {
  std::size_t rank;
  std::size_t position;
  std::size_t start;
};

/// The samples of every rank, in rank order (the order of an allgatherv or alltoallv of each rank's
/// samples), and the element count each one stands for.
struct gathered_samples {
  std::vector<sample_range> ranges;  // per rank
  std::vector<sample_ref> refs;
  std::vector<double> weights;
  std::vector<std::size_t> counts;  // per rank, for the allgatherv / alltoallv
  std::vector<std::size_t> displs;
};

[[nodiscard]] inline gathered_samples describe_samples(std::vector<sample_range> ranges) {
  gathered_samples g;
  const std::size_t ranks = ranges.size();
  g.counts.resize(ranks);
  g.displs.resize(ranks);
  std::size_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    g.counts[r] = ranges[r].count;
    g.displs[r] = total;
    total += g.counts[r];
  }
  g.refs.reserve(total);
  g.weights.reserve(total);
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::size_t s = ranges[r].count, size = ranges[r].end - ranges[r].begin, begin = ranges[r].begin;
    for (std::size_t i = 0; i < s; ++i) {
      g.refs.push_back({r, begin + sample_position(i, s, size), begin + stretch_start(i, s, size)});
      g.weights.push_back(static_cast<double>(size) / static_cast<double>(s));
    }
  }
  g.ranges = std::move(ranges);
  return g;
}

/// How far a splitter placed among one rank's samples of a range may be from where it belongs, in that
/// rank's elements: the longest stretch less one (the elements between two samples are known only in
/// number).
[[nodiscard]] inline std::size_t range_error(const sample_range& r) noexcept {
  return r.count == 0 ? 0 : (r.end - r.begin + r.count - 1) / r.count - 1;
}

/// How far a splitter placed among these samples may be from its target: range_error summed over the ranks.
[[nodiscard]] inline std::size_t stretch_error(const gathered_samples& g) noexcept {
  std::size_t error = 0;
  for (const sample_range& r : g.ranges) error += range_error(r);
  return error;
}

/// The error every splitter is brought within: that of one round of oversampling per rank per rank
/// (the one-round sort's bound, about 1/oversampling of a bucket).
[[nodiscard]] inline std::size_t tolerance(std::span<const std::size_t> sizes) noexcept {
  std::size_t error = 0;
  for (const std::size_t n : sizes)
    error += range_error({0, n, sample_count(n, sizes.size(), std::numeric_limits<std::size_t>::max())});
  return error;
}

/// A splitter: (the key of a gathered sample, that sample's rank, a position in that rank's block),
/// where bucket j starts; or none when bucket j starts past every sample (then at the upper end of the
/// samples' ranges: past every element in round one). The position matters only among keys equal to
/// the splitter's.
struct splitter {
  bool exists;
  std::size_t sample;    // index into the gathered samples (its key and rank)
  std::size_t position;  // in the sample's rank
};

/// The splitters of `targets` (ascending global indices where buckets start), from the gathered samples
/// in (key, rank, position) order (`order`: indices into the gathered samples), `base` elements ordered
/// before the samples' ranges. A bucket starts at the first sample whose elements before it reach its
/// target, so that the buckets come near the final sizes and the last step moves little.
[[nodiscard]] inline std::vector<splitter> choose_splitters(const gathered_samples& g,
                                                            std::span<const std::size_t> order, std::size_t base,
                                                            std::span<const std::size_t> targets) {
  std::vector<splitter> out(targets.size(), splitter{false, 0, 0});
  double before = static_cast<double>(base);  // elements the samples so far stand for
  std::size_t j = 0;
  for (std::size_t k = 0; k < order.size() && j < targets.size(); ++k) {
    while (j < targets.size() && before + 0.5 >= static_cast<double>(targets[j])) {
      // Start the bucket where the target falls in this sample's stretch: with equal keys (all-equal
      // input, say) every rank then keeps its own elements and nothing moves.
      const sample_ref& ref = g.refs[order[k]];
      const double at = static_cast<double>(ref.start) - (before - static_cast<double>(targets[j]));
      out[j++] = {true, order[k], at <= 0 ? std::size_t{0} : static_cast<std::size_t>(at + 0.5)};
    }
    before += g.weights[order[k]];
  }
  return out;
}

/// No sample: a bracket's end at the lower or upper end of the samples' ranges.
inline constexpr std::size_t no_sample = std::numeric_limits<std::size_t>::max();

/// Two samples with a target between them (in elements ordered before each): the next round samples
/// only the elements between them.
struct bracket {
  std::size_t lo, hi;  // sample indices, or no_sample
};

/// The closest brackets of `targets` (ascending) among the gathered samples in `order`. A sample's
/// elements before it are bounded by its neighbours of every rank: a rank's elements before it are
/// after its last sample before it and at most its first sample after it (or its range's ends).
[[nodiscard]] inline std::vector<bracket> brackets(const gathered_samples& g, std::span<const std::size_t> order,
                                                   std::span<const std::size_t> targets) {
  const std::size_t ranks = g.ranges.size();
  std::vector<std::size_t> seen(ranks, 0);  // samples of each rank passed so far
  auto position = [&](std::size_t q, std::size_t c) { return g.refs[g.displs[q] + c].position; };
  auto lower_of = [&](std::size_t q) { return seen[q] == 0 ? g.ranges[q].begin : position(q, seen[q] - 1) + 1; };
  auto upper_of = [&](std::size_t q) { return seen[q] == g.counts[q] ? g.ranges[q].end : position(q, seen[q]); };
  std::size_t lower = 0, upper = 0;  // sums over the ranks
  for (std::size_t q = 0; q < ranks; ++q) {
    lower += lower_of(q);
    upper += upper_of(q);
  }
  std::vector<bracket> out(targets.size(), bracket{no_sample, no_sample});
  std::size_t lo_next = 0, hi_next = 0;  // the first targets still without their lo, their hi
  for (std::size_t k = 0; k < order.size(); ++k) {
    const sample_ref& ref = g.refs[order[k]];
    const std::size_t q = ref.rank;
    // Elements before this sample: at least `at_least`, at most `upper` (its own rank's count is exact).
    const std::size_t at_least = lower - lower_of(q) + ref.position;
    // lo: the last sample that cannot be past the target (none past it: the first that may be is this).
    while (lo_next < targets.size() && targets[lo_next] < upper) out[lo_next++].lo = k == 0 ? no_sample : order[k - 1];
    // hi: the first sample that cannot be before the target.
    while (hi_next < targets.size() && targets[hi_next] <= at_least) out[hi_next++].hi = order[k];
    lower += ref.position + 1 - lower_of(q);
    const std::size_t was = upper_of(q);
    ++seen[q];
    upper += upper_of(q) - was;
  }
  while (lo_next < targets.size()) out[lo_next++].lo = order.empty() ? no_sample : order.back();
  return out;
}

/// What a round settles for each target: its splitter when the samples pin it within `tolerance`, else
/// the bracket for the next round.
struct round_outcome {
  bool settled;
  std::vector<splitter> chosen;  // when settled
  std::vector<bracket> next;     // when not
};

[[nodiscard]] inline round_outcome settle(const gathered_samples& g, std::span<const std::size_t> order,
                                          std::size_t base, std::span<const std::size_t> targets, std::size_t tolerance,
                                          bool last_round) {
  if (last_round || stretch_error(g) <= tolerance) return {true, choose_splitters(g, order, base, targets), {}};
  return {false, {}, brackets(g, order, targets)};
}

/// Where a splitter or a bracket's end lies: before every element, at a key (with a rank and a
/// position, as a splitter), or past every element.
enum class place : int { before_all, at_key, past_all };

/// A point with its key, as the ranks exchange it (K trivially copyable).
template <class K>
struct keyed_point {
  K key;
  std::size_t rank, position;
  place where;
};

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
