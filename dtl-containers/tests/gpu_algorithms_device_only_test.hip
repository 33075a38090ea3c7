// SPDX-License-Identifier: MIT
// Every algorithm on device_only<0>, under every policy; async chains; mismatched vectors.
#include "gpu_algorithm_checks.hpp"

using namespace algorithm_checks;

TEST_SUITE("gpu.algorithms") {
  TEST_CASE("device_only<0>") { every_policy<dtl::device_only<0>>(test_support::world()); }
  TEST_CASE("async work chains without blocking") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<float, dtl::device_only_runtime> v(1 << 20, ctx);
    auto square = [] __device__(float x) { return x * x; };
    auto chained = dtl::fill(dtl::async{}, v, 2.0f).then([&v, square] {
      return dtl::transform(dtl::async{}, v, v, square).get_result();
    });
    REQUIRE(chained.get_result(std::chrono::seconds(60)).has_value());
    CHECK(dtl::reduce(dtl::async{}, v, 0.0f).get_result(std::chrono::seconds(60)).value() == 4.0f * (1 << 20));
  }

  TEST_CASE("mismatched vectors give statuses") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<float, dtl::device_only<0>> a(10, ctx), b(11, ctx);
    dtl::distributed_vector<float, dtl::device_only<0>> c(10, ctx.split(0).value());
    CHECK(dtl::transform(a, b, [] __device__(float x) { return x; }).error() == dtl::status_code::extent_mismatch);
    CHECK(dtl::copy(a, c).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::inclusive_scan(a, b).error() == dtl::status_code::extent_mismatch);
  }
}
