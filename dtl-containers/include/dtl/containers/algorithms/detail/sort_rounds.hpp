// SPDX-License-Identifier: MIT
#pragma once
// The splitter rounds of the distributed sort (sort_plan.hpp's plan) for the host and device paths
// alike: the communication here, the comparisons and the data in the path's Ops (K: the key type):
//   status take(std::span<const std::size_t> positions, K* out)  keys at these positions of the sorted block
//   status order(const std::vector<K>& keys, std::vector<std::size_t>& order)  indices in stable key order
//   status cut(std::span<const sort_plan::keyed_point<K>> points, std::size_t* cuts)  where each cuts the block
//   static constexpr bool fallible  whether those may fail on one rank (then every round agrees first)
// Per rank: at most gather_cap samples in round one, refine_samples·p in each refinement round, O(p)
// besides. Not for users.

#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace dtl::detail {

/// This rank's ranks - 1 cuts, and the rounds that placed the splitters.
struct splitter_cuts {
  std::vector<std::size_t> cuts;
  std::size_t rounds;
};

/// What an owner rank allgathers after a refinement round: its splitter, or its bracket's new ends.
template <class K>
struct refined_splitter {
  sort_plan::keyed_point<K> lo, hi;  // the splitter in lo when settled
  int state;                         // 0: this rank owns no open splitter; 1: settled; 2: still open
};

/// The point of sample s of a round's samples (the position given for a splitter).
template <class K>
sort_plan::keyed_point<K> point_of(const std::vector<K>& keys, const sort_plan::gathered_samples& g, std::size_t s,
                                   std::size_t position) {
  return {keys[s], g.refs[s].rank, position, sort_plan::place::at_key};
}
template <class K>
sort_plan::keyed_point<K> point_of(const std::vector<K>& keys, const sort_plan::gathered_samples& g, std::size_t s,
                                   const sort_plan::keyed_point<K>& none) {
  return s == sort_plan::no_sample ? none : point_of(keys, g, s, g.refs[s].position);
}

