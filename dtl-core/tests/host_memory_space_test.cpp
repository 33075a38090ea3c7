// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/host_memory_transfer.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

TEST_SUITE("host_memory_space") {
  TEST_CASE("allocates aligned, writable memory and counts it") {
    dtl::host_memory_space space;
    auto r = space.allocate(1000);
    REQUIRE(r.has_value());
    void* p = r.value();
    CHECK(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t) == 0);
    std::memset(p, 0xab, 1000);
    auto s = space.stats();
    CHECK(s.bytes_in_use == 1000);
    CHECK(s.live_allocations == 1);
    space.deallocate(p, 1000);
    s = space.stats();
    CHECK(s.bytes_in_use == 0);
    CHECK(s.peak_bytes == 1000);
    CHECK(s.live_allocations == 0);
    CHECK(s.total_allocations == 1);
  }

  TEST_CASE("honours every power-of-two alignment up to the maximum") {
    dtl::host_memory_space space;
    for (std::size_t align = 1; align <= dtl::host_memory_space::max_alignment; align *= 2) {
      auto r = space.allocate(24, align);
      REQUIRE(r.has_value());
      CHECK(reinterpret_cast<std::uintptr_t>(r.value()) % align == 0);
      space.deallocate(r.value(), 24);
    }
    CHECK(space.stats().bytes_in_use == 0);
  }

  TEST_CASE("bad requests are errors, never nullptr") {
    dtl::host_memory_space space;
    CHECK(space.allocate(0).error() == dtl::status_code::invalid_argument);
    CHECK(space.allocate(64, 3).error() == dtl::status_code::invalid_argument);
    CHECK(space.allocate(64, 0).error() == dtl::status_code::invalid_argument);
    CHECK(space.allocate(64, 8192).error() == dtl::status_code::invalid_argument);
    CHECK(space.allocate(std::numeric_limits<std::size_t>::max()).error() == dtl::status_code::out_of_memory);
    auto huge = space.allocate(std::size_t{1} << 62);  // 4 EiB: no host has it
    CHECK(huge.error() == dtl::status_code::out_of_memory);
    CHECK(huge.error().has_native());
    CHECK(space.stats().total_allocations == 0);
    space.deallocate(nullptr, 10);  // ignored
    CHECK(space.stats().live_allocations == 0);
    // The space is still usable after failures.
    auto ok = space.allocate(8);
    REQUIRE(ok.has_value());
    space.deallocate(ok.value(), 8);
  }

  TEST_CASE("properties") {
    const dtl::host_memory_space space;
    const auto p = space.properties();
    CHECK(p.host_accessible);
    CHECK_FALSE(p.device_accessible);
    CHECK_FALSE(p.unified);
    CHECK(p.device_id == dtl::no_device);
    CHECK(space.name() == "host");
  }

  TEST_CASE("8 threads allocating concurrently keep exact statistics") {
    dtl::host_memory_space space;
    constexpr int threads = 8, rounds = 2000;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&space, t] {
        std::vector<std::pair<void*, std::size_t>> held;
        for (int i = 0; i < rounds; ++i) {
          const std::size_t bytes = 16 + static_cast<std::size_t>((t * rounds + i) % 64);
          auto r = space.allocate(bytes);
          if (r.has_value()) held.emplace_back(r.value(), bytes);
          if (held.size() > 16) {
            space.deallocate(held.front().first, held.front().second);
            held.erase(held.begin());
          }
        }
        for (auto [p, b] : held) space.deallocate(p, b);
      });
    }
    for (auto& th : pool) th.join();
    const auto s = space.stats();
    CHECK(s.total_allocations == threads * rounds);
    CHECK(s.bytes_in_use == 0);
    CHECK(s.live_allocations == 0);
    CHECK(s.peak_bytes >= 16 * 17);
    CHECK(s.peak_bytes <= threads * 17 * 80);
  }
}

namespace {

int wrong_size_reports = 0;
std::string last_wrong_size_report;

void count_wrong_size(const dtl::status& s) noexcept {
  ++wrong_size_reports;
  last_wrong_size_report = std::string(s.message());
}

}  // namespace

TEST_SUITE("allocation_stats") {
  TEST_CASE("a deallocation larger than what is in use clamps at zero and says so") {
    dtl::allocation_counter counter;
    counter.record_allocate(64);
    CHECK_FALSE(counter.record_deallocate(128));  // more than was allocated
    auto s = counter.snapshot();
    CHECK(s.bytes_in_use == 0);  // clamped, never 2^64 - 64
    CHECK(s.live_allocations == 0);
    CHECK(s.peak_bytes == 64);
    CHECK_FALSE(counter.record_deallocate(1));  // nothing is live any more
    s = counter.snapshot();
    CHECK(s.bytes_in_use == 0);
    CHECK(s.live_allocations == 0);
  }

  TEST_CASE("matching deallocations are accepted") {
    dtl::allocation_counter counter;
    counter.record_allocate(10);
    counter.record_allocate(20);
    CHECK(counter.record_deallocate(20));
    CHECK(counter.record_deallocate(10));
    const auto s = counter.snapshot();
    CHECK(s.bytes_in_use == 0);
    CHECK(s.live_allocations == 0);
    CHECK(s.total_allocations == 2);
    CHECK(s.peak_bytes == 30);
  }
}

TEST_SUITE("host_memory_space") {
  TEST_CASE("deallocate with a size larger than allocated is reported and the counters never wrap") {
    dtl::host_memory_space space;
    auto r = space.allocate(64);
    REQUIRE(r.has_value());
    const dtl::unhandled_error_handler previous = dtl::set_unhandled_error_handler(count_wrong_size);
    wrong_size_reports = 0;
    space.deallocate(r.value(), 128);
    dtl::set_unhandled_error_handler(previous);
    CHECK(wrong_size_reports == 1);
    CHECK(last_wrong_size_report.find("128") != std::string::npos);
    const auto s = space.stats();
    CHECK(s.bytes_in_use == 0);  // clamped: not 18446744073709551552
    CHECK(s.live_allocations == 0);
  }
}

TEST_SUITE("host_memory_transfer") {
  TEST_CASE("copies host to host and rejects what it cannot do") {
    const char src[] = "dtl-core";
    char dst[sizeof src] = {};
    CHECK(dtl::host_memory_transfer::copy(dst, src, sizeof src, dtl::transfer_kind::host_to_host).has_value());
    CHECK(std::string_view(dst) == "dtl-core");
    char dst2[sizeof src] = {};
    CHECK(dtl::host_memory_transfer::copy(dst2, src, sizeof src, dtl::transfer_kind::automatic).has_value());
    CHECK(std::string_view(dst2) == "dtl-core");
    using dtl::transfer_kind;
    CHECK(dtl::host_memory_transfer::copy(dst, src, 1, transfer_kind::host_to_device).error() ==
          dtl::status_code::not_supported);
    CHECK(dtl::host_memory_transfer::copy(nullptr, src, 1, transfer_kind::host_to_host).error() ==
          dtl::status_code::invalid_argument);
    CHECK(dtl::host_memory_transfer::copy(dst, nullptr, 1, transfer_kind::host_to_host).error() ==
          dtl::status_code::invalid_argument);
    CHECK(dtl::host_memory_transfer::copy(dst, src, 0, transfer_kind::host_to_host).error() ==
          dtl::status_code::invalid_argument);
  }
}
