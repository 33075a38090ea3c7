// SPDX-License-Identifier: MIT
// The sort's splitter arithmetic (algorithms/detail/sort_plan.hpp) without communication: its pieces,
// and its rounds run over simulated ranks (every rank's sorted block in one process, each collective of
// sort_rounds.hpp done by hand) at up to a thousand ranks, against the bound the one-round sort keeps.
#include "doctest.hpp"

#include <dtl/containers/algorithms/detail/sort_plan.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

namespace plan = dtl::detail::sort_plan;
using block = std::vector<std::uint32_t>;

/// Where a point cuts block q (sort_rounds' Ops::cut on the host).
std::size_t cut_in(const std::vector<block>& blocks, std::size_t q, const plan::keyed_point<std::uint32_t>& at) {
  const block& b = blocks[q];
  if (at.where != plan::place::at_key) return at.where == plan::place::before_all ? 0 : b.size();
  const auto lower = static_cast<std::size_t>(std::lower_bound(b.begin(), b.end(), at.key) - b.begin());
  const auto upper = static_cast<std::size_t>(std::upper_bound(b.begin(), b.end(), at.key) - b.begin());
  return plan::cut_of(q, at.rank, at.position, lower, upper);
}

/// Global index of a point: the elements of every block before it.
std::size_t global_cut(const std::vector<block>& blocks, const plan::keyed_point<std::uint32_t>& at) {
  std::size_t total = 0;
  for (std::size_t q = 0; q < blocks.size(); ++q) total += cut_in(blocks, q, at);
  return total;
}

/// The keys of a round's samples (in rank order) and their stable order.
struct keyed_samples {
  plan::gathered_samples g;
  std::vector<std::uint32_t> keys;
  std::vector<std::size_t> order;
};
keyed_samples take(const std::vector<block>& blocks, std::vector<plan::sample_range> ranges) {
  keyed_samples s{plan::describe_samples(std::move(ranges)), {}, {}};
  for (const plan::sample_ref& ref : s.g.refs) s.keys.push_back(blocks[ref.rank][ref.position]);
  s.order.resize(s.keys.size());
  std::iota(s.order.begin(), s.order.end(), std::size_t{0});
  std::stable_sort(s.order.begin(), s.order.end(), [&](std::size_t a, std::size_t b) { return s.keys[a] < s.keys[b]; });
  return s;
}
plan::keyed_point<std::uint32_t> point_of(const keyed_samples& s, std::size_t i, std::size_t position) {
  return {s.keys[i], s.g.refs[i].rank, position, plan::place::at_key};
}
plan::keyed_point<std::uint32_t> point_of(const keyed_samples& s, std::size_t i,
                                          const plan::keyed_point<std::uint32_t>& none) {
  return i == plan::no_sample ? none : point_of(s, i, s.g.refs[i].position);
}

/// The splitters of the blocks (sorted), as sort_rounds.hpp finds them, and what it took.
struct found {
  std::vector<plan::keyed_point<std::uint32_t>> splitters;
  std::size_t rounds = 1, gathered = 0, most_received = 0;
};
found find_splitters(const std::vector<block>& blocks, plan::round_limits limits) {
  using point = plan::keyed_point<std::uint32_t>;
  const std::size_t p = blocks.size();
  std::vector<std::size_t> sizes;
  for (const block& b : blocks) sizes.push_back(b.size());
  std::vector<std::size_t> offsets(p + 1, 0);
  std::partial_sum(sizes.begin(), sizes.end(), offsets.begin() + 1);
  const std::span<const std::size_t> targets(offsets.data() + 1, p - 1);
  const std::size_t tolerance = plan::tolerance(sizes);
  const point before_all{0, 0, 0, plan::place::before_all}, past_all{0, 0, 0, plan::place::past_all};
  found out{std::vector<point>(p - 1, past_all)};
  std::vector<point> lo(p - 1), hi(p - 1);
  std::vector<char> open(p - 1, 0);

  const keyed_samples first = take(blocks, plan::whole_blocks(sizes, limits.gather_cap));
  out.gathered = first.keys.size();
  const plan::round_outcome o = plan::settle(first.g, first.order, 0, targets, tolerance, false);
  for (std::size_t j = 0; j + 1 < p; ++j) {
    if (o.settled) {
      if (o.chosen[j].exists) out.splitters[j] = point_of(first, o.chosen[j].sample, o.chosen[j].position);
    } else {
      lo[j] = point_of(first, o.next[j].lo, before_all);
      hi[j] = point_of(first, o.next[j].hi, past_all);
      open[j] = 1;
    }
  }
  while (std::find(open.begin(), open.end(), 1) != open.end()) {
    ++out.rounds;
    REQUIRE(out.rounds <= plan::max_refinements + 1);
    for (std::size_t j = 0; j + 1 < p; ++j) {
      if (open[j] == 0) continue;
      std::vector<plan::sample_range> ranges(p);
      std::size_t base = 0;
      for (std::size_t q = 0; q < p; ++q) {
        const std::size_t a = cut_in(blocks, q, lo[j]), b = std::max(a, cut_in(blocks, q, hi[j]));
        ranges[q] = {a, b, std::min(limits.refine_samples, b - a)};
        base += a;
      }
      const keyed_samples s = take(blocks, std::move(ranges));
      out.most_received = std::max(out.most_received, s.keys.size());
      const plan::round_outcome r =
          plan::settle(s.g, s.order, base, targets.subspan(j, 1), tolerance, out.rounds > plan::max_refinements);
      if (r.settled) {
        out.splitters[j] = r.chosen[0].exists ? point_of(s, r.chosen[0].sample, r.chosen[0].position) : hi[j];
        open[j] = 0;
      } else {
        lo[j] = point_of(s, r.next[0].lo, lo[j]);
        hi[j] = point_of(s, r.next[0].hi, hi[j]);
      }
    }
  }
  return out;
}

