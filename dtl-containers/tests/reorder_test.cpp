// SPDX-License-Identifier: MIT
// The algorithms that reorder, drop or fold elements across ranks on host placements (run with 1, 2 and 3
// MPI ranks): rotate, unique, count_duplicates, nth_element, partial_sort, the partitions, replace,
// adjacent_difference, accumulate and the iota forms, against a serial reference of the whole input
// (every rank makes the same global input and keeps its block), on even and uneven blocks (ranks without
// elements included), with upstream's local_* forms of one block.
#include "doctest.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace {

const std::vector<std::size_t> sizes{0, 1, 2, 3, 7, 100};

/// The layouts each case runs on: even blocks; all on the last rank; the first rank empty and the others
/// uneven.
std::vector<std::vector<std::size_t>> layouts(std::size_t n, int ranks) {
  const std::size_t p = static_cast<std::size_t>(ranks);
  std::vector<std::vector<std::size_t>> out;
  out.emplace_back();  // even (the constructor's)
  std::vector<std::size_t> last(p, 0);
  last[p - 1] = n;
  out.push_back(last);
  std::vector<std::size_t> skewed(p, 0);
  std::size_t left = n;
  for (std::size_t r = 1; r < p; ++r) {
    skewed[r] = r + 1 < p ? left / 3 : left;
    left -= skewed[r];
  }
  if (p == 1) skewed[0] = n;
  out.push_back(skewed);
  return out;
}

/// A vector holding `global`, in `layout` (empty: even blocks).
template <class T>
dtl::distributed_vector<T> make(const dtl::context& ctx, const std::vector<T>& global,
                                const std::vector<std::size_t>& layout) {
  dtl::distributed_vector<T> v(global.size(), ctx);
  if (!layout.empty()) REQUIRE(v.redistribute(layout).has_value());
  std::copy_n(global.begin() + static_cast<std::ptrdiff_t>(v.global_offset()), v.local_size(), v.local_data());
  return v;
}

/// This rank's block of `global` equals its elements.
template <class T>
void check_block(const dtl::distributed_vector<T>& v, const std::vector<T>& global) {
  REQUIRE(v.global_size() == global.size());
  const auto begin = global.begin() + static_cast<std::ptrdiff_t>(v.global_offset());
  CHECK(std::vector<T>(v.local_data(), v.local_data() + v.local_size()) ==
        std::vector<T>(begin, begin + static_cast<std::ptrdiff_t>(v.local_size())));
}

/// Values with runs of equal neighbours: i / 3 scrambled (a few duplicates everywhere).
std::vector<int> input(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<int>((i / 3 * 7919) % 101) - 50;
  return v;
}

/// f(global input, layout) for every size and layout.
template <class F>
void for_every_shape(const dtl::context& ctx, F f) {
  for (const std::size_t n : sizes)
    for (const auto& layout : layouts(n, ctx.size())) {
      CAPTURE(n);
      CAPTURE(layout);
      f(input(n), layout);
    }
}

}  // namespace

