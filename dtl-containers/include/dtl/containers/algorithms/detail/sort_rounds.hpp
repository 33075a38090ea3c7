// SPDX-License-Identifier: MIT
#pragma once
// The splitter rounds of the distributed sort (sort_plan.hpp's plan) for the host and device paths
// alike: the communication here, the comparisons and the data in the path's Ops (K: the key type):
//   status take(std::span<const std::size_t> positions, K* out)  keys at these positions of the sorted block
//   status order(const std::vector<K>& keys, std::vector<std::size_t>& order)  indices in stable key order
//   status cut(std::span<const sort_plan::keyed_point<K>> points, std::size_t* cuts)  where each cuts the block
//   static constexpr bool fallible  whether those may fail on one rank (then every round agrees first)
// Per rank: at most gather_cap samples in round one, refine_samples·p in each refinement round, O(p)
// besides. Every exchange is one allgather or one alltoall of fixed-size records (log P steps in MPI's
// algorithms for small blocks, where an allgatherv or alltoallv takes P), without the agreement step
// (unchecked_collectives.hpp): a failure travels as a flag in the records, and only then do the ranks run
// the agreement step that gives each the same status. Not for users.

#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/unchecked_collectives.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace dtl::detail {

/// Every rank's element count, this rank's ranks - 1 cuts, and the rounds that placed the splitters.
struct splitter_cuts {
  std::vector<std::size_t> sizes;
  std::vector<std::size_t> cuts;
  std::size_t rounds = 0;
};

/// No rank failed (an exchange's lowest failed rank).
inline constexpr std::size_t no_failed_rank = std::numeric_limits<std::size_t>::max();

/// After an exchange that told every rank the lowest rank that failed (alike on every rank): ok when none
/// did; else the agreement step on this rank's `local`, so that every rank returns the same status.
[[nodiscard]] inline status agree_on_failures(const context& ctx, std::size_t first_failed, const status& local,
                                              const char* what) {
  if (first_failed == no_failed_rank) return {};
  status agreed = agree(ctx, local, call_signature{what});
  if (agreed.ok())  // the agreement is off (DTL_AGREEMENT=off): still no rank goes on
    return status(status_code::collective_failure, std::string(what) + ": rank " + std::to_string(first_failed) +
                                                       " failed (DTL_AGREEMENT=off: its status stays there)");
  return agreed;
}

/// A size and whether its rank failed, as every rank sends it in an exchange.
struct size_and_failure {
  std::size_t size;
  std::size_t failed;
};

/// Every rank's `mine` (one allgather), when no rank's `local` failed; else the same status on every rank.
[[nodiscard]] inline result<std::vector<std::size_t>> allgather_sizes(const context& ctx, std::size_t mine,
                                                                      const status& local, const char* what) {
  const std::size_t p = static_cast<std::size_t>(ctx.size());
  const size_and_failure sent{mine, local.ok() ? 0u : 1u};
  std::vector<size_and_failure> all(p);
  DTL_TRY(unchecked_allgather(ctx, &sent, all.data(), sizeof sent));
  std::vector<std::size_t> sizes(p);
  std::size_t first_failed = no_failed_rank;
  for (std::size_t r = 0; r < p; ++r) {
    sizes[r] = all[r].size;
    if (all[r].failed != 0 && first_failed == no_failed_rank) first_failed = r;
  }
  DTL_TRY(agree_on_failures(ctx, first_failed, local, what));
  return sizes;
}