/// Every splitter within the one-round bound of its target (exactly on it where every key is equal),
/// and the rounds' samples within their budgets. Returns what it found.
found check_splitters(const std::vector<block>& blocks, plan::round_limits limits, bool all_equal = false) {
  const std::size_t p = blocks.size();
  std::vector<std::size_t> sizes;
  for (const block& b : blocks) sizes.push_back(b.size());
  const std::size_t tolerance = plan::tolerance(sizes);
  const found f = find_splitters(blocks, limits);
  std::size_t target = 0, previous = 0;
  for (std::size_t j = 0; j + 1 < p; ++j) {
    target += sizes[j];
    const std::size_t at = global_cut(blocks, f.splitters[j]);
    CAPTURE(j);
    CAPTURE(target);
    CAPTURE(at);
    CHECK(at + tolerance + 1 >= target);
    CHECK(at <= target + tolerance + 1);
    if (all_equal) CHECK(at == target);
    CHECK(at >= previous);  // buckets in order
    previous = at;
  }
  CHECK(f.gathered <= std::max(limits.gather_cap, p));
  CHECK(f.most_received <= limits.refine_samples * p);
  return f;
}

std::vector<block> make_blocks(std::vector<std::size_t> sizes, unsigned seed, std::uint32_t distinct, bool skewed) {
  std::mt19937 gen(seed);
  std::vector<block> blocks;
  for (const std::size_t n : sizes) {
    block b(n);
    for (auto& x : b) {
      const std::uint32_t r = static_cast<std::uint32_t>(gen() % distinct);
      x = skewed ? r % 16 == 0 ? r : r % 7 : r;  // skewed: most keys among 7 values
    }
    std::sort(b.begin(), b.end());
    blocks.push_back(std::move(b));
  }
  return blocks;
}

}  // namespace