TEST_SUITE("mpi.reorder") {
  TEST_CASE("rotate: left, right, by more than the size and by none, across the blocks") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      for (const long long k : {0LL, 1LL, 2LL, -1LL, -5LL, 13LL, 100LL}) {
        CAPTURE(k);
        auto v = make(ctx, global, layout);
        REQUIRE(dtl::rotate(v, k).has_value());
        std::vector<int> expected = global;
        if (!expected.empty()) {
          const long long m = static_cast<long long>(expected.size());
          std::rotate(expected.begin(), expected.begin() + ((k % m) + m) % m, expected.end());
        }
        check_block(v, expected);
      }
    });
  }
  TEST_CASE("rotate: ranks that pass different positions fail alike; the context's communicator form") {
    const auto ctx = test_support::world();
    auto v = make(ctx, input(10), {});
    if (ctx.size() > 1) {
      const auto r = dtl::rotate(v, ctx.rank());
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error() == dtl::status_code::invalid_argument);
      test_support::same_status_everywhere(ctx, r.error());
      check_block(v, input(10));  // nothing moved
    }
    REQUIRE(dtl::rotate(dtl::seq{}, v, 3, ctx).has_value());
    std::vector<int> expected = input(10);
    std::rotate(expected.begin(), expected.begin() + 3, expected.end());
    check_block(v, expected);
    // Another context's communicator: communication_error on every rank, nothing moved.
    const dtl::context other = ctx.split(0).value();
    CHECK_THROWS_AS((void)dtl::rotate(dtl::seq{}, v, 1, other), dtl::communication_error);
    check_block(v, expected);
  }
  TEST_CASE("unique: drops consecutive duplicates across rank boundaries; the kept ones in even blocks") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      auto v = make(ctx, global, layout);
      std::vector<int> expected = global;
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      CHECK(dtl::count_duplicates(v) == global.size() - expected.size());
      CHECK(dtl::count_duplicates(dtl::seq{}, v, std::equal_to<>{}, ctx) == global.size() - expected.size());
      CHECK(dtl::has_duplicates(v) == (global.size() != expected.size()));
      const auto r = dtl::unique(v);
      REQUIRE(r.has_value());
      CHECK(r->new_size == expected.size());
      CHECK(r->removed_count == global.size() - expected.size());
      check_block(v, expected);
      dtl::distributed_vector<int> even(expected.size(), ctx);
      CHECK(v.local_size() == even.local_size());
    });
  }
  TEST_CASE("unique with a predicate, and one whose predicate throws on one rank") {
    const auto ctx = test_support::world();
    std::vector<int> global(30);
    std::iota(global.begin(), global.end(), 0);  // |a - b| <= 1 joins every neighbour: one element left
    auto v = make(ctx, global, {});
    const auto near = [](int a, int b) { return b - a <= 1; };
    REQUIRE(dtl::unique(v, near).has_value());
    check_block(v, std::vector<int>{0});
    auto w = make(ctx, global, {});
    const int thrower = ctx.size() - 1;
    const auto throws_on_one_rank = [&](int a, int b) {
      if (ctx.rank() == thrower) throw std::runtime_error("predicate failed");
      return a == b;
    };
    if (ctx.size() == 1) {
      CHECK_THROWS_AS((void)dtl::unique(w, throws_on_one_rank), std::runtime_error);
    } else if (ctx.rank() == thrower) {
      CHECK_THROWS_AS((void)dtl::unique(w, throws_on_one_rank), std::runtime_error);
    } else {
      const auto r = dtl::unique(w, throws_on_one_rank);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error() == dtl::status_code::collective_failure);
    }
    test_support::still_in_step(ctx);
    CHECK(w.global_size() == global.size());
  }
  TEST_CASE("nth_element and median: the sorted element on every rank, the order around it") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      std::vector<int> sorted = global;
      std::sort(sorted.begin(), sorted.end());
      for (const dtl::index_t n :
           {dtl::index_t{-1}, dtl::index_t{0}, static_cast<dtl::index_t>(global.size() / 2),
            static_cast<dtl::index_t>(global.size()) - 1, static_cast<dtl::index_t>(global.size())}) {
        CAPTURE(n);
        auto v = make(ctx, global, layout);
        const auto r = dtl::nth_element(v, n);
        if (n < 0 || static_cast<std::size_t>(n) >= global.size()) {
          CHECK_FALSE(r.valid);
          check_block(v, global);  // left as it was
          continue;
        }
        REQUIRE(r.valid);
        CHECK(r.value == sorted[static_cast<std::size_t>(n)]);
        CHECK(r.global_index == n);
        CHECK(r.owner_rank == v.partition().owner(static_cast<std::size_t>(n)).value());
        const std::size_t b = v.global_offset();
        for (std::size_t i = 0; i < v.local_size(); ++i)
          CHECK((b + i < static_cast<std::size_t>(n) ? v.local_data()[i] <= r.value : v.local_data()[i] >= r.value));
      }
      if (!global.empty()) {
        auto v = make(ctx, global, layout);
        CHECK(dtl::median(v).value == sorted[global.size() / 2]);
      }
    });
  }
  TEST_CASE("partial_sort: the k smallest first, in order, with std::greater too") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      for (const std::size_t k : {std::size_t{0}, std::size_t{1}, global.size() / 2, global.size()}) {
        auto v = make(ctx, global, layout);
        REQUIRE(dtl::partial_sort(dtl::seq{}, v, k, std::greater<>{}, ctx).has_value());
        std::vector<int> expected = global;
        std::sort(expected.begin(), expected.end(), std::greater<>{});
        const std::size_t b = v.global_offset();
        for (std::size_t i = 0; i < v.local_size(); ++i)
          if (b + i < k) CHECK(v.local_data()[i] == expected[b + i]);
      }
    });
  }
  TEST_CASE("partial_sort_copy, top_k and bottom_k into a vector of another size and layout") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      std::vector<int> ascending = global, descending = global;
      std::sort(ascending.begin(), ascending.end());
      std::sort(descending.begin(), descending.end(), std::greater<>{});
      const auto in = make(ctx, global, layout);
      for (const std::size_t m : {std::size_t{0}, std::size_t{1}, global.size() / 2 + 1, global.size() + 4}) {
        CAPTURE(m);
        const std::size_t written = std::min(m, global.size());
        auto prefix_of = [&](const std::vector<int>& order) {
          std::vector<int> expected(m, -999);
          std::copy_n(order.begin(), written, expected.begin());
          return expected;
        };
        auto out = make(ctx, std::vector<int>(m, -999), std::vector<std::size_t>{});
        REQUIRE(dtl::partial_sort_copy(in, out).has_value());
        check_block(out, prefix_of(ascending));
        auto top = make(ctx, std::vector<int>(m, -999), std::vector<std::size_t>{});
        REQUIRE(dtl::top_k(dtl::seq{}, in, top, m).has_value());
        check_block(top, prefix_of(descending));
        auto bottom = make(ctx, std::vector<int>(m, -999), std::vector<std::size_t>{});
        REQUIRE(dtl::bottom_k(dtl::seq{}, in, bottom, m).has_value());
        check_block(bottom, prefix_of(ascending));
      }
      check_block(in, global);  // unchanged
    });
  }
  TEST_CASE("unique_copy: out resized to the kept elements, in unchanged") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      std::vector<int> expected = global;
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      const auto in = make(ctx, global, layout);
      dtl::distributed_vector<int> out(3, ctx);
      const auto r = dtl::unique_copy(in, out);
      REQUIRE(r.has_value());
      CHECK(r->new_size == expected.size());
      check_block(out, expected);
      check_block(in, global);
    });
  }
  TEST_CASE("partitions: stable over every rank, the counts, is_partitioned across rank boundaries") {
    const auto ctx = test_support::world();
    const auto even = [](int x) { return x % 2 == 0; };
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      std::vector<int> expected = global;
      std::stable_partition(expected.begin(), expected.end(), even);
      const auto trues = static_cast<std::size_t>(std::count_if(global.begin(), global.end(), even));
      auto v = make(ctx, global, layout);
      CHECK(dtl::partition_count(v, even) == trues);
      CHECK(dtl::is_partitioned(v, even) == std::is_partitioned(global.begin(), global.end(), even));
      const dtl::partition_result r = dtl::partition_elements(v, even);
      CHECK(r.global_true_count == trues);
      CHECK_FALSE(r.has_global);
      check_block(v, expected);
      const std::size_t b = v.global_offset();
      CHECK(r.local_true_count == (trues <= b ? 0 : std::min(trues, b + v.local_size()) - b));
      CHECK(dtl::is_partitioned(v, even));
      auto w = make(ctx, global, layout);
      CHECK(dtl::partition(w, even) == static_cast<dtl::index_t>(trues));
      check_block(w, expected);
      auto u = make(ctx, global, layout);
      CHECK(dtl::partition_elements(dtl::seq{}, u, even, ctx).has_global);
    });
  }
  TEST_CASE("replace and its kin: the count over every rank") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      const auto negative = [](int x) { return x < 0; };
      std::vector<int> expected = global;
      std::replace(expected.begin(), expected.end(), 0, 42);
      const auto zeros = static_cast<std::size_t>(std::count(global.begin(), global.end(), 0));
      auto v = make(ctx, global, layout);
      CHECK(dtl::replace(dtl::seq{}, v, 0, 42, ctx).value().count == zeros);
      check_block(v, expected);
      auto in = make(ctx, global, layout);
      auto out = make(ctx, std::vector<int>(global.size(), 0), layout);
      const auto negatives = static_cast<std::size_t>(std::count_if(global.begin(), global.end(), negative));
      CHECK(dtl::replace_copy_if(in, out, negative, 7).value().count == negatives);
      std::vector<int> copied = global;
      std::replace_if(copied.begin(), copied.end(), negative, 7);
      check_block(out, copied);
      check_block(in, global);
      CHECK(dtl::replace_if(in, negative, 7).value().count == negatives);
      check_block(in, copied);
      CHECK(dtl::replace_copy(in, out, 7, 0).value().count == negatives);
    });
  }
  TEST_CASE("adjacent_difference: rank boundaries included, in place too") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      std::vector<int> expected(global.size());
      std::adjacent_difference(global.begin(), global.end(), expected.begin());
      auto in = make(ctx, global, layout);
      auto out = make(ctx, std::vector<int>(global.size(), 0), layout);
      const auto r = dtl::adjacent_difference(in, out);
      REQUIRE(r.has_value());
      CHECK(r->count == global.size());
      check_block(out, expected);
      REQUIRE(dtl::adjacent_difference(dtl::par{}, in, in, std::plus<>{}).has_value());
      std::adjacent_difference(global.begin(), global.end(), expected.begin(), std::plus<>{});
      check_block(in, expected);
    });
  }
  TEST_CASE("accumulate: an ordered left fold with a non-associative operator") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      const auto v = make(ctx, global, layout);
      // Not associative: the order of the fold shows.
      const auto op = [](long long acc, int x) { return acc * 3 % 1000003 + x; };
      CHECK(dtl::accumulate(v, 5LL, op) == std::accumulate(global.begin(), global.end(), 5LL, op));
      CHECK(dtl::accumulate(dtl::seq{}, v, 0LL, ctx) == std::accumulate(global.begin(), global.end(), 0LL));
      CHECK(dtl::local_accumulate(v, 0) == std::accumulate(v.local_data(), v.local_data() + v.local_size(), 0));
    });
  }
  TEST_CASE("accumulate whose operator throws on one rank: a status on every rank") {
    const auto ctx = test_support::world();
    const auto v = make(ctx, input(12), {});
    const int thrower = ctx.size() - 1;
    const auto op = [&](int acc, int x) {
      if (ctx.rank() == thrower) throw std::runtime_error("operator failed");
      return acc + x;
    };
    const auto r = dtl::try_accumulate(v, 0, op);
    REQUIRE_FALSE(r.has_value());
    if (ctx.rank() != thrower) CHECK(r.error() == dtl::status_code::collective_failure);
    test_support::still_in_step(ctx);
  }
  TEST_CASE("distributed_iota, iota_step and local_iota") {
    const auto ctx = test_support::world();
    for_every_shape(ctx, [&](const std::vector<int>& global, const auto& layout) {
      auto v = make(ctx, global, layout);
      std::vector<int> expected(global.size());
      std::iota(expected.begin(), expected.end(), -3);
      REQUIRE(dtl::distributed_iota(v, -3).has_value());
      check_block(v, expected);
      REQUIRE(dtl::iota_step(v, 10, -2).has_value());
      for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = 10 - 2 * static_cast<int>(i);
      check_block(v, expected);
      CHECK(dtl::local_iota(v, 5) == v.local_size());
      for (std::size_t i = 0; i < v.local_size(); ++i) CHECK(v.local_data()[i] == 5 + static_cast<int>(i));
    });
  }
  TEST_CASE("the async_* forms: the same results through a distributed_future") {
    const auto ctx = test_support::world();
    const std::vector<int> global = input(40);
    std::vector<int> sorted = global;
    std::sort(sorted.begin(), sorted.end());
    auto v = make(ctx, global, {});
    CHECK(dtl::async_accumulate(v, 0, std::plus<>{}).get() == std::accumulate(global.begin(), global.end(), 0));
    CHECK(dtl::async_nth_element(v, 7).get().value == sorted[7]);
    auto w = make(ctx, global, {});
    dtl::async_partial_sort(w, 5).get();
    check_block(w, sorted);
    const auto kept = dtl::async_unique(w).get();
    std::vector<int> unique_sorted = sorted;
    unique_sorted.erase(std::unique(unique_sorted.begin(), unique_sorted.end()), unique_sorted.end());
    CHECK(kept.new_size == unique_sorted.size());
    check_block(w, unique_sorted);
    auto u = make(ctx, global, {});
    const auto zeros = static_cast<std::size_t>(std::count(global.begin(), global.end(), 0));
    CHECK(dtl::async_replace(u, 0, 1).get().count == zeros);
    CHECK(dtl::async_replace_if(
              u, [](int x) { return x == 1; }, 2)
              .get()
              .count >= zeros);
    const auto odd = [](int x) { return x % 2 != 0; };
    CHECK(dtl::async_partition_elements(u, odd).get().global_true_count ==
          static_cast<std::size_t>(std::count_if(global.begin(), global.end(), odd)));
    dtl::async_distributed_iota(u, 0).get();
    auto diff = make(ctx, std::vector<int>(40, 0), {});
    CHECK(dtl::async_adjacent_difference(u, diff).get().count == 40);
    check_block(diff, std::vector<int>{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    dtl::async_local_rotate(u, 1).get();
    // A failure fails the future: ranks asking for different indices (one of them out of range).
    if (ctx.size() > 1) CHECK_THROWS_AS(dtl::async_nth_element(u, ctx.rank() == 0 ? 0 : -1).get(), dtl::status_error);
  }
  TEST_CASE("the local_* forms work on this rank's block alone") {
    const auto ctx = test_support::world();
    auto v = make(ctx, input(30), {});
    std::vector<int> block(v.local_data(), v.local_data() + v.local_size());
    REQUIRE(dtl::local_rotate(v, 2).has_value());
    if (!block.empty())
      std::rotate(block.begin(), block.begin() + static_cast<std::ptrdiff_t>(2 % block.size()), block.end());
    CHECK(std::vector<int>(v.local_data(), v.local_data() + v.local_size()) == block);
    CHECK(dtl::local_shift_left(v, 3, -1) == (block.size() > 3 ? block.size() - 3 : 0));
    CHECK(dtl::local_shift_right(v, 1, 9) == (block.empty() ? 0 : block.size() - 1));
    if (!block.empty()) CHECK(v.local_data()[0] == 9);
    dtl::local_partial_sort(v, 2);
    dtl::local_nth_element(v, 0);
    const int smallest = block.empty() ? 0 : *std::min_element(v.local_data(), v.local_data() + v.local_size());
    if (!block.empty()) CHECK(v.local_data()[0] == smallest);
    CHECK(dtl::local_replace(v, smallest, 1000) >= (block.empty() ? 0u : 1u));
    CHECK(dtl::local_replace_if(
              v, [](int x) { return x == 1000; }, 0) >= (block.empty() ? 0u : 1u));
    std::sort(v.local_data(), v.local_data() + v.local_size());
    std::vector<int> sorted(v.local_data(), v.local_data() + v.local_size());
    const auto removed = static_cast<std::size_t>(sorted.end() - std::unique(sorted.begin(), sorted.end()));
    CHECK(dtl::local_unique(v) == removed);
  }
}
