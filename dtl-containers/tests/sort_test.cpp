// SPDX-License-Identifier: MIT
// The distributed sort on host placements (run with 1, 2 and 3 MPI ranks): sort, stable_sort,
// sort_by_key and is_sorted against a serial reference, every input shape and size (0, 1, fewer elements
// than ranks, uneven blocks), several key types and comparators, under seq, par and async.
#include "sort_checks.hpp"

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/detail/sort_buckets.hpp>
#include <dtl/containers/config.hpp>

#include <numeric>

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
  TEST_CASE("distributed_sort with upstream's distributed_sort_config: its local-sort choice, the same order") {
    const dtl::distributed_sort_config defaults;
    CHECK(defaults.oversampling_factor == 3);
    CHECK(defaults.use_parallel_local_sort);
    CHECK(defaults.use_parallel_merge);
    const auto ctx = test_support::world();
    for (const bool parallel : {true, false}) {
      for (const std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{20001}}) {
        CAPTURE(n);
        const std::vector<std::uint32_t> global = make_input<std::uint32_t>(n, shape::random, 3);
        auto v = make_vector<std::uint32_t, dtl::host_only>(ctx, global);
        const dtl::distributed_sort_result r =
            dtl::distributed_sort(dtl::seq{}, v, std::greater<>{}, dtl::distributed_sort_config{8, parallel, false});
        CHECK(r.success);
        std::vector<std::uint32_t> expected = global;
        std::sort(expected.begin(), expected.end(), std::greater<>{});
        check_block(v, expected);
        CHECK(ctx.allreduce_value(r.elements_sent, dtl::reduce_op::sum).value() ==
              ctx.allreduce_value(r.elements_received, dtl::reduce_op::sum).value());
      }
    }
  }
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
  TEST_CASE("the rounds taken: one with the default budgets up to 16 ranks, several with lowered ones") {
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
  TEST_CASE("a local sort that failed on one rank: every rank returns the same status from the splitters") {
    const auto ctx = test_support::world();
    const std::size_t me = static_cast<std::size_t>(ctx.rank()), last = static_cast<std::size_t>(ctx.size() - 1);
    std::vector<std::uint32_t> block(100 + 7 * me);
    std::iota(block.begin(), block.end(), static_cast<std::uint32_t>(1000 * me));
    std::less<> comp;
    dtl::detail::host_sort_ops<std::uint32_t, std::uint32_t, dtl::detail::key_itself, std::less<>> ops{
        block.data(), block.size(), me, {}, comp};
    const dtl::status local =
        me == last ? dtl::status(dtl::status_code::out_of_memory, "sort: no memory here") : dtl::status{};
    const auto found = dtl::detail::find_cuts<std::uint32_t>(ctx, block.size(), local, ops);
    REQUIRE_FALSE(found.has_value());
    CHECK(found.error().code() ==
          (ctx.size() == 1 ? dtl::status_code::out_of_memory : dtl::status_code::collective_failure));
    CHECK(found.error().message().find("no memory here") != std::string::npos);
    // Without the failure: every rank's size, and cuts that split the ordered whole evenly.
    const auto ok = dtl::detail::find_cuts<std::uint32_t>(ctx, block.size(), dtl::status{}, ops);
    REQUIRE(ok.has_value());
    for (std::size_t r = 0; r <= last; ++r) CHECK(ok->sizes[r] == 100 + 7 * r);
    CHECK(ok->cuts.size() == last);
    CHECK(ctx.allreduce_value(1, dtl::reduce_op::sum).value() == ctx.size());  // the context still works
  }
  TEST_CASE("the receive buffer: counts, bucket sizes, a failed allocation and a bucket past its capacity") {
    const auto ctx = test_support::world();
    const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());
    const std::vector<std::size_t> sizes(p, 1000);
    for (const std::size_t matrix_ranks : {dtl::detail::count_matrix_ranks, std::size_t{0}}) {
      CAPTURE(matrix_ranks);
      // Rank q sends q + 1 + r elements to rank r: even buckets, near their capacity.
      std::vector<std::size_t> send(p);
      for (std::size_t r = 0; r < p; ++r) send[r] = me + 1 + r;
      std::vector<std::size_t> asked;
      auto allocate = [&](std::size_t n) {
        asked.push_back(n);
        return dtl::status{};
      };
      const auto layout = dtl::detail::plan_buckets(ctx, sizes, send, allocate, matrix_ranks);
      REQUIRE(layout.has_value());
      for (std::size_t q = 0; q < p; ++q) {
        CHECK(layout->recv_counts[q] == q + 1 + me);
        std::size_t bucket = 0;
        for (std::size_t r = 0; r < p; ++r) bucket += r + 1 + q;
        CHECK(layout->bucket_sizes[q] == bucket);
      }
      CHECK(asked.size() == 1);

      // One rank cannot allocate: the same status on every rank.
      auto fail_last = [&](std::size_t) {
        return me + 1 == p ? dtl::status(dtl::status_code::out_of_memory, "sort (the receive buffer): none left")
                           : dtl::status{};
      };
      const auto failed = dtl::detail::plan_buckets(ctx, sizes, send, fail_last, matrix_ranks);
      REQUIRE_FALSE(failed.has_value());
      CHECK(failed.error().code() == (p == 1 ? dtl::status_code::out_of_memory : dtl::status_code::collective_failure));

      // Every rank sends all of its block to rank 0, past the capacity the counts step allocates first:
      // rank 0 allocates again, for its whole bucket, and every rank goes on.
      std::vector<std::size_t> to_first(p, 0);
      to_first[0] = 1000;
      asked.clear();
      const auto skewed = dtl::detail::plan_buckets(ctx, sizes, to_first, allocate, matrix_ranks);
      REQUIRE(skewed.has_value());
      CHECK(skewed->bucket_sizes[0] == 1000 * p);
      if (me == 0 && p > 1) CHECK(asked.back() == 1000 * p);
      CHECK(asked.back() >= skewed->bucket_sizes[me]);  // the last allocation holds the bucket
    }
  }
  TEST_CASE("vectors of different layouts give a status on every rank") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<std::uint32_t> keys(10, ctx);
    dtl::distributed_vector<std::uint32_t> values(11, ctx);
    CHECK(dtl::sort_by_key(keys, values).error() == dtl::status_code::extent_mismatch);
  }
}