TEST_SUITE("sort_plan") {
  TEST_CASE("round one takes 32 samples per rank per rank up to 16 ranks, then gather_cap in all") {
    const std::size_t cap = plan::default_limits.gather_cap;
    CHECK(plan::sample_count(1000000, 2, cap) == 64);
    CHECK(plan::sample_count(1000000, 16, cap) == 512);
    CHECK(plan::sample_count(1000000, 32, cap) == 256);
    CHECK(plan::sample_count(1000000, 64, cap) == 128);
    CHECK(plan::sample_count(1000000, 1024, cap) == 8);
    CHECK(plan::sample_count(1000000, 100000, cap) == 1);  // at least one
    CHECK(plan::sample_count(5, 1024, cap) == 5);          // at most every element
    const std::vector<std::size_t> sizes{1000, 0, 64, 65};
    CHECK(plan::tolerance(sizes) == 8 - 1);  // 128 samples a rank: stretches of 8 (1000), 1 (64 and 65)
  }

  TEST_CASE("choose_splitters: all-equal keys start each bucket exactly at its rank, from any base") {
    std::vector<block> blocks{block(100, 5), block(37, 5), block(0), block(250, 5)};
    std::vector<std::size_t> sizes{100, 37, 0, 250};
    const keyed_samples s = take(blocks, plan::whole_blocks(sizes, 3));  // one sample a rank
    const std::vector<std::size_t> targets{100, 137, 137};
    const auto chosen = plan::choose_splitters(s.g, s.order, 0, targets);
    for (std::size_t j = 0; j < 3; ++j)
      CHECK(global_cut(blocks, point_of(s, chosen[j].sample, chosen[j].position)) == targets[j]);
    // The same ranges known to start 40 elements on: the targets shift with them.
    std::vector<plan::sample_range> later{{40, 100, 3}, {0, 37, 2}, {0, 0, 0}, {0, 250, 5}};
    const keyed_samples t = take(blocks, later);
    const auto shifted = plan::choose_splitters(t.g, t.order, 40, std::vector<std::size_t>{100, 137});
    CHECK(global_cut(blocks, point_of(t, shifted[0].sample, shifted[0].position)) == 100);
    CHECK(global_cut(blocks, point_of(t, shifted[1].sample, shifted[1].position)) == 137);
  }

  TEST_CASE("brackets hold their targets between their ends, and narrow them to a few stretches") {
    for (const bool skewed : {false, true}) {
      const std::vector<block> blocks = make_blocks({5000, 3000, 0, 7000, 1, 4000}, 3, 1000, skewed);
      std::vector<std::size_t> sizes;
      for (const block& b : blocks) sizes.push_back(b.size());
      const keyed_samples s = take(blocks, plan::whole_blocks(sizes, 60));  // 10 a rank: stretches of 700
      std::vector<std::size_t> targets;
      for (std::size_t t = 0; t <= 19001; t += 211) targets.push_back(t);
      const auto b = plan::brackets(s.g, s.order, targets);
      const plan::keyed_point<std::uint32_t> before_all{0, 0, 0, plan::place::before_all},
          past_all{0, 0, 0, plan::place::past_all};
      for (std::size_t j = 0; j < targets.size(); ++j) {
        const std::size_t lo = global_cut(blocks, point_of(s, b[j].lo, before_all));
        const std::size_t hi = global_cut(blocks, point_of(s, b[j].hi, past_all));
        CAPTURE(targets[j]);
        CHECK(lo <= targets[j]);
        CHECK(targets[j] <= hi);
        CHECK(hi - lo <= 6 * plan::stretch_error(s.g) + 4 * 700);
      }
    }
  }

  TEST_CASE("up to 16 ranks the plan is the one-round sort") {
    for (const std::size_t p : {2, 3, 11, 16}) {
      CAPTURE(p);
      const found f =
          check_splitters(make_blocks(std::vector<std::size_t>(p, 5000), 7, 1u << 30, false), plan::default_limits);
      CHECK(f.rounds == 1);
    }
  }

  TEST_CASE("refinement rounds: random, skewed, few distinct and all-equal keys, uneven and empty ranks") {
    for (const plan::round_limits limits :
         {plan::round_limits{1, 8}, plan::round_limits{4, 16}, plan::default_limits}) {
      for (const std::size_t p : {2, 3, 5, 64, 200}) {
        CAPTURE(p);
        CAPTURE(limits.gather_cap);
        std::vector<std::size_t> sizes(p);
        for (std::size_t q = 0; q < p; ++q) sizes[q] = q % 5 == 3 ? 0 : q % 3 == 1 ? 4000 : 2500 + 13 * q;
        for (const bool skewed : {false, true}) {
          const found f = check_splitters(make_blocks(sizes, static_cast<unsigned>(p), 1u << 30, skewed), limits);
          if (limits.gather_cap < 32 * p * p) CHECK(f.rounds > 1);
        }
        check_splitters(make_blocks(sizes, 1, 3, false), limits);                      // few distinct keys
        check_splitters(make_blocks(sizes, 1, 1, false), limits, /*all_equal=*/true);  // one key
      }
    }
  }

  TEST_CASE("more ranks than elements, and tiny blocks") {
    for (const plan::round_limits limits : {plan::round_limits{1, 8}, plan::default_limits}) {
      std::vector<std::size_t> sizes(300, 0);
      for (std::size_t q = 0; q < 300; q += 7) sizes[q] = 1;
      check_splitters(make_blocks(sizes, 2, 50, false), limits);
      check_splitters(make_blocks(sizes, 2, 1, false), limits, true);
      check_splitters(make_blocks(std::vector<std::size_t>(100, 3), 4, 10, false), limits);
    }
  }

  TEST_CASE("a thousand ranks: round one gathers 32 768 samples, not 32 per rank per rank, within the bound") {
    // 1024 ranks of 256 random keys, and 256 of 2048 skewed ones (every owner's work runs here, in turn).
    for (const std::size_t p : {std::size_t{1024}, std::size_t{256}}) {
      const found f = check_splitters(
          make_blocks(std::vector<std::size_t>(p, p == 256 ? 2048 : 256), 9, 1u << 30, p == 256), plan::default_limits);
      CHECK(f.gathered == plan::default_limits.gather_cap);
      CHECK(f.rounds >= 2);
      CHECK(f.rounds <= 4);
      MESSAGE(p << " ranks: " << f.rounds << " rounds, at most " << f.most_received << " samples at an owner");
    }
  }
}
