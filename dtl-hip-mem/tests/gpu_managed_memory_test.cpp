// SPDX-License-Identifier: MIT
// Managed and device-preferred memory on a real GPU: touched from host and device, advice, prefetching
// (suite gpu.managed). Allocations stay small (<= 16 MiB).
#include "doctest.hpp"

#include "gpu_support.hpp"
#include "test_kernels.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/managed_memory.hpp>
#include <dtl/hip/pointer.hpp>

#include <cstddef>
#include <cstdint>

using dtl::make_device_prefetch;
using dtl::make_host_prefetch;
using dtl::prefetch_hint;
using dtl::prefetch_policy;
using dtl::status_code;
using namespace dtl::hip;
using dtl_test::hip_current_device;

namespace {

constexpr unsigned pattern(std::size_t i) { return static_cast<unsigned>(i) * 40503u + 11u; }

// The host writes, the device adds `delta`, the host reads back.
std::size_t host_device_host_mismatches(unsigned* data, std::size_t n, unsigned delta, hipStream_t stream) {
  for (std::size_t i = 0; i < n; ++i) data[i] = pattern(i);
  REQUIRE(dtl_test_add(data, n, delta, stream) == hipSuccess);
  REQUIRE(stream_ref(stream).synchronize().has_value());
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < n; ++i) mismatches += data[i] != pattern(i) + delta;
  return mismatches;
}

}  // namespace

