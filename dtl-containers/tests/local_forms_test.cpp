// SPDX-License-Identifier: MIT
// Upstream DTL's forms that name a call's scope, on host placements (run with 1, 2 and 3 MPI ranks):
// the local_* forms of one rank's block against the standard algorithm on that block; the namespaces
// dtl::algorithms::local / collective / distributed; sort and stable_sort with a communicator last;
// partial_sum, the transform scans, sum_of_squares and sum_of_abs, and the async_count / all_of / fill /
// copy forms, against a serial reference of the whole input (every rank makes the same global input and
// keeps its block).
#include "doctest.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <vector>

namespace {

/// Values with repeats and both signs.
std::vector<int> input(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<int>((i * 7919) % 23) - 11;
  return v;
}

/// A vector holding `global` in even blocks.
dtl::distributed_vector<int> make(const dtl::context& ctx, const std::vector<int>& global) {
  dtl::distributed_vector<int> v(global.size(), ctx);
  std::copy_n(global.begin() + static_cast<std::ptrdiff_t>(v.global_offset()), v.local_size(), v.local_data());
  return v;
}

std::vector<int> block_of(const dtl::distributed_vector<int>& v) {
  return {v.local_data(), v.local_data() + v.local_size()};
}

/// This rank's part of `global`.
std::vector<int> part_of(const std::vector<int>& global, const dtl::distributed_vector<int>& v) {
  const auto first = global.begin() + static_cast<std::ptrdiff_t>(v.global_offset());
  return {first, first + static_cast<std::ptrdiff_t>(v.local_size())};
}

/// A communicator of another type than ours (upstream's tests pass such a stand-in): rank and size only
/// are compared with the vector's context.
struct stand_in_communicator {
  using size_type = dtl::size_type;
  dtl::rank_t my_rank = 0;
  dtl::rank_t ranks = 1;
  [[nodiscard]] dtl::rank_t rank() const noexcept { return my_rank; }
  [[nodiscard]] dtl::rank_t size() const noexcept { return ranks; }
  void send(const void*, size_type, dtl::rank_t, int) {}
  void recv(void*, size_type, dtl::rank_t, int) {}
  dtl::request_handle isend(const void*, size_type, dtl::rank_t, int) { return {}; }
  dtl::request_handle irecv(void*, size_type, dtl::rank_t, int) { return {}; }
  void wait(dtl::request_handle&) {}
  bool test(dtl::request_handle&) { return true; }
};
static_assert(dtl::Communicator<stand_in_communicator>);

const std::vector<std::size_t> sizes{0, 1, 5, 31};

}  // namespace

