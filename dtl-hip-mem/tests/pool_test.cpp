// SPDX-License-Identifier: MIT
// hip_pool_memory_space and the staging options without a device: the backing selection, size classes,
// argument checks and the statuses given without a device (suite unit).
#include "doctest.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

using dtl::status_code;
using namespace dtl::hip;

static_assert(dtl::MemorySpace<hip_pool_memory_space>);
static_assert(!hip_pool_memory_space::host_accessible && hip_pool_memory_space::device_accessible);
static_assert(hip_pool_memory_space::name() == "hip_pool");
static_assert(!std::is_copy_constructible_v<hip_pool_memory_space> &&
              !std::is_move_constructible_v<hip_pool_memory_space>);
// Streams plug in as stream_ref: a raw hipStream_t converts (dtl-hip-exec's hip_stream too; see its tests).
static_assert(requires(hip_pool_memory_space & pool, hipStream_t s, void* p) {
  { pool.allocate(std::size_t{64}, s) } -> std::same_as<dtl::result<void*>>;
  { pool.deallocate(p, std::size_t{64}, s) }
  noexcept;
  { pool.try_deallocate(p, std::size_t{64}, s) } -> std::same_as<dtl::status>;
});
// allocate(bytes, alignment) stays the MemorySpace overload: an integer is never taken for a stream.
static_assert(std::is_same_v<decltype(std::declval<hip_pool_memory_space&>().allocate(std::size_t{64}, 256)),
                             dtl::result<void*>>);
// pool_stats is allocation_stats and more, so generic code reading allocation_stats works on a pool.
static_assert(std::is_base_of_v<dtl::allocation_stats, pool_stats>);

// Size classes: 256, 512, then four per power of two.
static_assert(hip_pool_memory_space::block_size(0) == 0);
static_assert(hip_pool_memory_space::block_size(1) == 256);
static_assert(hip_pool_memory_space::block_size(256) == 256);
static_assert(hip_pool_memory_space::block_size(257) == 512);
static_assert(hip_pool_memory_space::block_size(512) == 512);
static_assert(hip_pool_memory_space::block_size(513) == 640);
static_assert(hip_pool_memory_space::block_size(1000) == 1024);
static_assert(hip_pool_memory_space::block_size(1024) == 1024);
static_assert(hip_pool_memory_space::block_size(1025) == 1280);
static_assert(hip_pool_memory_space::block_size(3u << 20) == (3u << 20));
static_assert(hip_pool_memory_space::block_size((3u << 20) + 1) == (7u << 19));
static_assert(hip_pool_memory_space::block_size(std::size_t{1} << 62) == (std::size_t{1} << 62));
static_assert(hip_pool_memory_space::block_size((std::size_t{1} << 62) + 1) == 0);

namespace {

pool_options with_backing(pool_backing backing) {
  pool_options options;
  options.backing = backing;
  return options;
}

}  // namespace

