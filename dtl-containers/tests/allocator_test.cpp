// SPDX-License-Identifier: MIT
// memory_space_allocator and select_allocator_t on host memory: real allocations from DTL's host space
// (counted in its statistics), std::vector over it, rebinding and equality, the failures, and the
// allocators of host_only containers (vector, array, tensor). The device placements' are checked on a GPU
// (gpu_vector_test.cpp).
#include "doctest.hpp"

#include <dtl/containers/distributed_array.hpp>
#include <dtl/containers/distributed_tensor.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/memory_space_allocator.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/memory/default_allocator.hpp>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace {

using host_allocator = dtl::memory_space_allocator<double, dtl::host_memory_space>;
static_assert(std::is_same_v<dtl::select_allocator_t<double, dtl::host_only>, host_allocator>);
static_assert(std::is_same_v<dtl::default_allocator<double>, host_allocator>);
static_assert(std::is_same_v<std::allocator_traits<host_allocator>::rebind_alloc<char>,
                             dtl::memory_space_allocator<char, dtl::host_memory_space>>);
static_assert(
    std::is_same_v<dtl::distributed_vector<int>::allocator_type, dtl::select_allocator_t<int, dtl::host_only>>);
static_assert(std::is_same_v<dtl::distributed_array<int, 8>::allocator_type, dtl::default_allocator<int>>);
static_assert(std::is_same_v<dtl::distributed_tensor<float, 3>::allocator_type, dtl::default_allocator<float>>);
static_assert(host_allocator::is_host_accessible() && !host_allocator::is_device_accessible());
static_assert(host_allocator::space_name() == "host");

bool aligned(const void* p, std::size_t alignment) { return reinterpret_cast<std::uintptr_t>(p) % alignment == 0; }

}  // namespace

TEST_SUITE("memory_space_allocator") {
  TEST_CASE("host_only's allocator allocates from the process-wide host space, and frees there") {
    const host_allocator alloc;
    REQUIRE(alloc.space() != nullptr);
    CHECK(alloc.space() == dtl::shared_host_memory_space());
    const auto before = alloc.space()->stats();
    double* p = alloc.allocate(1000);
    REQUIRE(p != nullptr);
    CHECK(aligned(p, alignof(std::max_align_t)));
    CHECK(alloc.space()->stats().bytes_in_use == before.bytes_in_use + 1000 * sizeof(double));
    CHECK(alloc.space()->stats().live_allocations == before.live_allocations + 1);
    for (int i = 0; i < 1000; ++i) p[i] = i * 0.5;  // host memory: written and read here
    CHECK(p[999] == 499.5);
    alloc.deallocate(p, 1000);
    CHECK(alloc.space()->stats().bytes_in_use == before.bytes_in_use);
    CHECK(alloc.space()->stats().live_allocations == before.live_allocations);
    const auto props = alloc.space_properties();
    CHECK(props.host_accessible);
    CHECK_FALSE(props.device_accessible);
    CHECK(props.device_id == dtl::no_device);
  }

  TEST_CASE("a std::vector over it, and an over-aligned element type") {
    const auto space = dtl::shared_host_memory_space();
    const auto before = space->stats().bytes_in_use;
    {
      std::vector<double, dtl::default_allocator<double>> v(500, 1.5);
      CHECK(space->stats().bytes_in_use >= before + 500 * sizeof(double));
      v.resize(2000, 2.5);
      CHECK(v[0] == 1.5);
      CHECK(v[1999] == 2.5);
      CHECK(v.get_allocator().space() == space);
    }
    CHECK(space->stats().bytes_in_use == before);
    struct alignas(256) wide {
      char bytes[256];
    };
    const dtl::default_allocator<wide> wide_alloc;
    wide* w = wide_alloc.allocate(3);
    CHECK(aligned(w, 256));
    wide_alloc.deallocate(w, 3);
    CHECK(space->stats().bytes_in_use == before);
  }

  TEST_CASE("copies and rebinds share the space and compare equal; another space instance does not") {
    const host_allocator a;
    const dtl::memory_space_allocator<char, dtl::host_memory_space> bytes(a);
    CHECK(bytes.space() == a.space());
    CHECK(bytes == a);
    const auto own = std::make_shared<dtl::host_memory_space>();
    const host_allocator mine(own);
    CHECK_FALSE(mine == a);
    double* p = mine.allocate(10);
    CHECK(own->stats().bytes_in_use == 10 * sizeof(double));
    const host_allocator copy = mine;  // what one allocates, an equal one frees
    CHECK(copy == mine);
    copy.deallocate(p, 10);
    CHECK(own->stats().bytes_in_use == 0);
  }

  TEST_CASE("failures: the space's status from try_allocate, status_error from allocate") {
    const host_allocator alloc;
    CHECK(alloc.allocate(0) == nullptr);
    CHECK(alloc.try_allocate(0).value() == nullptr);
    alloc.deallocate(nullptr, 0);
    const auto overflow = alloc.try_allocate(host_allocator::max_size() + 1);
    REQUIRE_FALSE(overflow.has_value());
    CHECK(overflow.error().code() == dtl::status_code::out_of_memory);
    const auto huge = alloc.try_allocate(host_allocator::max_size());  // more bytes than any machine has
    REQUIRE_FALSE(huge.has_value());
    CHECK_THROWS_AS(static_cast<void>(alloc.allocate(host_allocator::max_size())), dtl::status_error);
    const host_allocator none(nullptr);
    const auto without = none.try_allocate(1);
    REQUIRE_FALSE(without.has_value());
    CHECK(without.error().code() == dtl::status_code::invalid_state);
    CHECK_THROWS_AS(static_cast<void>(none.allocate(1)), dtl::status_error);
    none.deallocate(nullptr, 1);
    CHECK(none.space_properties().host_accessible);
  }

  TEST_CASE("allocator_for and the host_only containers' get_allocator()") {
    const auto ctx = dtl::make_cpu_context();
    const auto made = dtl::allocator_for<int, dtl::host_only>(ctx);
    REQUIRE(made.has_value());
    CHECK(made->space() == dtl::shared_host_memory_space());
    const dtl::distributed_vector<int> v(10, ctx);
    const dtl::distributed_array<int, 10> a(ctx);
    const dtl::distributed_tensor<int, 2> t({4, 3}, ctx);
    CHECK(v.get_allocator() == *made);
    CHECK(a.get_allocator() == *made);
    CHECK(t.get_allocator() == *made);
    int* p = t.get_allocator().allocate(12);
    p[11] = 7;
    t.get_allocator().deallocate(p, 12);
    // A moved-from host vector still names the host space.
    dtl::distributed_vector<int> from(3, ctx);
    const dtl::distributed_vector<int> to(std::move(from));
    const auto left = from.get_allocator();  // NOLINT(bugprone-use-after-move): a moved-from vector is empty
    CHECK(left.space() == dtl::shared_host_memory_space());
    CHECK(to.get_allocator() == *made);
  }
}
