// SPDX-License-Identifier: MIT
// The reordering algorithms on device placements (device_only_runtime, unified_memory): partial_sort
// and distributed_iota run on the GPU (the distributed sort, dtl::iota); rotate, unique, nth_element,
// the partitions, replace, adjacent_difference, accumulate and iota_step return not_supported, on every
// rank alike (the value forms throw it). Exits 77 (SKIP) without a GPU.
#include "same_on_every_rank.hpp"
#include "sort_checks.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/core/status_error.hpp>

using namespace sort_checks;

namespace {

template <class E>
dtl::status_code thrown_code(E&& call) {
  try {
    (void)call();
  } catch (const dtl::status_error& e) {
    return e.error().code();
  }
  return dtl::status_code::ok;
}

// A template, so that nvcc does not warn of a device function never used (partition_count refuses device
// vectors before it would call the predicate).
struct is_even {
  template <class I>
  DTL_HOST_DEVICE bool operator()(I x) const {
    return x % 2 == 0;
  }
};

template <class P>
void device_cases(const dtl::context& ctx) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{1000}}) {
    CAPTURE(n);
    const std::vector<std::int32_t> global = make_input<std::int32_t>(n, shape::random, 11);
    auto v = make_vector<std::int32_t, P>(ctx, global);
    REQUIRE(dtl::partial_sort(v, n / 2).has_value());
    std::vector<std::int32_t> sorted = global;
    std::sort(sorted.begin(), sorted.end());
    check_block(v, sorted);  // the distributed sort orders the rest too
    REQUIRE(dtl::distributed_iota(v, 5).has_value());
    std::vector<std::int32_t> expected(n);
    std::iota(expected.begin(), expected.end(), 5);
    check_block(v, expected);
  }
  auto v = make_vector<std::int32_t, P>(ctx, make_input<std::int32_t>(100, shape::random, 3));
  auto w = make_vector<std::int32_t, P>(ctx, make_input<std::int32_t>(100, shape::random, 4));
  const auto not_supported = [&](auto r) {
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == dtl::status_code::not_supported);
    test_support::same_status_everywhere(ctx, r.error());
  };
  not_supported(dtl::rotate(v, 3));
  not_supported(dtl::unique(v));
  not_supported(dtl::replace(v, 1, 2));
  not_supported(dtl::replace_copy(v, w, 1, 2));
  not_supported(dtl::adjacent_difference(v, w));
  not_supported(dtl::iota_step(v, 0, 2));
  not_supported(dtl::try_nth_element(v, 3));
  not_supported(dtl::try_accumulate(v, 0));
  not_supported(dtl::try_count_duplicates(v));
  CHECK(thrown_code([&] { return dtl::partition_count(v, is_even{}); }) == dtl::status_code::not_supported);
  check_block(v, make_input<std::int32_t>(100, shape::random, 3));  // nothing moved
}

}  // namespace

TEST_SUITE("gpu.reorder") {
  TEST_CASE("device_only_runtime") { device_cases<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("unified_memory") { device_cases<dtl::unified_memory>(test_support::world()); }
}
