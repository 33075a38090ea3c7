// SPDX-License-Identifier: MIT
// The distributed sort on host placements (run with 1, 2 and 3 MPI ranks): sort, stable_sort,
// sort_by_key and is_sorted against a serial reference, every input shape and size (0, 1, fewer elements
// than ranks, uneven blocks), several key types and comparators, under seq, par and async.
#include "sort_checks.hpp"

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/config.hpp>

using namespace sort_checks;

TEST_SUITE("mpi.sort") {
  TEST_CASE("sort and stable_sort: every shape, size, key type and comparator, seq") {
    sort_cases<dtl::host_only>(test_support::world(), dtl::seq{});
  }
  TEST_CASE("sort under par (chunks sorted on threads, merged) and async") {
    const auto ctx = test_support::world();
    for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{300001}}) {
      sort_one<std::uint32_t, dtl::host_only>(ctx, dtl::par{}, n, shape::random, std::less<>{}, false);
      sort_one<std::uint32_t, dtl::host_only>(ctx, dtl::par{}, n, shape::few_values, std::greater<>{}, true);
    }
#if DTL_CONTAINERS_HAS_HIP
    sort_one<std::int64_t, dtl::host_only>(ctx, dtl::async{}, 1000, shape::random, std::less<>{}, false);
#endif
  }
  TEST_CASE("a lambda comparator") {
    const auto ctx = test_support::world();
    const auto by_last_digit = [](std::uint32_t a, std::uint32_t b) {
      return a % 10 != b % 10 ? a % 10 < b % 10 : a < b;
    };
    for (const std::size_t n : sizes)
      sort_one<std::uint32_t, dtl::host_only>(ctx, dtl::seq{}, n, shape::random, by_last_digit, false);
  }
  TEST_CASE("stable_sort keeps equal keys in their global order") {
    stable_records<dtl::host_only>(test_support::world());
  }
  TEST_CASE("sort_by_key") {
    by_key_cases<dtl::host_only>(test_support::world(), std::less<>{});
    by_key_cases<dtl::host_only>(test_support::world(), std::greater<>{});
  }
  TEST_CASE("distributed_sort: what each rank moved") { traffic_cases<dtl::host_only>(test_support::world()); }
  TEST_CASE("is_sorted across rank boundaries") { is_sorted_cases<dtl::host_only>(test_support::world()); }
  TEST_CASE("all-equal keys spread over the ranks: each rank's bucket stays near its block") {
    // Without the (key, rank, position) tie-break every element would go to one rank; the result is
    // the same either way, so this checks the outcome, and that a large all-equal sort completes.
    sort_one<std::uint32_t, dtl::host_only>(test_support::world(), dtl::seq{}, 200000, shape::equal, std::less<>{},
                                            true);
  }
  TEST_CASE("refinement rounds (the sample budgets lowered): the same results and guarantees") {
    const auto ctx = test_support::world();
    const small_budgets lowered(tiny_budgets);
    sort_cases<dtl::host_only>(ctx, dtl::seq{});
    sort_one<std::uint32_t, dtl::host_only>(ctx, dtl::par{}, 300001, shape::random, std::less<>{}, true);
    stable_records<dtl::host_only>(ctx);
    by_key_cases<dtl::host_only>(ctx, std::less<>{});
    traffic_cases<dtl::host_only>(ctx);  // all-equal keys still move nothing
  }
  TEST_CASE("the rounds taken: one with the default budgets up to 32 ranks, several with lowered ones") {
    const auto ctx = test_support::world();
    const std::vector<std::uint32_t> global = make_input<std::uint32_t>(30000, shape::random, 3);
    auto rounds = [&] {
      auto v = make_vector<std::uint32_t, dtl::host_only>(ctx, global);
      std::less<> comp;
      const auto traffic = dtl::detail::host_sample_sort<false, false>(ctx, v.local_data(), v.local_size(),
                                                                       dtl::detail::key_itself{}, comp);
      REQUIRE(traffic.has_value());
      std::vector<std::uint32_t> expected = global;
      std::sort(expected.begin(), expected.end());
      check_block(v, expected);
      return traffic->rounds;
    };
    CHECK(rounds() == (ctx.size() == 1 ? 0 : 1));
    const small_budgets lowered(tiny_budgets);
    if (ctx.size() > 1) CHECK(rounds() > 1);
  }
  TEST_CASE("vectors of different layouts give a status on every rank") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<std::uint32_t> keys(10, ctx);
    dtl::distributed_vector<std::uint32_t> values(11, ctx);
    CHECK(dtl::sort_by_key(keys, values).error() == dtl::status_code::extent_mismatch);
  }
}
