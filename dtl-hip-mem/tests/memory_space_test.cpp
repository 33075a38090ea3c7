// SPDX-License-Identifier: MIT
// Memory spaces without kernels: concepts, argument checks, the statuses given without a device
// (suite no_device) and for ids past the last device (suite gpu.device_ids).
#include "doctest.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/pointer.hpp>

#include <sys/mman.h>

#include <memory>
#include <string>
#include <thread>
#include <type_traits>

using dtl::status_code;
using namespace dtl::hip;

static_assert(dtl::MemorySpace<hip_memory_space>);
static_assert(dtl::MemorySpace<hip_managed_memory_space>);
static_assert(dtl::MemorySpace<hip_device_preferred_memory_space>);
static_assert(dtl::MemorySpace<hip_pinned_memory_space>);

static_assert(!hip_memory_space::host_accessible && hip_memory_space::device_accessible);
static_assert(hip_managed_memory_space::host_accessible && hip_managed_memory_space::device_accessible);
static_assert(hip_device_preferred_memory_space::host_accessible &&
              hip_device_preferred_memory_space::device_accessible);
static_assert(hip_pinned_memory_space::host_accessible && hip_pinned_memory_space::device_accessible);

static_assert(hip_memory_space::name() == "hip_device");
static_assert(hip_managed_memory_space::name() == "hip_managed");
static_assert(hip_device_preferred_memory_space::name() == "hip_device_preferred");
static_assert(hip_pinned_memory_space::name() == "hip_pinned");

// One implementation: the four names are aliases of basic_memory_space<space_kind>, and the extras exist
// only where they mean something.
static_assert(std::is_same_v<hip_memory_space, basic_memory_space<space_kind::device>>);
static_assert(std::is_same_v<hip_pinned_memory_space, basic_memory_space<space_kind::pinned>>);
template <class Space>
concept reports_support = requires(const Space& s) {
  s.support();
};
template <class Space>
concept prefetches = requires(const Space& s, const void* p) {
  s.prefetch_to_device(p, 4);
  s.prefetch_to_host(p, 4);
};
static_assert(reports_support<hip_managed_memory_space> && reports_support<hip_device_preferred_memory_space>);
static_assert(!reports_support<hip_memory_space> && !reports_support<hip_pinned_memory_space>);
static_assert(prefetches<hip_device_preferred_memory_space>);
static_assert(!prefetches<hip_memory_space> && !prefetches<hip_managed_memory_space> &&
              !prefetches<hip_pinned_memory_space>);

// A space owns counters and statistics: it is neither copied nor moved by accident.
static_assert(!std::is_copy_constructible_v<hip_memory_space> && !std::is_move_constructible_v<hip_memory_space>);
static_assert(!std::is_copy_constructible_v<hip_pinned_memory_space>);