TEST_SUITE("gpu.managed") {
  TEST_CASE("the device's managed-memory capabilities are read and reported") {
    const int device = hip_current_device();
    const auto support = query_managed_memory_support(device);
    REQUIRE(support.has_value());
    const auto props = get_device_properties(device);
    REQUIRE(props.has_value());
    CHECK(support->managed_memory == props->managed_memory);
    CHECK(support->concurrent_managed_access == props->concurrent_managed_access);
    CHECK(support->pageable_memory_access == props->pageable_memory_access);

    hip_managed_memory_space managed;
    CHECK(managed.support().managed_memory == support->managed_memory);
    CHECK(managed.support().concurrent_managed_access == support->concurrent_managed_access);
    if (support->managed_memory) {
      CHECK(managed.availability().ok());
    } else {
      CHECK(managed.availability() == status_code::not_supported);
      CHECK(managed.allocate(64).error() == status_code::not_supported);
    }
    hip_device_preferred_memory_space preferred;
    if (support->managed_memory && support->concurrent_managed_access) {
      CHECK(preferred.availability().ok());
    } else {
      CHECK(preferred.availability() == status_code::not_supported);
      CHECK(preferred.allocate(64).error() == status_code::not_supported);
    }
    MESSAGE("managed memory " << support->managed_memory << ", concurrent managed access "
                              << support->concurrent_managed_access << ", pageable memory access "
                              << support->pageable_memory_access);
  }

  TEST_CASE("managed memory is touched by host and device") {
    const int before = hip_current_device();
    hip_managed_memory_space space;
    if (!space.availability().ok()) {
      CHECK(space.allocate(64).error() == status_code::not_supported);
      MESSAGE("this device has no managed memory: " << space.availability().to_string());
      return;
    }
    constexpr std::size_t n = (4u << 20) / sizeof(unsigned);
    const auto r = space.allocate(n * sizeof(unsigned));
    REQUIRE(r.has_value());
    auto* data = static_cast<unsigned*>(*r);
    CHECK(reinterpret_cast<std::uintptr_t>(data) % 256 == 0);
    CHECK(space.contains(data).value());
    CHECK(query_pointer(data).value().kind == memory_kind::managed);
    CHECK_FALSE(hip_memory_space().contains(data).value());
    CHECK_FALSE(hip_pinned_memory_space().contains(data).value());

    CHECK(host_device_host_mismatches(data, n, 5u, nullptr) == 0);
    dtl_test::owned_stream stream;
    CHECK(host_device_host_mismatches(data, n, 9u, stream.get()) == 0);

    CHECK(space.stats().bytes_in_use == n * sizeof(unsigned));
    CHECK(space.try_deallocate(data, n * sizeof(unsigned)).ok());
    CHECK(space.stats().bytes_in_use == 0);
    CHECK(space.stats().live_allocations == 0);
    CHECK(hip_current_device() == before);
  }

  TEST_CASE("device-preferred memory: advice, prefetch both ways, host and device use") {
    const int before = hip_current_device();
    hip_device_preferred_memory_space space;
    if (!space.availability().ok()) {
      CHECK(space.availability() == status_code::not_supported);
      CHECK(space.allocate(64).error() == status_code::not_supported);
      MESSAGE("no concurrent managed access: " << space.availability().to_string());
      return;
    }
    constexpr std::size_t n = (8u << 20) / sizeof(unsigned);
    constexpr std::size_t bytes = n * sizeof(unsigned);
    const auto r = space.allocate(bytes);
    REQUIRE(r.has_value());
    auto* data = static_cast<unsigned*>(*r);
    CHECK(space.contains(data).value());
    CHECK(query_pointer(data).value().kind == memory_kind::managed);
    CHECK(preferred_location(data, bytes).value() == space.device_id());

    for (std::size_t i = 0; i < n; ++i) data[i] = pattern(i);
    dtl_test::owned_stream stream;
    REQUIRE(space.prefetch_to_device(data, bytes, stream.ref()).has_value());
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(last_prefetch_location(data, bytes).value() == space.device_id());
    REQUIRE(dtl_test_add(data, n, 3u, stream.get()) == hipSuccess);
    REQUIRE(space.prefetch_to_host(data, bytes, stream.ref()).has_value());
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(last_prefetch_location(data, bytes).value() == location_host);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) mismatches += data[i] != pattern(i) + 3u;
    CHECK(mismatches == 0);
    // The host touched the pages; the preference for the device remains.
    CHECK(preferred_location(data, bytes).value() == space.device_id());

    // Prefetching part of the range on the default stream.
    REQUIRE(space.prefetch_to_device(data, bytes / 2).has_value());
    REQUIRE(stream_ref{}.synchronize().has_value());

    space.deallocate(data, bytes);
    CHECK(space.stats().bytes_in_use == 0);
    CHECK(space.stats().total_allocations == 1);
    CHECK(hip_current_device() == before);
  }

  TEST_CASE("advise and prefetch helpers on managed memory") {
    dtl_test::clear_pending_hip_error();
    hip_managed_memory_space space;
    if (!space.support().concurrent_managed_access) {
      MESSAGE("no concurrent managed access: advice and prefetching are not_supported here");
      if (space.availability().ok()) {
        const auto r = space.allocate(4096);
        REQUIRE(r.has_value());
        CHECK(prefetch_to_device(*r, 4096, space.device_id()).error() == status_code::not_supported);
        CHECK(prefetch_to_host(*r, 4096).error() == status_code::not_supported);
        CHECK(advise(*r, 4096, mem_advice::set_read_mostly, 0).error() == status_code::not_supported);
        space.deallocate(*r, 4096);
      }
      int host_value = 0;
      CHECK(prefetch_to_device(&host_value, 4, 0).error() == status_code::invalid_pointer);
      return;
    }
    const int device = space.device_id();
    constexpr std::size_t bytes = 1u << 20;
    const auto r = space.allocate(bytes);
    REQUIRE(r.has_value());
    void* p = *r;

    CHECK(preferred_location(p, bytes).value() == location_none);
    CHECK(advise(p, bytes, mem_advice::set_preferred_location, device).has_value());
    CHECK(preferred_location(p, bytes).value() == device);
    CHECK(advise(p, bytes, mem_advice::set_preferred_location, location_host).has_value());
    CHECK(preferred_location(p, bytes).value() == location_host);
    CHECK(advise(p, bytes, mem_advice::unset_preferred_location, device).has_value());
    CHECK(preferred_location(p, bytes).value() == location_none);
    CHECK(advise(p, bytes, mem_advice::set_read_mostly, device).has_value());
    CHECK(advise(p, bytes, mem_advice::unset_read_mostly, device).has_value());
    CHECK(advise(p, bytes, mem_advice::set_accessed_by, device).has_value());
    CHECK(advise(p, bytes, mem_advice::unset_accessed_by, device).has_value());

    dtl_test::owned_stream stream;
    CHECK(prefetch_to_device(p, bytes, device, stream.ref()).has_value());
    CHECK(prefetch_to_host(p, bytes, stream.ref()).has_value());
    CHECK(prefetch_to_device(p, bytes, device).has_value());  // default stream
    // Upstream's hints: the whole range, then only its second half (offset, size 0 = to the end).
    CHECK(prefetch(p, bytes, make_host_prefetch(), stream.ref()).has_value());
    CHECK(last_prefetch_location(p, bytes).value() == location_host);
    prefetch_hint half = make_device_prefetch(device);
    half.offset = bytes / 2;
    CHECK(prefetch(p, bytes, half, stream.ref()).has_value());
    CHECK(last_prefetch_location(static_cast<std::byte*>(p) + bytes / 2, bytes / 2).value() == device);
    CHECK(prefetch(p, bytes, prefetch_hint{}).has_value());
    CHECK(prefetch(p, bytes, prefetch_hint{prefetch_policy::bidirectional, device, 0, 0}).error() ==
          status_code::invalid_argument);
    REQUIRE(stream.ref().synchronize().has_value());
    REQUIRE(stream_ref{}.synchronize().has_value());

    // Bad input is refused before HIP sees it.
    const int n = device_count();
    CHECK(advise(p, bytes, mem_advice::set_preferred_location, n).error() == status_code::invalid_argument);
    CHECK(advise(p, bytes, mem_advice::set_accessed_by, -5).error() == status_code::invalid_argument);
    CHECK(prefetch_to_device(p, bytes, n).error() == status_code::invalid_argument);
    CHECK(prefetch_to_device(p, 0, device).error() == status_code::invalid_argument);

    // Memory that is not managed is invalid_pointer, with the kind it really is.
    hip_memory_space device_space;
    const auto d = device_space.allocate(4096);
    REQUIRE(d.has_value());
    const auto on_device = prefetch_to_device(*d, 4096, device);
    CHECK(on_device.error() == status_code::invalid_pointer);
    CHECK(on_device.error().message().find("device memory") != std::string_view::npos);
    CHECK(advise(*d, 4096, mem_advice::set_read_mostly, device).error() == status_code::invalid_pointer);
    CHECK(preferred_location(*d, 4096).error() == status_code::invalid_pointer);
    device_space.deallocate(*d, 4096);
    int host_value = 0;
    CHECK(prefetch_to_host(&host_value, sizeof host_value).error() == status_code::invalid_pointer);
    CHECK(hipGetLastError() == hipSuccess);  // nothing was left pending

    space.deallocate(p, bytes);
    CHECK(space.stats().bytes_in_use == 0);
  }

  TEST_CASE("the device-preferred space's prefetch helpers check their input") {
    hip_device_preferred_memory_space space;
    if (!space.availability().ok()) {
      CHECK(space.availability() == status_code::not_supported);
      return;
    }
    int host_value = 0;
    CHECK(space.prefetch_to_device(nullptr, 4).error() == status_code::invalid_argument);
    CHECK(space.prefetch_to_host(&host_value, 0).error() == status_code::invalid_argument);
    CHECK(space.prefetch_to_device(&host_value, 4).error() == status_code::invalid_pointer);
    CHECK(space.prefetch_to_host(&host_value, 4).error() == status_code::invalid_pointer);
  }
}