TEST_SUITE("mpi.local_forms") {
  TEST_CASE("searches, counts and predicates of one block") {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      auto v = make(ctx, input(n));
      const std::vector<int> b = block_of(v);
      const int* first = v.local_data();
      const auto at = [&](auto it) { return static_cast<std::ptrdiff_t>(it - b.begin()); };
      CHECK(dtl::local_find(v, 3) - first == at(std::find(b.begin(), b.end(), 3)));
      CHECK(dtl::local_find(v, 1000) == first + v.local_size());
      const auto positive = [](int x) { return x > 0; };
      CHECK(dtl::local_find_if(v, positive) - first == at(std::find_if(b.begin(), b.end(), positive)));
      CHECK(dtl::local_find_if_not(v, positive) - first == at(std::find_if_not(b.begin(), b.end(), positive)));
      CHECK(dtl::local_count(v, -11) == static_cast<std::size_t>(std::count(b.begin(), b.end(), -11)));
      CHECK(dtl::local_count_if(v, positive) == static_cast<std::size_t>(std::count_if(b.begin(), b.end(), positive)));
      CHECK(dtl::local_all_of(v, positive) == std::all_of(b.begin(), b.end(), positive));
      CHECK(dtl::local_any_of(v, positive) == std::any_of(b.begin(), b.end(), positive));
      CHECK(dtl::local_none_of(v, positive) == std::none_of(b.begin(), b.end(), positive));
      CHECK(dtl::algorithms::local::count(v, -11) == dtl::local_count(v, -11));
      CHECK(dtl::algorithms::local::find(v, 3) == dtl::local_find(v, 3));
    }
  }

  TEST_CASE("folds, extremes and scans of one block") {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      auto v = make(ctx, input(n));
      const std::vector<int> b = block_of(v);
      CHECK(dtl::local_sum(v) == std::accumulate(b.begin(), b.end(), 0));
      // The product in double: 31 ints of up to 11 overflow int.
      dtl::distributed_vector<double> d(n, ctx);
      std::copy(b.begin(), b.end(), d.local_data());
      CHECK(dtl::local_product(d) == std::accumulate(b.begin(), b.end(), 1.0, std::multiplies<>{}));
      const auto square = [](int x) { return x * x; };
      CHECK(dtl::local_transform_reduce(v, 5, std::plus<>{}, square) ==
            std::transform_reduce(b.begin(), b.end(), 5, std::plus<>{}, square));
      CHECK(dtl::algorithms::local::reduce(v, 0, std::plus<>{}) == std::accumulate(b.begin(), b.end(), 0));
      const auto lo = dtl::local_min_element(v);
      const auto hi = dtl::local_max_element(v);
      REQUIRE(lo.valid == !b.empty());
      REQUIRE(hi.valid == !b.empty());
      if (!b.empty()) {
        const auto min_at = std::min_element(b.begin(), b.end());
        CHECK(lo.value == *min_at);
        CHECK(lo.global_index == static_cast<std::ptrdiff_t>(v.global_offset()) + (min_at - b.begin()));
        CHECK(lo.owner_rank == ctx.rank());
        CHECK(hi.value == *std::max_element(b.begin(), b.end()));
        CHECK(dtl::local_min(v) == lo.value);
        CHECK(dtl::local_max(v) == hi.value);
      }
      dtl::distributed_vector<int> out(n, ctx);
      dtl::local_inclusive_scan(v, out, 2, std::plus<>{});
      std::vector<int> expected(b.size());
      std::inclusive_scan(b.begin(), b.end(), expected.begin(), std::plus<>{}, 2);
      CHECK(block_of(out) == expected);
      dtl::algorithms::local::exclusive_scan(v, out, 2, std::plus<>{});
      std::exclusive_scan(b.begin(), b.end(), expected.begin(), 2);
      CHECK(block_of(out) == expected);
      dtl::local_exclusive_scan(v, v, 0, std::plus<>{});  // in place
      std::exclusive_scan(b.begin(), b.end(), expected.begin(), 0);
      CHECK(block_of(v) == expected);
    }
  }

  TEST_CASE("sorts and writes of one block") {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      auto v = make(ctx, input(n));
      std::vector<int> b = block_of(v);
      dtl::local_sort(v, std::greater<>{});
      std::sort(b.begin(), b.end(), std::greater<>{});
      CHECK(block_of(v) == b);
      CHECK(dtl::local_is_sorted(v, std::greater<>{}));
      CHECK(dtl::local_is_sorted(v) == std::is_sorted(b.begin(), b.end()));
      dtl::local_stable_sort(dtl::par{}, v);
      std::stable_sort(b.begin(), b.end());
      CHECK(block_of(v) == b);
      CHECK(dtl::local_transform(v, [](int x) { return x + 1; }) == v.local_data() + v.local_size());
      for (int& x : b) ++x;
      CHECK(block_of(v) == b);
      dtl::distributed_vector<int> out(n, ctx);
      CHECK(dtl::local_copy(v, out) == v.local_size());
      CHECK(block_of(out) == b);
      CHECK(dtl::local_fill(out, 7) == out.local_size());
      CHECK(block_of(out) == std::vector<int>(out.local_size(), 7));
      CHECK(v.structural_metadata_consistent());
    }
  }

  TEST_CASE("sort and stable_sort with a communicator last give what this rank moved") {
    const auto ctx = test_support::world();
    std::vector<int> global = input(40);
    auto v = make(ctx, global);
    const dtl::distributed_sort_result moved = dtl::sort(dtl::seq{}, v, std::less<>{}, ctx);
    CHECK(moved.success);
    std::sort(global.begin(), global.end());
    CHECK(block_of(v) == part_of(global, v));
    CHECK(v.structural_metadata_consistent());
    if (ctx.size() == 1) CHECK(moved.elements_sent == 0);
    const auto sent = ctx.allreduce_value(static_cast<unsigned long long>(moved.elements_sent), dtl::reduce_op::sum);
    const auto received =
        ctx.allreduce_value(static_cast<unsigned long long>(moved.elements_received), dtl::reduce_op::sum);
    CHECK(sent.value() == received.value());
    // A stand-in communicator with this context's rank and size is accepted.
    const stand_in_communicator same{ctx.rank(), ctx.size()};
    CHECK(dtl::stable_sort(dtl::par{}, v, std::greater<>{}, same).success);
    std::sort(global.begin(), global.end(), std::greater<>{});
    CHECK(block_of(v) == part_of(global, v));
    // One of another size: communication_error on every rank, nothing moved.
    const stand_in_communicator other{0, ctx.size() + 1};
    CHECK_THROWS_AS((void)dtl::sort(dtl::seq{}, v, std::less<>{}, other), dtl::communication_error);
    CHECK(block_of(v) == part_of(global, v));
    // The rotate / unique forms take the stand-in too.
    REQUIRE(dtl::rotate(dtl::seq{}, v, 1, same).has_value());
    std::rotate(global.begin(), global.begin() + 1, global.end());
    CHECK(block_of(v) == part_of(global, v));
  }

  TEST_CASE("the collective and distributed namespaces, partial_sum, transform scans and the sum patterns") {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      const std::vector<int> global = input(n);
      auto v = make(ctx, global);
      const int total = std::accumulate(global.begin(), global.end(), 0);
      CHECK(dtl::algorithms::collective::reduce(dtl::seq{}, v, 0, std::plus<>{}, ctx) == total);
      CHECK(dtl::algorithms::collective::count(dtl::seq{}, v, -11, ctx) ==
            static_cast<std::size_t>(std::count(global.begin(), global.end(), -11)));
      const auto r = dtl::algorithms::distributed::reduce(dtl::seq{}, v, 0, std::plus<>{});
      CHECK(r.global_value == total);
      dtl::distributed_vector<int> out(n, ctx);
      std::vector<int> expected(n);
      REQUIRE(dtl::partial_sum(dtl::seq{}, v, out).has_value());
      std::inclusive_scan(global.begin(), global.end(), expected.begin());
      CHECK(block_of(out) == part_of(expected, out));
      REQUIRE(dtl::algorithms::collective::exclusive_scan(dtl::seq{}, v, out, 1, std::plus<>{}, ctx).has_value());
      std::exclusive_scan(global.begin(), global.end(), expected.begin(), 1);
      CHECK(block_of(out) == part_of(expected, out));
      const auto square = [](int x) { return x * x; };
      REQUIRE(dtl::transform_inclusive_scan(dtl::seq{}, v, out, 0, std::plus<>{}, square).has_value());
      std::transform_inclusive_scan(global.begin(), global.end(), expected.begin(), std::plus<>{}, square);
      CHECK(block_of(out) == part_of(expected, out));
      REQUIRE(dtl::transform_exclusive_scan(dtl::par{}, v, out, 3, std::plus<>{}, square).has_value());
      std::transform_exclusive_scan(global.begin(), global.end(), expected.begin(), 3, std::plus<>{}, square);
      CHECK(block_of(out) == part_of(expected, out));
      CHECK(dtl::sum_of_squares(dtl::seq{}, v) ==
            std::transform_reduce(global.begin(), global.end(), 0, std::plus<>{}, square));
      CHECK(dtl::sum_of_abs(dtl::par{}, v) ==
            std::transform_reduce(global.begin(), global.end(), 0, std::plus<>{}, [](int x) { return std::abs(x); }));
    }
  }

  TEST_CASE("async_count, async_all_of, async_fill and async_copy") {
    const auto ctx = test_support::world();
    const std::vector<int> global = input(31);
    auto v = make(ctx, global);
    const auto positive = [](int x) { return x > 0; };
    CHECK(dtl::async_count(v, -11).get() == static_cast<std::size_t>(std::count(global.begin(), global.end(), -11)));
    CHECK(dtl::async_count_if(v, positive).get() ==
          static_cast<std::size_t>(std::count_if(global.begin(), global.end(), positive)));
    CHECK(dtl::async_all_of(v, positive).get() == std::all_of(global.begin(), global.end(), positive));
    CHECK(dtl::async_any_of(v, positive).get() == std::any_of(global.begin(), global.end(), positive));
    CHECK(dtl::async_none_of(v, positive).get() == std::none_of(global.begin(), global.end(), positive));
    dtl::distributed_vector<int> out(31, ctx);
    const dtl::copy_result copied = dtl::async_copy(v, out).get();
    CHECK(copied.count == v.local_size());
    CHECK(copied.success);
    CHECK(block_of(out) == block_of(v));
    dtl::async_fill(out, 4).get();
    CHECK(block_of(out) == std::vector<int>(out.local_size(), 4));
    // A failure fails the future: vectors of different sizes.
    dtl::distributed_vector<int> shorter(30, ctx);
    CHECK_THROWS_AS(dtl::async_copy(v, shorter).get(), dtl::status_error);
  }
}
