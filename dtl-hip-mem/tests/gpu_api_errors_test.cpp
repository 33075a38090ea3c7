// SPDX-License-Identifier: MIT
// Failures that HIP itself reports (suite gpu.api_errors): out of memory. compute-sanitizer counts such
// API errors, so this suite is registered on its own ('gpu-memory-api-errors', also in meson suite
// gpu-fault, which sanitizer runs leave out). A foreign pointer or a wrong size given to deallocate never
// reaches HIP: gpu_memory_space_test.cpp covers those.
#include "doctest.hpp"

#include "gpu_support.hpp"
#include "test_kernels.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/pointer.hpp>

#include <vector>

using dtl::status_code;
using namespace dtl::hip;
using dtl_test::hip_current_device;

TEST_SUITE("gpu.api_errors") {
  TEST_CASE("more than the device has is out_of_memory, and the process stays usable") {
    const int before = hip_current_device();
    const auto props = get_device_properties(before);
    REQUIRE(props.has_value());
    dtl_test::clear_pending_hip_error();
    hip_memory_space space;
    const std::size_t too_much = props->total_memory + (std::size_t{1} << 30);

    const auto failed = space.allocate(too_much);
    REQUIRE(failed.has_error());
    CHECK(failed.error() == status_code::out_of_memory);
    CHECK(failed.error().native_code() == static_cast<int>(hipErrorOutOfMemory));
    CHECK_FALSE(failed.error().native_name().empty());
    CHECK(failed.error().message().find("hipMalloc") != std::string_view::npos);
    CHECK(hipGetLastError() == hipSuccess);  // the error is returned, not left pending
    CHECK(space.stats().total_allocations == 0);
    CHECK(space.stats().bytes_in_use == 0);
    CHECK(hip_current_device() == before);

    // A normal allocation, a kernel and a copy still work.
    constexpr std::size_t n = 1u << 20;
    const auto ok = space.allocate(n * sizeof(unsigned));
    REQUIRE(ok.has_value());
    auto* d = static_cast<unsigned*>(*ok);
    REQUIRE(dtl_test_fill_index(d, n, 1u, nullptr) == hipSuccess);
    std::vector<unsigned> h(n, 0);
    REQUIRE(hip_memory_transfer::copy(h.data(), d, n * sizeof(unsigned), transfer_kind::device_to_host).has_value());
    CHECK(h[12345] == ((12345u * 2654435761u) ^ 1u));
    space.deallocate(d, n * sizeof(unsigned));
    CHECK(space.stats().total_allocations == 1);
    CHECK(space.stats().bytes_in_use == 0);
  }
}