/// Fixed-size records of an exchange: a header, then room for `room` keys (a rank sends at most that many).
template <class Header, class K>
struct record_layout {
  static_assert(std::is_trivially_copyable_v<Header> && std::is_trivially_copyable_v<K>,
                "the sort exchanges keys as bytes: the key type must be trivially copyable");
  std::size_t room;
  [[nodiscard]] std::size_t bytes() const noexcept { return sizeof(Header) + room * sizeof(K); }
  void put(std::byte* at, const Header& h, const K* keys, std::size_t count) const noexcept {
    std::memcpy(at, &h, sizeof h);
    if (count != 0) std::memcpy(at + sizeof h, keys, count * sizeof(K));
  }
  [[nodiscard]] Header header(const std::byte* at) const noexcept {
    Header h;
    std::memcpy(&h, at, sizeof h);
    return h;
  }
  void keys(const std::byte* at, K* out, std::size_t count) const noexcept {
    if (count != 0) std::memcpy(out, at + sizeof(Header), count * sizeof(K));
  }
};

/// What an owner rank allgathers after a refinement round: its splitter, or its bracket's new ends.
template <class K>
struct refined_splitter {
  sort_plan::keyed_point<K> lo, hi;  // the splitter in lo when settled
  int state;                         // 0: this rank owns no open splitter; 1: settled; 2: still open
};

/// Where an open splitter's bracket cuts a rank's block: its elements [begin, end) lie inside.
struct bracket_cut {
  std::size_t begin, end;
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

/// The splitters, and where they cut this rank's sorted block of n elements (collective). `local`: this
/// rank's failure so far (its local sort), which round one's exchange carries to every rank. When every
/// block is empty, the cuts are all 0 and no round is taken.
template <class K, class Ops>
result<splitter_cuts> find_cuts(const context& ctx, std::size_t n, const status& local, Ops& ops) {
  namespace plan = sort_plan;
  using point = plan::keyed_point<K>;
  const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());
  const plan::round_limits limits = plan::limits();
  auto agreed = [&](const status& s, const char* what) { return agree_before(Ops::fallible, ctx, s, what); };
  const point before_all{K{}, 0, 0, plan::place::before_all}, past_all{K{}, 0, 0, plan::place::past_all};
  splitter_cuts out{std::vector<std::size_t>(p), std::vector<std::size_t>(p - 1, 0), 0};

  // Round one: every rank's size, whether it failed, and regular samples of its block, in one allgather of
  // one record per rank (room for the most samples a rank takes: sample_count of any size).
  const record_layout<size_and_failure, K> first{
      plan::sample_count(std::numeric_limits<std::size_t>::max(), p, limits.gather_cap)};
  std::vector<std::byte> all(first.bytes() * p);
  std::vector<std::size_t> positions, order;
  status taken = local;
  {
    std::vector<std::byte> mine(first.bytes());
    if (taken.ok()) plan::append_positions({0, n, std::min(n, first.room)}, positions);
    std::vector<K> samples(positions.size());
    if (taken.ok()) taken = ops.take(positions, samples.data());
    first.put(mine.data(), size_and_failure{n, taken.ok() ? 0u : 1u}, samples.data(), taken.ok() ? samples.size() : 0);
    DTL_TRY(unchecked_allgather(ctx, mine.data(), all.data(), first.bytes()));
  }
  std::size_t first_failed = no_failed_rank;
  for (std::size_t r = 0; r < p; ++r) {
    const size_and_failure h = first.header(all.data() + r * first.bytes());
    out.sizes[r] = h.size;
    if (h.failed != 0 && first_failed == no_failed_rank) first_failed = r;
  }
  DTL_TRY(agree_on_failures(ctx, first_failed, taken, "sort (the local sorts)"));
  const std::vector<std::size_t>& sizes = out.sizes;
  const std::vector<std::size_t> offsets = layout_offsets(sizes);
  if (offsets.back() == 0) return out;
  const std::span<const std::size_t> targets(offsets.data() + 1, p - 1);
  const std::size_t tolerance = plan::tolerance(sizes);

