// SPDX-License-Identifier: MIT
// device_scratch without kernels (it is host code, built by the C++ compiler): what it says about a
// device it cannot use. Its allocations are tested on the GPU (gpu_device_primitives_test.cpp).
#include "doctest.hpp"

#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/hip/device.hpp>

TEST_SUITE("device_scratch") {
  TEST_CASE("a device it cannot use is a status from the first reserve, and nothing is held") {
    const int count = dtl::hip::device_count();
    dtl::detail::gpu::device_scratch scratch(count + 3, nullptr);
    const auto temp = scratch.reserve(100);
    REQUIRE(temp.has_error());
    CHECK(temp.error() == (count == 0 ? dtl::status_code::backend_not_available : dtl::status_code::invalid_argument));
    CHECK(scratch.result_slot(8).has_error());
    CHECK(scratch.capacity() == 0);
    CHECK(scratch.release().ok());  // nothing to free
  }
}
