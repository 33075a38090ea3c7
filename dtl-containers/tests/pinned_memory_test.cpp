// SPDX-License-Identifier: MIT
// Upstream's pinned_memory_space: real memory of the asked alignment, and its statistics.
#include "doctest.hpp"

#include <dtl/memory/pinned_memory_space.hpp>

#include <cstdint>
#include <cstring>

TEST_SUITE("pinned_memory_space") {
  TEST_CASE("allocations are usable, aligned and counted; 0 bytes is nullptr") {
    using space = dtl::pinned_memory_space;
    space::reset_statistics();
    CHECK(space::allocate(0) == nullptr);
    void* a = space::allocate(1000);
    void* b = space::allocate(300, 256);
    REQUIRE(a != nullptr);
    REQUIRE(b != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(b) % 256 == 0);
    std::memset(a, 0x5a, 1000);
    CHECK(static_cast<unsigned char*>(a)[999] == 0x5a);
    CHECK(space::total_allocated() == 1300);
    space::deallocate(a, 1000);
    CHECK(space::total_allocated() == 300);
    CHECK(space::peak_allocated() == 1300);
    space::deallocate(b, 300);
    space::deallocate(nullptr, 0);
    CHECK(space::total_allocated() == 0);
    static_assert(!space::properties().pageable && space::properties().device_accessible);
    static_assert(dtl::memory_space_traits<space>::is_host_space);
    static_assert(!dtl::memory_space_traits<space>::is_device_space);
  }
}