namespace {

bool stats_are_zero(const dtl::allocation_stats& s) {
  return s.bytes_in_use == 0 && s.peak_bytes == 0 && s.live_allocations == 0 && s.total_allocations == 0;
}

// Checks that need no device: they are refused before the device is looked at.
template <class Space>
void check_request_validation(Space& space) {
  CHECK(space.allocate(0).error() == status_code::invalid_argument);
  CHECK(space.allocate(0, 64).error() == status_code::invalid_argument);
  CHECK(space.allocate(64, 0).error() == status_code::invalid_argument);
  CHECK(space.allocate(64, 3).error() == status_code::invalid_argument);
  CHECK(space.allocate(64, 96).error() == status_code::invalid_argument);
  // Above the 256 bytes HIP guarantees: refused, never over-allocated and leaked.
  CHECK(space.allocate(64, 512).error() == status_code::invalid_argument);
  CHECK(space.allocate(64, 4096).error() == status_code::invalid_argument);
  // A request whose size cannot even be rounded up to the alignment.
  CHECK(space.allocate(~std::size_t{0}, 256).error() == status_code::out_of_memory);
  space.deallocate(nullptr, 0);
  space.deallocate(nullptr, 128);
  CHECK(space.try_deallocate(nullptr, 128).ok());
  const auto contains_null = space.contains(nullptr);
  REQUIRE(contains_null.has_value());
  CHECK_FALSE(*contains_null);
  CHECK(stats_are_zero(space.stats()));
}

template <class Space>
void check_without_device(Space& space) {
  CHECK(space.availability() == status_code::backend_not_available);
  CHECK(space.device_id() == dtl::no_device);
  CHECK(space.properties().device_id == dtl::no_device);
  CHECK(space.allocate(64).error() == status_code::backend_not_available);
  CHECK(space.allocate(64, 128).error() == status_code::backend_not_available);
  int host_value = 7;
  CHECK(space.contains(&host_value).error() == status_code::backend_not_available);
  // Nothing can have come from this space; HIP is not asked to free it.
  CHECK(space.try_deallocate(&host_value, sizeof host_value) == status_code::backend_not_available);
  CHECK(stats_are_zero(space.stats()));
}

template <class Space>
void check_bad_device(int device) {
  Space space(device);
  CHECK(space.availability() == status_code::invalid_argument);
  CHECK(space.device_id() == device);
  CHECK(space.allocate(64).error() == status_code::invalid_argument);
  CHECK(space.allocate(64).error().message().find(std::to_string(device)) != std::string_view::npos);
  int host_value = 7;
  CHECK(space.contains(&host_value).error() == status_code::invalid_argument);
  CHECK(space.try_deallocate(&host_value, sizeof host_value) == status_code::invalid_argument);
  CHECK(stats_are_zero(space.stats()));
}

}  // namespace

TEST_SUITE("memory_space") {
  TEST_CASE("requests are checked before any device is involved") {
    SUBCASE("hip_memory_space") {
      hip_memory_space space;
      check_request_validation(space);
    }
    SUBCASE("hip_managed_memory_space") {
      hip_managed_memory_space space;
      check_request_validation(space);
    }
    SUBCASE("hip_device_preferred_memory_space") {
      hip_device_preferred_memory_space space;
      check_request_validation(space);
    }
    SUBCASE("hip_pinned_memory_space") {
      hip_pinned_memory_space space;
      check_request_validation(space);
    }
  }

  TEST_CASE("a negative device id is invalid_argument on every machine") {
    for (const int device : {-1, -7}) {
      CAPTURE(device);
      check_bad_device<hip_memory_space>(device);
      check_bad_device<hip_managed_memory_space>(device);
      check_bad_device<hip_device_preferred_memory_space>(device);
      check_bad_device<hip_pinned_memory_space>(device);
    }
  }

  TEST_CASE("properties describe each kind of memory") {
    const hip_memory_space device_space;
    const dtl::memory_space_properties d = device_space.properties();
    CHECK_FALSE(d.host_accessible);
    CHECK(d.device_accessible);
    CHECK_FALSE(d.unified);
    CHECK_FALSE(d.pageable);
    CHECK(d.alignment == 256);
    CHECK(d.device_id == device_space.device_id());

    const hip_managed_memory_space managed_space;
    const dtl::memory_space_properties m = managed_space.properties();
    CHECK(m.host_accessible);
    CHECK(m.device_accessible);
    CHECK(m.unified);
    CHECK(m.alignment == 256);
    CHECK(m.supports_atomics == managed_space.support().concurrent_managed_access);

    const hip_device_preferred_memory_space preferred_space;
    const dtl::memory_space_properties p = preferred_space.properties();
    CHECK(p.host_accessible);
    CHECK(p.device_accessible);
    CHECK(p.unified);
    CHECK(p.device_id == preferred_space.device_id());

    const hip_pinned_memory_space pinned_space;
    const dtl::memory_space_properties h = pinned_space.properties();
    CHECK(h.host_accessible);
    CHECK(h.device_accessible);
    CHECK_FALSE(h.unified);
    CHECK_FALSE(h.pageable);
    CHECK(h.alignment == 256);
  }
}

