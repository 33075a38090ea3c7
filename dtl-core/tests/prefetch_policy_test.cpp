// SPDX-License-Identifier: MIT
// Upstream's prefetch hint: its names, its factories, and the part of a range a hint covers.
#include <dtl/memory/prefetch_policy.hpp>

#include "doctest.hpp"

TEST_SUITE("prefetch_policy") {
  TEST_CASE("the policies are named, and the factories fill in the hint") {
    CHECK(dtl::to_string(dtl::prefetch_policy::none) == "none");
    CHECK(dtl::to_string(dtl::prefetch_policy::bidirectional) == "bidirectional");
    constexpr dtl::prefetch_hint to_device = dtl::make_device_prefetch(3);
    static_assert(to_device.policy == dtl::prefetch_policy::to_device && to_device.device_id == 3);
    CHECK(dtl::make_host_prefetch().policy == dtl::prefetch_policy::to_host);
  }

  TEST_CASE("a hint covers its offset up to its size, or to the end of the range") {
    dtl::prefetch_hint hint = dtl::make_device_prefetch();
    CHECK(dtl::prefetch_range(hint, 100).offset == 0);
    CHECK(dtl::prefetch_range(hint, 100).bytes == 100);
    hint.offset = 40;
    CHECK(dtl::prefetch_range(hint, 100).bytes == 60);
    hint.size = 10;
    CHECK(dtl::prefetch_range(hint, 100).bytes == 10);
    hint.size = 500;  // past the end: clipped
    CHECK(dtl::prefetch_range(hint, 100).bytes == 60);
    hint.offset = 100;
    CHECK(dtl::prefetch_range(hint, 100).bytes == 0);
  }
}