TEST_SUITE("pool") {
  TEST_CASE("every size class holds its request and wastes at most a quarter") {
    for (std::size_t bytes = 1; bytes < (std::size_t{1} << 40); bytes = bytes * 3 / 2 + 1) {
      CAPTURE(bytes);
      const std::size_t block = hip_pool_memory_space::block_size(bytes);
      CHECK(block >= bytes);
      CHECK(block % 256 == 0);
      if (bytes > 512) CHECK(block - bytes < block / 4 + 1);
      CHECK(hip_pool_memory_space::block_size(block) == block);  // a class maps to itself
    }
  }

  TEST_CASE("backing names parse back") {
    for (const pool_backing b :
         {pool_backing::automatic, pool_backing::runtime, pool_backing::caching, pool_backing::direct}) {
      const auto parsed = parse_pool_backing(pool_backing_name(b));
      REQUIRE(parsed.has_value());
      CHECK(*parsed == b);
    }
    CHECK(parse_pool_backing("auto").value() == pool_backing::automatic);
    CHECK(parse_pool_backing("").error() == status_code::invalid_argument);
    CHECK(parse_pool_backing("Caching").error() == status_code::invalid_argument);
    CHECK(pool_backing_name(static_cast<pool_backing>(42)) == "unknown_pool_backing");
  }

  TEST_CASE("backing selection: constructor, then environment, then platform") {
    using enum pool_backing;
    // The platform's choice.
    CHECK(select_pool_backing(automatic, "", true, true).value() == runtime);
    CHECK(select_pool_backing(automatic, "", true, false).value() == caching);
    CHECK(select_pool_backing(automatic, "", false, true).value() == caching);
    // The environment overrides the platform...
    CHECK(select_pool_backing(automatic, "direct", true, true).value() == direct);
    CHECK(select_pool_backing(automatic, "caching", true, true).value() == caching);
    CHECK(select_pool_backing(automatic, "runtime", true, false).value() == runtime);
    CHECK(select_pool_backing(automatic, "automatic", true, false).value() == caching);
    CHECK(select_pool_backing(automatic, "auto", true, true).value() == runtime);
    // ...and the constructor overrides the environment.
    CHECK(select_pool_backing(caching, "direct", true, true).value() == caching);
    CHECK(select_pool_backing(direct, "runtime", true, true).value() == direct);
    // Never a silent fallback: what cannot be had, or cannot be read, is an error.
    CHECK(select_pool_backing(runtime, "", false, true).error() == status_code::not_supported);
    CHECK(select_pool_backing(automatic, "runtime", false, true).error() == status_code::not_supported);
    const auto bad = select_pool_backing(automatic, "fastest", true, true);
    CHECK(bad.error() == status_code::invalid_argument);
    CHECK(bad.error().message().find("DTL_HIP_POOL_BACKING") != std::string_view::npos);
    CHECK(select_pool_backing(static_cast<pool_backing>(9), "", true, true).error() == status_code::invalid_argument);
  }

  TEST_CASE("reserve judges its count before any device is involved") {
    // SIZE_MAX used to throw std::length_error (runtime backing) or never return (caching).
    hip_pool_memory_space pool;
    for (const std::size_t count : {hip_pool_memory_space::max_reserve_count + 1, SIZE_MAX}) {
      const dtl::status s = pool.reserve(std::size_t{1} << 20, count);
      CHECK(s == status_code::invalid_argument);
      CHECK(s.message().find("max_reserve_count") != std::string_view::npos);
    }
    const dtl::status overflow = pool.reserve(std::size_t{1} << 50, hip_pool_memory_space::max_reserve_count);
    CHECK(overflow == status_code::invalid_argument);
    CHECK(overflow.message().find("overflows") != std::string_view::npos);
    CHECK(pool.reserve(0, 4) == status_code::invalid_argument);  // 0 bytes
    const dtl::status none = pool.reserve(1024, 0);              // nothing to do: ok, or the pool's own unavailability
    CHECK((none.ok() || none == pool.availability()));
  }

  TEST_CASE("requests are checked before any device is involved") {
    hip_pool_memory_space pool;
    CHECK(pool.allocate(0).error() == status_code::invalid_argument);
    CHECK(pool.allocate(0, stream_ref{}).error() == status_code::invalid_argument);
    CHECK(pool.allocate(64, 3).error() == status_code::invalid_argument);
    CHECK(pool.allocate(64, 512).error() == status_code::invalid_argument);
    CHECK(pool.allocate(~std::size_t{0}).error() == status_code::out_of_memory);
    CHECK(pool.try_deallocate(nullptr, 64).ok());  // as free(nullptr), whatever the size
    CHECK(pool.try_deallocate(nullptr, 0).ok());
    pool.deallocate(nullptr, 64);
    CHECK(pool.stats().total_allocations == 0);
    CHECK_FALSE(pool.contains(nullptr));
    CHECK(pool.backing() != pool_backing::automatic);
    CHECK(pool.stats().backing == pool.backing());
    CHECK(pool.name() == "hip_pool");
    const dtl::memory_space_properties p = pool.properties();
    CHECK_FALSE(p.host_accessible);
    CHECK(p.device_accessible);
    CHECK(p.alignment == 256);
  }
}