  // Every rank places or brackets each splitter alike (whether it must bracket follows from the sizes).
  std::vector<point> splitters(p - 1, past_all), lo(p - 1), hi(p - 1);
  std::vector<char> open(p - 1, 0);
  {
    const plan::gathered_samples g = plan::describe_samples(plan::whole_blocks(sizes, limits.gather_cap));
    const bool settles = plan::stretch_error(g) <= tolerance;
    std::vector<K> keys(g.refs.size());
    for (std::size_t r = 0; r < p; ++r)
      first.keys(all.data() + r * first.bytes(), keys.data() + g.displs[r], g.counts[r]);
    const status ordered = ops.order(keys, order);
    if (settles) {
      DTL_TRY(ordered);  // the caller agrees on the cuts
    } else {
      DTL_TRY(agreed(ordered, "sort (the splitters)"));
    }
    const plan::round_outcome o = plan::settle(g, order, 0, targets, tolerance, false);
    for (std::size_t j = 0; j + 1 < p; ++j) {
      if (o.settled) {
        if (o.chosen[j].exists) splitters[j] = point_of(keys, g, o.chosen[j].sample, o.chosen[j].position);
      } else {
        lo[j] = point_of(keys, g, o.next[j].lo, before_all);
        hi[j] = point_of(keys, g, o.next[j].hi, past_all);
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
    std::vector<std::size_t> end_cuts(ends.size()), send_counts(p, 0);
    std::vector<bracket_cut> brackets(p, bracket_cut{0, 0});
    status local_cut = ops.cut(ends, end_cuts.data());
    positions.clear();
    for (std::size_t j = 0, e = 0; j + 1 < p && local_cut.ok(); ++j) {
      if (open[j] == 0) continue;
      const std::size_t a = end_cuts[e++], b = std::max(a, end_cuts[e++]);
      brackets[j] = {a, b};
      send_counts[j] = std::min(limits.refine_samples, b - a);
      plan::append_positions({a, b, send_counts[j]}, positions);
    }
    std::vector<K> send(positions.size());
    if (local_cut.ok()) local_cut = ops.take(positions, send.data());
    DTL_TRY(agreed(local_cut, "sort (the refinement samples)"));
    // One record to each owner: where the bracket cuts this rank's block, and samples of what lies between.
    const record_layout<bracket_cut, K> refine{limits.refine_samples};
    std::vector<std::byte> outgoing(refine.bytes() * p), incoming(refine.bytes() * p);
    for (std::size_t j = 0, at = 0; j < p; at += send_counts[j], ++j)
      refine.put(outgoing.data() + j * refine.bytes(), brackets[j], send.data() + at, send_counts[j]);
    DTL_TRY(unchecked_alltoall(ctx, outgoing.data(), incoming.data(), refine.bytes()));
    std::vector<plan::sample_range> ranges(p);
    std::size_t base = 0;  // elements before the bracket
    for (std::size_t q = 0; q < p; ++q) {
      const bracket_cut c = refine.header(incoming.data() + q * refine.bytes());
      ranges[q] = {c.begin, c.end, std::min(limits.refine_samples, c.end - c.begin)};
      base += c.begin;
    }
    const plan::gathered_samples owned = plan::describe_samples(std::move(ranges));
    std::vector<K> owned_keys(owned.refs.size());
    for (std::size_t q = 0; q < p; ++q)
      refine.keys(incoming.data() + q * refine.bytes(), owned_keys.data() + owned.displs[q], owned.counts[q]);
    status local = local_cut;

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
    std::vector<refined_splitter<K>> placed_all(p);
    DTL_TRY(unchecked_allgather(ctx, &placed, placed_all.data(), sizeof placed));
    for (std::size_t j = 0; j + 1 < p; ++j) {
      if (placed_all[j].state == 1) {
        splitters[j] = placed_all[j].lo;
        open[j] = 0;
      } else if (placed_all[j].state == 2) {
        lo[j] = placed_all[j].lo;
        hi[j] = placed_all[j].hi;
      }
    }
  }

  out.rounds = rounds;
  DTL_TRY(ops.cut(splitters, out.cuts.data()));
  return out;
}

}  // namespace dtl::detail
