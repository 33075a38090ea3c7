// SPDX-License-Identifier: MIT
// hip_memory_transfer and pointer queries on a real GPU (suite gpu.transfer).
#include "doctest.hpp"

#include "gpu_support.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/pointer.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

using dtl::status_code;
using namespace dtl::hip;
using dtl_test::device_buffer;
using dtl_test::hip_current_device;

namespace {

bool mentions(const dtl::status& s, std::string_view text) { return s.message().find(text) != std::string_view::npos; }

// H2D -> D2D -> D2H of random never-zero bytes through two device buffers; the host copy must match and
// nothing may be written around it.
void round_trip(std::size_t bytes, bool async) {
  CAPTURE(bytes);
  CAPTURE(async);
  const int before = hip_current_device();
  hip_memory_space space;
  device_buffer d1(space, bytes);
  device_buffer d2(space, bytes);
  std::vector<unsigned char> src(bytes);
  dtl_test::fill_never_zero(src.data(), bytes, 0x9e3779b97f4a7c15ull ^ bytes);
  dtl_test::guarded_buffer dst(bytes);

  if (async) {
    dtl_test::owned_stream stream;
    REQUIRE(hip_memory_transfer::copy_async(d1.get(), src.data(), bytes, transfer_kind::host_to_device, stream.ref())
                .has_value());
    REQUIRE(hip_memory_transfer::copy_async(d2.get(), d1.get(), bytes, transfer_kind::device_to_device, stream.ref())
                .has_value());
    REQUIRE(hip_memory_transfer::copy_async(dst.data(), d2.get(), bytes, transfer_kind::device_to_host, stream.ref())
                .has_value());
    REQUIRE(stream.ref().synchronize().has_value());
  } else {
    REQUIRE(hip_memory_transfer::copy(d1.get(), src.data(), bytes, transfer_kind::host_to_device).has_value());
    REQUIRE(hip_memory_transfer::copy(d2.get(), d1.get(), bytes, transfer_kind::device_to_device).has_value());
    REQUIRE(hip_memory_transfer::copy(dst.data(), d2.get(), bytes, transfer_kind::device_to_host).has_value());
  }
  CHECK(std::memcmp(src.data(), dst.data(), bytes) == 0);
  CHECK(dst.guards_intact());
  CHECK(hip_current_device() == before);
}

}  // namespace

