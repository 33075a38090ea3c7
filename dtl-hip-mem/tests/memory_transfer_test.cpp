// SPDX-License-Identifier: MIT
// Transfers and managed-memory helpers without kernels: concepts, argument checks, the statuses given
// without a device (suite no_device) and for ids past the last device (suite gpu.device_ids).
#include "doctest.hpp"

#include <backends/hip/hip_memory_transfer.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/managed_memory.hpp>

#include <array>
#include <string_view>
#include <type_traits>

using dtl::status_code;
using namespace dtl::hip;

static_assert(std::is_same_v<dtl::hip::transfer_kind, dtl::transfer_kind>);
static_assert(dtl::MemoryTransfer<hip_memory_transfer>);
static_assert(dtl::AsyncMemoryTransfer<hip_memory_transfer, stream_ref>);
// A raw hipStream_t (and dtl-hip-exec's hip_stream) converts to stream_ref.
static_assert(dtl::AsyncMemoryTransfer<hip_memory_transfer, hipStream_t>);
// The signatures other layers are written against.
static_assert(std::is_same_v<decltype(&hip_memory_transfer::copy),
                             dtl::result<void> (*)(void*, const void*, std::size_t, transfer_kind)>);
static_assert(std::is_same_v<decltype(&hip_memory_transfer::copy_async),
                             dtl::result<void> (*)(void*, const void*, std::size_t, transfer_kind, stream_ref)>);

namespace {

constexpr std::array all_kinds{transfer_kind::host_to_host, transfer_kind::host_to_device,
                               transfer_kind::device_to_host, transfer_kind::device_to_device,
                               transfer_kind::automatic};

bool mentions(const dtl::status& s, std::string_view text) { return s.message().find(text) != std::string_view::npos; }

}  // namespace

TEST_SUITE("memory_transfer") {
  TEST_CASE("null pointers are invalid_argument, for every kind, sync and async") {
    std::array<unsigned char, 16> buffer{};
    for (const transfer_kind kind : all_kinds) {
      CAPTURE(dtl::transfer_kind_name(kind));
      const auto no_dst = hip_memory_transfer::copy(nullptr, buffer.data(), buffer.size(), kind);
      CHECK(no_dst.error() == status_code::invalid_argument);
      CHECK(mentions(no_dst.error(), "dst is nullptr"));
      const auto no_src = hip_memory_transfer::copy(buffer.data(), nullptr, buffer.size(), kind);
      CHECK(no_src.error() == status_code::invalid_argument);
      CHECK(mentions(no_src.error(), "src is nullptr"));
      CHECK(hip_memory_transfer::copy(nullptr, nullptr, 4, kind).error() == status_code::invalid_argument);
      CHECK(hip_memory_transfer::copy_async(nullptr, buffer.data(), 4, kind, stream_ref{}).error() ==
            status_code::invalid_argument);
      CHECK(hip_memory_transfer::copy_async(buffer.data(), nullptr, 4, kind, stream_ref{}).error() ==
            status_code::invalid_argument);
    }
  }

  TEST_CASE("zero bytes is invalid_argument") {
    std::array<unsigned char, 16> a{};
    std::array<unsigned char, 16> b{};
    for (const transfer_kind kind : all_kinds) {
      const auto sync = hip_memory_transfer::copy(a.data(), b.data(), 0, kind);
      CHECK(sync.error() == status_code::invalid_argument);
      CHECK(mentions(sync.error(), "0 bytes"));
      CHECK(hip_memory_transfer::copy_async(a.data(), b.data(), 0, kind, stream_ref{}).error() ==
            status_code::invalid_argument);
    }
  }

  TEST_CASE("an unknown kind is invalid_argument") {
    std::array<unsigned char, 16> a{};
    std::array<unsigned char, 16> b{};
    const auto bad = static_cast<transfer_kind>(42);
    CHECK(hip_memory_transfer::copy(a.data(), b.data(), 4, bad).error() == status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy_async(a.data(), b.data(), 4, bad, stream_ref{}).error() ==
          status_code::invalid_argument);
  }

  TEST_CASE("overlapping ranges are invalid_argument") {
    std::array<unsigned char, 64> buffer{};
    unsigned char* p = buffer.data();
    CHECK(hip_memory_transfer::copy(p + 8, p, 16, transfer_kind::host_to_host).error() ==
          status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy(p, p + 15, 16, transfer_kind::automatic).error() == status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy(p, p, 1, transfer_kind::host_to_host).error() == status_code::invalid_argument);
    CHECK(hip_memory_transfer::copy_async(p + 1, p, 2, transfer_kind::host_to_host, stream_ref{}).error() ==
          status_code::invalid_argument);
    // Adjacent ranges do not overlap: what they get depends only on whether a device exists.
    const auto adjacent = hip_memory_transfer::copy(p + 16, p, 16, transfer_kind::host_to_host);
    if (device_count() == 0) {
      CHECK(adjacent.error() == status_code::backend_not_available);
    } else {
      CHECK(adjacent.has_value());
    }
  }
}

