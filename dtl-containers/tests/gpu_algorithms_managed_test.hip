// SPDX-License-Identifier: MIT
// Every algorithm on unified_memory and device_preferred (managed memory).
#include "gpu_algorithm_checks.hpp"

using namespace algorithm_checks;

TEST_SUITE("gpu.algorithms") {
  TEST_CASE("unified_memory") { every_policy<dtl::unified_memory>(test_support::world()); }
  TEST_CASE("device_preferred") {
    const auto ctx = test_support::world();
    if (!dtl::hip::get_device_properties(0).value().concurrent_managed_access) {
      // Without concurrent managed access a preferred location would do nothing: refused, not faked.
      CHECK(dtl::distributed_vector<float, dtl::device_preferred>::create(10, ctx).error() ==
            dtl::status_code::not_supported);
      return;
    }
    elementwise<dtl::device_preferred>(ctx, dtl::seq{}, nullptr);
    reductions<dtl::device_preferred>(ctx, dtl::seq{}, nullptr);
  }
}
