// SPDX-License-Identifier: MIT
// Every algorithm on device_only_runtime, under every policy; 1 GiB.
#include "gpu_algorithm_checks.hpp"

using namespace algorithm_checks;

TEST_SUITE("gpu.algorithms") {
  TEST_CASE("device_only_runtime") { every_policy<dtl::device_only_runtime>(test_support::world()); }
}

TEST_SUITE("gpu.large") {
  TEST_CASE("1 GiB of float: fill, transform, reduce") {
    const auto ctx = test_support::world();
    const std::size_t n = std::size_t{1} << 28;
    dtl::distributed_vector<float, dtl::device_only_runtime> v(n, 0.5f, ctx);
    REQUIRE(dtl::transform(v, v, [] __device__(float x) { return 2 * x; }).has_value());
    CHECK(dtl::reduce(v, 0.0f) == doctest::Approx(static_cast<double>(n)));
    CHECK(dtl::reduce(v, 0.0f, dtl::reduce_max<float>{}) == 1.0f);
    CHECK(dtl::count_if(v, [] __device__(float x) { return x == 1.0f; }) == n);
  }
}