TEST_SUITE("gpu.transfer") {
  TEST_CASE("round trips H2D -> D2D -> D2H from 1 byte to 1 GiB") {
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{3}, std::size_t{4096}, (std::size_t{1} << 20) + 7,
                                    std::size_t{64} << 20, std::size_t{1} << 30}) {
      round_trip(bytes, false);
    }
  }

  TEST_CASE("async round trips from pageable memory, waited on") {
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{4099}, (std::size_t{8} << 20) + 1}) {
      round_trip(bytes, true);
    }
  }

  TEST_CASE("automatic copies work out the direction") {
    hip_memory_space space;
    constexpr std::size_t bytes = (1u << 20) + 13;
    device_buffer d1(space, bytes);
    device_buffer d2(space, bytes);
    std::vector<unsigned char> src(bytes);
    dtl_test::fill_never_zero(src.data(), bytes, 7);
    dtl_test::guarded_buffer dst(bytes);
    REQUIRE(hip_memory_transfer::copy(d1.get(), src.data(), bytes, transfer_kind::automatic).has_value());
    REQUIRE(hip_memory_transfer::copy(d2.get(), d1.get(), bytes, transfer_kind::automatic).has_value());
    REQUIRE(hip_memory_transfer::copy(dst.data(), d2.get(), bytes, transfer_kind::automatic).has_value());
    CHECK(std::memcmp(src.data(), dst.data(), bytes) == 0);
    CHECK(dst.guards_intact());
  }

  TEST_CASE("host_to_host between pageable and pinned buffers") {
    constexpr std::size_t bytes = 300'001;
    std::vector<unsigned char> src(bytes);
    dtl_test::fill_never_zero(src.data(), bytes, 3);
    hip_pinned_memory_space pinned;
    const auto p = pinned.allocate(bytes);
    REQUIRE(p.has_value());
    std::memset(*p, 0, bytes);
    dtl_test::guarded_buffer dst(bytes);
    REQUIRE(hip_memory_transfer::copy(*p, src.data(), bytes, transfer_kind::host_to_host).has_value());
    REQUIRE(hip_memory_transfer::copy(dst.data(), *p, bytes, transfer_kind::host_to_host).has_value());
    CHECK(std::memcmp(src.data(), dst.data(), bytes) == 0);
    CHECK(dst.guards_intact());
    pinned.deallocate(*p, bytes);
  }

  TEST_CASE("managed memory may stand on either side") {
    hip_managed_memory_space managed;
    if (!managed.availability().ok()) {
      MESSAGE("no managed memory on this device: " << managed.availability().to_string());
      CHECK(managed.availability() == status_code::not_supported);
      return;
    }
    constexpr std::size_t bytes = 1u << 16;
    const auto m = managed.allocate(bytes);
    REQUIRE(m.has_value());
    hip_memory_space space;
    device_buffer d(space, bytes);
    std::vector<unsigned char> src(bytes);
    dtl_test::fill_never_zero(src.data(), bytes, 11);
    dtl_test::guarded_buffer dst(bytes);
    REQUIRE(hip_memory_transfer::copy(*m, src.data(), bytes, transfer_kind::host_to_host).has_value());
    REQUIRE(hip_memory_transfer::copy(d.get(), *m, bytes, transfer_kind::device_to_device).has_value());
    std::memset(*m, 0, bytes);
    REQUIRE(hip_memory_transfer::copy(*m, d.get(), bytes, transfer_kind::device_to_host).has_value());
    REQUIRE(hip_memory_transfer::copy(dst.data(), *m, bytes, transfer_kind::device_to_host).has_value());
    CHECK(std::memcmp(src.data(), dst.data(), bytes) == 0);
    CHECK(std::memcmp(src.data(), *m, bytes) == 0);  // the host reads managed memory directly
    managed.deallocate(*m, bytes);
  }

  TEST_CASE("a kind that contradicts the pointers is invalid_pointer, and nothing is copied") {
    dtl_test::clear_pending_hip_error();
    const int before = hip_current_device();
    hip_memory_space space;
    hip_pinned_memory_space pinned;
    constexpr std::size_t bytes = 4096;
    device_buffer d1(space, bytes);
    device_buffer d2(space, bytes);
    const auto pin = pinned.allocate(bytes);
    REQUIRE(pin.has_value());
    std::vector<unsigned char> host(bytes, 0x11);
    std::vector<unsigned char> host2(bytes, 0x22);
    std::memset(*pin, 0x33, bytes);
    dtl_test::owned_stream stream;

    struct bad_copy {
      void* dst;
      const void* src;
      transfer_kind kind;
      const char* says;  // part of the message
    };
    const std::array cases{
        bad_copy{d1.get(), host.data(), transfer_kind::device_to_host, "src"},  // src is host, not device
        bad_copy{host.data(), d1.get(), transfer_kind::host_to_device, "src"},  // src is device, not host
        bad_copy{host.data(), host2.data(), transfer_kind::device_to_device, "src"},
        bad_copy{d2.get(), d1.get(), transfer_kind::host_to_host, "src"},
        bad_copy{d1.get(), *pin, transfer_kind::device_to_device, "src"},    // pinned host is not device
        bad_copy{host.data(), *pin, transfer_kind::host_to_device, "dst"},   // dst is host, not device
        bad_copy{d1.get(), d2.get(), transfer_kind::device_to_host, "dst"},  // dst is device, not host
        bad_copy{*pin, d1.get(), transfer_kind::device_to_device, "dst"},
        bad_copy{d1.get(), host.data(), transfer_kind::host_to_host, "dst"},
    };
    for (const bad_copy& c : cases) {
      CAPTURE(dtl::transfer_kind_name(c.kind));
      CAPTURE(c.says);
      const auto sync = hip_memory_transfer::copy(c.dst, c.src, bytes, c.kind);
      CHECK(sync.error() == status_code::invalid_pointer);
      CHECK(mentions(sync.error(), std::string(c.says) + " ("));
      CHECK(mentions(sync.error(), dtl::transfer_kind_name(c.kind)));
      CHECK(hip_memory_transfer::copy_async(c.dst, c.src, bytes, c.kind, stream.ref()).error() ==
            status_code::invalid_pointer);
      CHECK(hip_current_device() == before);
    }
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(hipGetLastError() == hipSuccess);  // the pointer queries left no error pending
    for (const unsigned char b : host) REQUIRE(b == 0x11);
    for (const unsigned char b : host2) REQUIRE(b == 0x22);
    const auto* pinned_bytes = static_cast<const unsigned char*>(*pin);
    for (std::size_t i = 0; i < bytes; ++i) REQUIRE(pinned_bytes[i] == 0x33);
    pinned.deallocate(*pin, bytes);
  }

  TEST_CASE("null pointers, 0 bytes and overlaps are refused with a device present") {
    hip_memory_space space;
    device_buffer d(space, 256);
    std::array<unsigned char, 256> host{};
    CHECK(hip_memory_transfer::copy(nullptr, host.data(), 4, transfer_kind::host_to_device).error() ==
          status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy(d.get(), nullptr, 4, transfer_kind::host_to_device).error() ==
          status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy(d.get(), host.data(), 0, transfer_kind::host_to_device).error() ==
          status_code::invalid_argument);
    auto* bytes = static_cast<unsigned char*>(d.get());
    CHECK(hip_memory_transfer::copy(bytes + 64, bytes, 128, transfer_kind::device_to_device).error() ==
          status_code::invalid_argument);
    CHECK(
        hip_memory_transfer::copy_async(bytes, bytes + 8, 64, transfer_kind::device_to_device, stream_ref{}).error() ==
        status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy(bytes + 128, bytes, 128, transfer_kind::device_to_device).has_value());
  }

  TEST_CASE("a copy past the end of an allocation says so, with the allocation's size") {
    // It used to get the runtime's unclear error, or "overlap" when it ran into the next allocation.
    hip_memory_space space;
    device_buffer a(space, 1024);
    std::vector<unsigned char> host(4096);
    const auto past = hip_memory_transfer::copy(a.get() + 512, host.data(), 1024, transfer_kind::host_to_device);
    REQUIRE(past.has_error());
    CHECK(past.error() == status_code::invalid_argument);
    CHECK(past.error().message().find("past the end of its 1024-byte allocation (512 bytes left)") !=
          std::string::npos);
    const auto from = hip_memory_transfer::copy(host.data(), a.get(), 2048, transfer_kind::device_to_host);
    REQUIRE(from.has_error());
    CHECK(from.error().message().find("src") != std::string::npos);
    CHECK(hip_memory_transfer::copy(a.get() + 512, host.data(), 512, transfer_kind::host_to_device).has_value());
  }

  TEST_CASE("query_pointer classifies every kind of memory") {
    dtl_test::clear_pending_hip_error();
    std::array<unsigned char, 64> stack_bytes{};
    std::vector<unsigned char> heap_bytes(1u << 20);
    for (const void* p : {static_cast<const void*>(stack_bytes.data()), static_cast<const void*>(heap_bytes.data())}) {
      const auto attr = query_pointer(p);
      REQUIRE(attr.has_value());
      CHECK(attr->kind == memory_kind::host_pageable);
      CHECK(attr->device == dtl::no_device);
      CHECK(hipGetLastError() == hipSuccess);  // an unknown host pointer leaves no error behind
    }

    const int device = hip_current_device();
    hip_memory_space space;
    device_buffer d(space, 1u << 16);
    const auto on_device = query_pointer(d.get() + 4097);  // an interior pointer
    REQUIRE(on_device.has_value());
    CHECK(on_device->kind == memory_kind::device);
    CHECK(on_device->device == device);

    hip_pinned_memory_space pinned;
    const auto p = pinned.allocate(4096);
    REQUIRE(p.has_value());
    CHECK(query_pointer(*p).value().kind == memory_kind::host_pinned);
    pinned.deallocate(*p, 4096);

    hip_managed_memory_space managed;
    if (managed.availability().ok()) {
      const auto m = managed.allocate(4096);
      REQUIRE(m.has_value());
      CHECK(query_pointer(*m).value().kind == memory_kind::managed);
      managed.deallocate(*m, 4096);
    }
    CHECK(hipGetLastError() == hipSuccess);
  }
}