TEST_SUITE("pointer") {
  TEST_CASE("names of memory kinds") {
    CHECK(memory_kind_name(memory_kind::host_pageable) == "host_pageable");
    CHECK(memory_kind_name(memory_kind::host_pinned) == "host_pinned");
    CHECK(memory_kind_name(memory_kind::device) == "device");
    CHECK(memory_kind_name(memory_kind::managed) == "managed");
    CHECK(memory_kind_name(static_cast<memory_kind>(99)) == "unknown_memory_kind");
  }

  TEST_CASE("which kinds may stand on which side of a transfer") {
    CHECK(is_host_side(memory_kind::host_pageable));
    CHECK(is_host_side(memory_kind::host_pinned));
    CHECK(is_host_side(memory_kind::managed));
    CHECK_FALSE(is_host_side(memory_kind::device));
    CHECK(is_device_side(memory_kind::device));
    CHECK(is_device_side(memory_kind::managed));
    CHECK_FALSE(is_device_side(memory_kind::host_pageable));
    CHECK_FALSE(is_device_side(memory_kind::host_pinned));
  }

  TEST_CASE("query_pointer refuses nullptr") { CHECK(query_pointer(nullptr).error() == status_code::invalid_argument); }
}

// Meson test no_device (--requires=no-device): SKIP where a device is present.
TEST_SUITE("no_device") {
  TEST_CASE("without a device every space says so") {
    SUBCASE("default constructed") {
      hip_memory_space device_space;
      check_without_device(device_space);
      hip_managed_memory_space managed_space;
      check_without_device(managed_space);
      CHECK_FALSE(managed_space.support().managed_memory);
      CHECK_FALSE(managed_space.support().concurrent_managed_access);
      hip_device_preferred_memory_space preferred_space;
      check_without_device(preferred_space);
      hip_pinned_memory_space pinned_space;
      check_without_device(pinned_space);
    }
    SUBCASE("built for device 0") {
      for (const int device : {0, 1}) {
        CHECK(hip_memory_space(device).availability() == status_code::backend_not_available);
        CHECK(hip_managed_memory_space(device).availability() == status_code::backend_not_available);
        CHECK(hip_device_preferred_memory_space(device).availability() == status_code::backend_not_available);
        CHECK(hip_pinned_memory_space(device).availability() == status_code::backend_not_available);
      }
      hip_device_preferred_memory_space space(0);
      int host_value = 0;
      CHECK(space.prefetch_to_device(&host_value, 4).error() == status_code::backend_not_available);
      CHECK(space.prefetch_to_host(&host_value, 4).error() == status_code::backend_not_available);
    }
  }

  TEST_CASE("query_pointer needs a device") {
    int host_value = 0;
    CHECK(query_pointer(&host_value).error() == status_code::backend_not_available);
  }
}

// Meson test gpu-device-ids (--requires=devices:1): SKIP without a device.
TEST_SUITE("gpu.device_ids") {
  TEST_CASE("an id past the last device is invalid_argument") {
    const int n = device_count();
    for (const int device : {n, n + 3}) {
      CAPTURE(device);
      check_bad_device<hip_memory_space>(device);
      check_bad_device<hip_managed_memory_space>(device);
      check_bad_device<hip_device_preferred_memory_space>(device);
      check_bad_device<hip_pinned_memory_space>(device);
    }
    hip_device_preferred_memory_space space(n);
    int host_value = 0;
    CHECK(space.prefetch_to_device(&host_value, 4).error() == status_code::invalid_argument);
  }
}

TEST_CASE("never_device_memory: the thread's stack and the brk heap, with no runtime call; nothing else") {
  int on_stack = 0;
  CHECK(never_device_memory(&on_stack));
  const auto small = std::make_unique<int>(1);  // the main arena: the brk heap
  CHECK(never_device_memory(small.get()));
  bool other_thread_stack = false;
  std::thread([&] {
    int theirs = 0;
    other_thread_stack = never_device_memory(&theirs);
  }).join();
  CHECK(other_thread_stack);
  // A mapping of its own: outside both ranges, so the answer is "not known" (false), never a guess.
  void* mapped = mmap(nullptr, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mapped != MAP_FAILED);
  CHECK_FALSE(never_device_memory(mapped));
  munmap(mapped, 1 << 16);
  CHECK_FALSE(never_device_memory(nullptr));
}