/// The cuts of this rank's sorted block (sizes: every rank's element count, not all zero; collective).
template <class K, class Ops>
result<splitter_cuts> find_cuts(const context& ctx, std::span<const std::size_t> sizes, Ops& ops) {
  namespace plan = sort_plan;
  using point = plan::keyed_point<K>;
  const std::size_t p = sizes.size(), me = static_cast<std::size_t>(ctx.rank());
  const plan::round_limits limits = plan::limits();
  const std::vector<std::size_t> offsets = layout_offsets(sizes);
  const std::span<const std::size_t> targets(offsets.data() + 1, p - 1);
  const std::size_t tolerance = plan::tolerance(sizes);
  auto agreed = [&](const status& local, const char* what) { return agree_before(Ops::fallible, ctx, local, what); };
  const point before_all{K{}, 0, 0, plan::place::before_all}, past_all{K{}, 0, 0, plan::place::past_all};

  // Round one: regular samples of every block, allgathered; every rank places or brackets each splitter
  // (whether it must bracket follows from the sizes alone, so every rank knows).
  std::vector<point> splitters(p - 1, past_all), lo(p - 1), hi(p - 1);
  std::vector<char> open(p - 1, 0);
  std::vector<std::size_t> positions, order;
  {
    const plan::gathered_samples g = plan::describe_samples(plan::whole_blocks(sizes, limits.gather_cap));
    const bool settles = plan::stretch_error(g) <= tolerance;
    plan::append_positions(g.ranges[me], positions);
    std::vector<K> mine(positions.size()), keys(g.refs.size());
    DTL_TRY(agreed(ops.take(positions, mine.data()), "sort (the samples)"));
    DTL_TRY(ctx.allgatherv(mine.data(), mine.size(), keys.data(), g.counts, g.displs));
    const status ordered = ops.order(keys, order);
    if (settles) {
      DTL_TRY(ordered);  // the caller agrees on the cuts
    } else {
      DTL_TRY(agreed(ordered, "sort (the splitters)"));
    }
    const plan::round_outcome first = plan::settle(g, order, 0, targets, tolerance, false);
    for (std::size_t j = 0; j + 1 < p; ++j) {
      if (first.settled) {
        if (first.chosen[j].exists) splitters[j] = point_of(keys, g, first.chosen[j].sample, first.chosen[j].position);
      } else {
        lo[j] = point_of(keys, g, first.next[j].lo, before_all);
        hi[j] = point_of(keys, g, first.next[j].hi, past_all);
        open[j] = 1;
      }
    }
  }
  std::size_t rounds = 1;

  // Refinement rounds: each rank sends the owner of each open splitter (rank j owns splitter j) where
  // its bracket's ends cut this rank's block, and regular samples of the elements between.
  while (std::find(open.begin(), open.end(), 1) != open.end()) {
    ++rounds;
    std::vector<point> ends;
    for (std::size_t j = 0; j + 1 < p; ++j)
      if (open[j] != 0) {
        ends.push_back(lo[j]);
        ends.push_back(hi[j]);
      }
    std::vector<std::size_t> end_cuts(ends.size()), headers(2 * p, 0), send_counts(p, 0);
    status local = ops.cut(ends, end_cuts.data());
    positions.clear();
    for (std::size_t j = 0, e = 0; j + 1 < p && local.ok(); ++j) {
      if (open[j] == 0) continue;
      const std::size_t a = end_cuts[e++], b = std::max(a, end_cuts[e++]);
      headers[2 * j] = a;
      headers[2 * j + 1] = b;
      send_counts[j] = std::min(limits.refine_samples, b - a);
      plan::append_positions({a, b, send_counts[j]}, positions);
    }
    std::vector<K> send(positions.size());
    if (local.ok()) local = ops.take(positions, send.data());
    DTL_TRY(agreed(local, "sort (the refinement samples)"));
    std::vector<std::size_t> received(2 * p);
    DTL_TRY(ctx.alltoall(headers.data(), received.data(), 2));
    std::vector<plan::sample_range> ranges(p);
    std::size_t base = 0;  // elements before the bracket
    for (std::size_t q = 0; q < p; ++q) {
      const std::size_t a = received[2 * q], b = received[2 * q + 1];
      ranges[q] = {a, b, std::min(limits.refine_samples, b - a)};
      base += a;
    }
    const plan::gathered_samples owned = plan::describe_samples(std::move(ranges));
    std::vector<K> owned_keys(owned.refs.size());
    DTL_TRY(ctx.alltoallv(send.data(), send_counts, plan::displacements(send_counts), owned_keys.data(), owned.counts,
                          owned.displs));

    // The owner places its splitter among the samples, or brackets it closer.
    refined_splitter<K> placed{};
    if (me + 1 < p && open[me] != 0) {
      local = ops.order(owned_keys, order);
      if (local.ok()) {
        const plan::round_outcome o =
            plan::settle(owned, order, base, targets.subspan(me, 1), tolerance, rounds > plan::max_refinements);
        placed.state = o.settled ? 1 : 2;
        if (o.settled)
          placed.lo =
              o.chosen[0].exists ? point_of(owned_keys, owned, o.chosen[0].sample, o.chosen[0].position) : hi[me];
        else {
          placed.lo = point_of(owned_keys, owned, o.next[0].lo, lo[me]);
          placed.hi = point_of(owned_keys, owned, o.next[0].hi, hi[me]);
        }
      }
    }
    DTL_TRY(agreed(local, "sort (the splitters)"));
    std::vector<refined_splitter<K>> all(p);
    DTL_TRY(ctx.allgather(&placed, all.data(), 1));
    for (std::size_t j = 0; j + 1 < p; ++j) {
      if (all[j].state == 1) {
        splitters[j] = all[j].lo;
        open[j] = 0;
      } else if (all[j].state == 2) {
        lo[j] = all[j].lo;
        hi[j] = all[j].hi;
      }
    }
  }

  splitter_cuts out{std::vector<std::size_t>(p - 1), rounds};
  DTL_TRY(ops.cut(splitters, out.cuts.data()));
  return out;
}

}  // namespace dtl::detail