TEST_SUITE("managed_memory") {
  TEST_CASE("names of advice") {
    CHECK(mem_advice_name(mem_advice::set_read_mostly) == "set_read_mostly");
    CHECK(mem_advice_name(mem_advice::unset_read_mostly) == "unset_read_mostly");
    CHECK(mem_advice_name(mem_advice::set_preferred_location) == "set_preferred_location");
    CHECK(mem_advice_name(mem_advice::unset_preferred_location) == "unset_preferred_location");
    CHECK(mem_advice_name(mem_advice::set_accessed_by) == "set_accessed_by");
    CHECK(mem_advice_name(mem_advice::unset_accessed_by) == "unset_accessed_by");
    CHECK(mem_advice_name(static_cast<mem_advice>(77)) == "unknown_mem_advice");
  }

  TEST_CASE("argument checks need no device") {
    int host_value = 0;
    CHECK(advise(nullptr, 4, mem_advice::set_read_mostly, 0).error() == status_code::invalid_argument);
    CHECK(advise(&host_value, 0, mem_advice::set_read_mostly, 0).error() == status_code::invalid_argument);
    CHECK(advise(&host_value, 4, static_cast<mem_advice>(77), 0).error() == status_code::invalid_argument);
    CHECK(prefetch_to_device(nullptr, 4, 0).error() == status_code::invalid_argument);
    CHECK(prefetch_to_device(&host_value, 0, 0).error() == status_code::invalid_argument);
    CHECK(prefetch_to_host(nullptr, 4).error() == status_code::invalid_argument);
    CHECK(prefetch_to_host(&host_value, 0).error() == status_code::invalid_argument);
    CHECK(preferred_location(nullptr, 4).error() == status_code::invalid_argument);
    CHECK(last_prefetch_location(&host_value, 0).error() == status_code::invalid_argument);
  }

  TEST_CASE("a bad device id is refused before anything else is looked at") {
    int host_value = 0;
    CHECK(query_managed_memory_support(-1).error() == status_code::invalid_argument);
    CHECK(advise(&host_value, 4, mem_advice::set_preferred_location, -7).error() == status_code::invalid_argument);
    CHECK(advise(&host_value, 4, mem_advice::set_accessed_by, -2).error() == status_code::invalid_argument);
    CHECK(prefetch_to_device(&host_value, 4, -3).error() == status_code::invalid_argument);
  }
}

// Meson test no_device (--requires=no-device): SKIP where a device is present.
TEST_SUITE("no_device") {
  TEST_CASE("without a device a well-formed copy is backend_not_available") {
    std::array<unsigned char, 16> a{};
    std::array<unsigned char, 16> b{};
    for (const transfer_kind kind : all_kinds) {
      CHECK(hip_memory_transfer::copy(a.data(), b.data(), a.size(), kind).error() ==
            status_code::backend_not_available);
      CHECK(hip_memory_transfer::copy_async(a.data(), b.data(), a.size(), kind, stream_ref{}).error() ==
            status_code::backend_not_available);
    }
  }

  TEST_CASE("without a device the managed-memory helpers say so") {
    int host_value = 0;
    CHECK(query_managed_memory_support(0).error() == status_code::backend_not_available);
    CHECK(advise(&host_value, 4, mem_advice::set_read_mostly, 0).error() == status_code::backend_not_available);
    CHECK(advise(&host_value, 4, mem_advice::set_preferred_location, location_host).error() ==
          status_code::backend_not_available);
    CHECK(prefetch_to_device(&host_value, 4, 0).error() == status_code::backend_not_available);
    CHECK(prefetch_to_host(&host_value, 4).error() == status_code::backend_not_available);
    CHECK(preferred_location(&host_value, 4).error() == status_code::backend_not_available);
  }
}

// Meson test gpu-device-ids (--requires=devices:1): SKIP without a device.
TEST_SUITE("gpu.device_ids") {
  TEST_CASE("a managed-memory query for an id past the last device is invalid_argument") {
    CHECK(query_managed_memory_support(device_count()).error() == status_code::invalid_argument);
  }
}