TEST_SUITE("staging") {
  TEST_CASE("the options in force can be read and changed, and bad ones are refused") {
    const staging_options before = hip_memory_transfer::staging();
    CHECK(before.chunk_bytes >= 4096);
    CHECK(before.chunks >= 2);
    CHECK(before.threads >= 1);
    CHECK(before.min_bytes >= 1);

    staging_options changed = before;
    changed.chunk_bytes = 64 << 10;
    changed.chunks = 2;
    changed.threads = 3;
    changed.min_bytes = 1;
    REQUIRE(hip_memory_transfer::set_staging(changed).ok());
    const staging_options now = hip_memory_transfer::staging();
    CHECK(now.chunk_bytes == changed.chunk_bytes);
    CHECK(now.chunks == 2);
    CHECK(now.threads == 3);
    CHECK(now.min_bytes == 1);

    const auto refused = [&](auto change) {
      staging_options bad = before;
      change(bad);
      return hip_memory_transfer::set_staging(bad) == status_code::invalid_argument;
    };
    CHECK(refused([](staging_options& o) { o.chunk_bytes = 4095; }));
    CHECK(refused([](staging_options& o) { o.chunk_bytes = (std::size_t{1} << 30) + 1; }));
    CHECK(refused([](staging_options& o) { o.chunks = 1; }));
    CHECK(refused([](staging_options& o) { o.chunks = 17; }));
    CHECK(refused([](staging_options& o) { o.threads = 0; }));
    CHECK(refused([](staging_options& o) { o.threads = 65; }));
    CHECK(refused([](staging_options& o) { o.min_bytes = 0; }));
    CHECK(hip_memory_transfer::staging().chunk_bytes == changed.chunk_bytes);  // a refusal changes nothing

    REQUIRE(hip_memory_transfer::set_staging(before).ok());
    CHECK(hip_memory_transfer::staging().chunk_bytes == before.chunk_bytes);
  }
}

// Runs only where the runtime finds no device (--requires=no-device).
TEST_SUITE("no_device") {
  TEST_CASE("without a device every pool says so") {
    for (const pool_backing b : {pool_backing::automatic, pool_backing::caching, pool_backing::direct}) {
      CAPTURE(pool_backing_name(b));
      hip_pool_memory_space pool(with_backing(b));
      CHECK(pool.availability() == status_code::backend_not_available);
      CHECK(pool.allocate(64).error() == status_code::backend_not_available);
      CHECK(pool.allocate(64, stream_ref{}).error() == status_code::backend_not_available);
      int host_value = 0;
      CHECK(pool.try_deallocate(&host_value, sizeof host_value) == status_code::backend_not_available);
      CHECK(pool.reserve(1024) == status_code::backend_not_available);
      CHECK(pool.trim() == status_code::backend_not_available);
      CHECK(pool.device_id() == dtl::no_device);
      CHECK(pool.stats().bytes_reserved == 0);
      if (b != pool_backing::automatic) CHECK(pool.backing() == b);
    }
    // A backing that is no backing at all is the caller's argument, reported before the missing device.
    hip_pool_memory_space bad(with_backing(static_cast<pool_backing>(9)));
    CHECK(bad.availability() == status_code::invalid_argument);
    // The runtime's pools cannot be had without a device; the missing device is the answer.
    hip_pool_memory_space runtime(with_backing(pool_backing::runtime));
    CHECK(runtime.availability() == status_code::backend_not_available);
    pool_options on_device_3;
    on_device_3.device = 3;
    hip_pool_memory_space on3(on_device_3);
    CHECK(on3.availability() == status_code::backend_not_available);
  }
}
