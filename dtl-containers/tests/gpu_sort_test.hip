// SPDX-License-Identifier: MIT
// The distributed sort on device placements (device_only, unified_memory): the host test's cases
// (sort_checks.hpp) on the GPU, 1 rank and 2 ranks sharing it, and a sort of 2^30 keys (suite
// gpu-large). Exits 77 (SKIP) without a GPU.
#include "sort_checks.hpp"

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/algorithms/reduce.hpp>

#include <chrono>

using namespace sort_checks;

namespace {

template <class P>
void every_case(const dtl::context& ctx) {
  sort_cases<P>(ctx, dtl::seq{});
  sort_one<std::uint32_t, P>(ctx, dtl::async{}, 100003, shape::random, std::less<>{}, false);
  sort_one<std::uint64_t, P>(ctx, dtl::par{}, 100003, shape::random, std::greater<>{}, true);
  stable_records<P>(ctx);
  by_key_cases<P>(ctx, std::less<>{});
  by_key_cases<P>(ctx, std::greater<>{});
  by_key_cases<P>(ctx, low_byte_then_descending{});
  is_sorted_cases<P>(ctx);
  traffic_cases<P>(ctx);
}

}  // namespace

TEST_SUITE("gpu.sort") {
  TEST_CASE("device_only_runtime") { every_case<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("unified_memory") { every_case<dtl::unified_memory>(test_support::world()); }
  TEST_CASE("refinement rounds (the sample budgets lowered): the device's samples, order and cuts") {
    const auto ctx = test_support::world();
    const small_budgets lowered(tiny_budgets);
    sort_cases<dtl::device_only_runtime>(ctx, dtl::seq{});
    stable_records<dtl::device_only_runtime>(ctx);
    by_key_cases<dtl::device_only_runtime>(ctx, low_byte_then_descending{});
    traffic_cases<dtl::device_only_runtime>(ctx);  // all-equal keys still move nothing
  }
  TEST_CASE("a device lambda comparator") {
    const auto ctx = test_support::world();
    const auto by_last_digit = [] __host__ __device__(std::uint32_t a, std::uint32_t b) {
      return a % 10 != b % 10 ? a % 10 < b % 10 : a < b;
    };
    for (const std::size_t n : sizes)
      sort_one<std::uint32_t, dtl::device_only_runtime>(ctx, dtl::seq{}, n, shape::random, by_last_digit, false);
  }
}

TEST_SUITE("gpu.sort_large") {
  TEST_CASE("2^30 uint32 keys") {
    const auto ctx = test_support::world();
    const std::size_t n = std::size_t{1} << 30;
    dtl::distributed_vector<std::uint32_t, dtl::device_only_runtime> v(n, ctx);
    // Keys from a hash of the global index: a permutation check needs no host copy of everything.
    const std::size_t offset = v.global_offset();
    REQUIRE(dtl::for_each_indexed(v, [] __device__(std::size_t i, std::uint32_t & x) {
              x = static_cast<std::uint32_t>(i * 2654435761u) ^ 0x5bd1e995u;
            }).has_value());
    const std::uint64_t sum_before = dtl::transform_reduce(v, std::uint64_t{0}, std::plus<>{},
                                                           [] __device__(std::uint32_t x) { return std::uint64_t{x}; });
    REQUIRE(dtl::sort(v).has_value());
    CHECK(dtl::is_sorted(v));
    CHECK(dtl::transform_reduce(v, std::uint64_t{0}, std::plus<>{},
                                [] __device__(std::uint32_t x) { return std::uint64_t{x}; }) == sum_before);
    CHECK(v.global_offset() == offset);
  }
}
