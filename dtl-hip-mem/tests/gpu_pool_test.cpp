// SPDX-License-Identifier: MIT
// hip_pool_memory_space on a real GPU (suites gpu.pool and gpu.pool_oom). Meson runs this binary once per
// backing, named in DTL_HIP_POOL_BACKING; every pool here is built with pool_backing::automatic.
#include "doctest.hpp"

#include "gpu_support.hpp"
#include "test_kernels.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>
#include <dtl/hip/pointer.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

using dtl::status_code;
using namespace dtl::hip;
using dtl_test::hip_current_device;

namespace {

/// About 25-35 ms of GPU time at 1.5-2 GHz: long enough for the host to free and reallocate meanwhile.
constexpr long long slow_cycles = 50'000'000;

pool_backing backing_under_test() {
  const char* name = std::getenv("DTL_HIP_POOL_BACKING");
  const auto parsed = parse_pool_backing(name != nullptr ? name : "automatic");
  return parsed.has_value() ? *parsed : pool_backing::automatic;
}

/// n unsigned values of device memory, read with a plain hipMemcpy (not through the code under test).
std::vector<unsigned> read_back(const void* device, std::size_t n) {
  std::vector<unsigned> host(n, 0);
  REQUIRE(hipMemcpy(host.data(), device, n * sizeof(unsigned), hipMemcpyDeviceToHost) == hipSuccess);
  return host;
}

std::size_t count_not(const std::vector<unsigned>& values, unsigned expected) {
  return static_cast<std::size_t>(
      std::count_if(values.begin(), values.end(), [&](unsigned v) { return v != expected; }));
}

/// True while `stream` still has work (and leaves no error pending).
bool busy(hipStream_t stream) {
  const hipError_t e = hipStreamQuery(stream);
  if (e == hipErrorNotReady) static_cast<void>(hipGetLastError());
  return e == hipErrorNotReady;
}

}  // namespace

TEST_SUITE("gpu.pool") {
  TEST_CASE("the pool has the backing asked for and hands out device memory of the current device") {
    const int device = hip_current_device();
    hip_pool_memory_space pool;
    REQUIRE(pool.availability().ok());
    if (std::getenv("DTL_HIP_POOL_BACKING") != nullptr) CHECK(pool.backing() == backing_under_test());
    CHECK(pool.backing() != pool_backing::automatic);
    CHECK(pool.stats().backing == pool.backing());
    CHECK(pool.device_id() == device);
    dtl_test::owned_stream stream;

    const std::vector<std::size_t> sizes{
        1, 4, 255, 256, 1000, 4096, std::size_t{1} << 20, (std::size_t{1} << 20) + 7, std::size_t{64} << 20};
    std::vector<void*> blocks;
    std::size_t total = 0;
    for (const std::size_t bytes : sizes) {
      CAPTURE(bytes);
      const auto r = pool.allocate(bytes, stream.ref());
      REQUIRE(r.has_value());
      CHECK(reinterpret_cast<std::uintptr_t>(*r) % 256 == 0);
      CHECK(pool.contains(*r));
      CHECK(pool.contains(static_cast<char*>(*r) + bytes - 1));
      const auto attr = query_pointer(*r);
      REQUIRE(attr.has_value());
      CHECK(attr->kind == memory_kind::device);
      CHECK(attr->device == device);
      const std::size_t n = bytes / sizeof(unsigned);
      if (n > 0) REQUIRE(dtl_test_fill_index(static_cast<unsigned*>(*r), n, 7u, stream.get()) == hipSuccess);
      blocks.push_back(*r);
      total += bytes;
    }
    REQUIRE(stream.ref().synchronize().has_value());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::size_t n = sizes[i] / sizeof(unsigned);
      if (n == 0) continue;
      const std::vector<unsigned> back = read_back(blocks[i], n);
      std::size_t wrong = 0;
      for (std::size_t j = 0; j < n; ++j) wrong += back[j] != ((static_cast<unsigned>(j) * 2654435761u) ^ 7u);
      CHECK(wrong == 0);
    }
    pool_stats s = pool.stats();
    CHECK(s.bytes_in_use == total);
    CHECK(s.peak_bytes == total);
    CHECK(s.live_allocations == sizes.size());
    CHECK(s.total_allocations == sizes.size());
    CHECK(s.bytes_reserved >= total);
    for (std::size_t i = 0; i < sizes.size(); ++i) CHECK(pool.try_deallocate(blocks[i], sizes[i], stream.ref()).ok());
    s = pool.stats();
    CHECK(s.bytes_in_use == 0);
    CHECK(s.live_allocations == 0);
    CHECK(s.peak_bytes == total);
    if (pool.backing() == pool_backing::caching) {
      CHECK(s.hits + s.misses == s.total_allocations);
      std::size_t held = 0;
      for (const std::size_t bytes : sizes) held += hip_pool_memory_space::block_size(bytes);
      CHECK(s.bytes_cached == held);  // everything freed stays cached
      CHECK(s.bytes_reserved == held);
    }
    if (pool.backing() == pool_backing::direct) {
      CHECK(s.misses == s.total_allocations);
      CHECK(s.bytes_reserved == 0);
    }
    CHECK(hip_current_device() == device);
  }

  TEST_CASE("the MemorySpace members use the pool's own stream") {
    dtl_test::owned_stream stream;
    pool_options options;
    options.stream = stream.ref();
    hip_pool_memory_space pool(options);
    REQUIRE(pool.availability().ok());
    CHECK(pool.stream() == stream.ref());
    constexpr std::size_t n = 1u << 16;
    const auto r = pool.allocate(n * sizeof(unsigned));
    REQUIRE(r.has_value());
    REQUIRE(dtl_test_fill_index(static_cast<unsigned*>(*r), n, 3u, stream.get()) == hipSuccess);
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(read_back(*r, n)[n - 1] == ((static_cast<unsigned>(n - 1) * 2654435761u) ^ 3u));
    const auto aligned = pool.allocate(100, 128);
    REQUIRE(aligned.has_value());
    CHECK(reinterpret_cast<std::uintptr_t>(*aligned) % 128 == 0);
    CHECK(pool.allocate(100, 512).error() == status_code::invalid_argument);
    pool.deallocate(*aligned, 100);
    pool.deallocate(*r, n * sizeof(unsigned));
    CHECK(pool.stats().live_allocations == 0);
  }

  TEST_CASE("reuse on the same stream follows a kernel that writes right before the free") {
    hip_pool_memory_space pool;
    dtl_test::owned_stream stream;
    constexpr std::size_t n = std::size_t{1} << 20;
    constexpr std::size_t bytes = n * sizeof(unsigned);
    const auto a = pool.allocate(bytes, stream.ref());
    REQUIRE(a.has_value());
    REQUIRE(dtl_test_slow_fill(static_cast<unsigned*>(*a), n, 0xAAAAAAAAu, slow_cycles, stream.get()) == hipSuccess);
    REQUIRE(pool.try_deallocate(*a, bytes, stream.ref()).ok());  // the kernel is still to write it
    const std::uint64_t hits_before = pool.stats().hits;
    const auto b = pool.allocate(bytes, stream.ref());
    REQUIRE(b.has_value());
    if (pool.backing() == pool_backing::caching) {
      CHECK(*b == *a);  // reused at once: stream order puts the new work after the old
      CHECK(pool.stats().hits == hits_before + 1);
    }
    REQUIRE(dtl_test_slow_fill(static_cast<unsigned*>(*b), n, 0xBBBBBBBBu, 0, stream.get()) == hipSuccess);
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(count_not(read_back(*b, n), 0xBBBBBBBBu) == 0);
    REQUIRE(pool.try_deallocate(*b, bytes, stream.ref()).ok());
  }

  TEST_CASE("reuse on another stream waits until the first stream's work is done") {
    hip_pool_memory_space pool;
    dtl_test::owned_stream first;
    dtl_test::owned_stream second;
    constexpr std::size_t n = std::size_t{1} << 20;
    constexpr std::size_t bytes = n * sizeof(unsigned);
    const auto a = pool.allocate(bytes, first.ref());
    REQUIRE(a.has_value());
    REQUIRE(dtl_test_slow_fill(static_cast<unsigned*>(*a), n, 0xAAAAAAAAu, slow_cycles, first.get()) == hipSuccess);
    REQUIRE(pool.try_deallocate(*a, bytes, first.ref()).ok());
    const auto b = pool.allocate(bytes, second.ref());
    REQUIRE(b.has_value());
    // Still running after the allocation means it was running during it: the cache must not have given
    // the block away. (The runtime's pool may, ordering the second stream after the first itself.)
    if (pool.backing() == pool_backing::caching && busy(first.get())) CHECK(*b != *a);
    REQUIRE(dtl_test_slow_fill(static_cast<unsigned*>(*b), n, 0xBBBBBBBBu, 0, second.get()) == hipSuccess);
    REQUIRE(second.ref().synchronize().has_value());
    REQUIRE(first.ref().synchronize().has_value());
    // Whatever memory b is, the second stream's values are the last ones written to it.
    CHECK(count_not(read_back(*b, n), 0xBBBBBBBBu) == 0);
    REQUIRE(pool.try_deallocate(*b, bytes, second.ref()).ok());

    if (pool.backing() == pool_backing::caching) {
      // Both streams are idle now: a third stream takes a cached block (after querying a fence).
      dtl_test::owned_stream third;
      const pool_stats before = pool.stats();
      const auto c = pool.allocate(bytes, third.ref());
      REQUIRE(c.has_value());
      CHECK(pool.stats().hits == before.hits + 1);
      CHECK((*c == *a || *c == *b));
      REQUIRE(pool.try_deallocate(*c, bytes, third.ref()).ok());
    }
    CHECK(hipGetLastError() == hipSuccess);
  }

  TEST_CASE("reserve warms the pool up") {
    hip_pool_memory_space pool;
    constexpr std::size_t bytes = std::size_t{1} << 20;
    CHECK(pool.reserve(0) == status_code::invalid_argument);
    REQUIRE(pool.reserve(bytes, 4).ok());
    pool_stats s = pool.stats();
    switch (pool.backing()) {
      case pool_backing::caching: CHECK(s.bytes_cached == 4 * hip_pool_memory_space::block_size(bytes)); break;
      case pool_backing::runtime: CHECK(s.bytes_reserved >= 4 * bytes); break;
      default: CHECK(s.bytes_reserved == 0); break;
    }
    // Reserved blocks serve any stream at once.
    std::vector<dtl_test::owned_stream> streams(4);
    std::vector<void*> blocks;
    for (auto& stream : streams) {
      const auto r = pool.allocate(bytes, stream.ref());
      REQUIRE(r.has_value());
      blocks.push_back(*r);
    }
    s = pool.stats();
    if (pool.backing() == pool_backing::caching) {
      CHECK(s.hits == 4);
      CHECK(s.misses == 0);
    }
    for (std::size_t i = 0; i < blocks.size(); ++i) pool.deallocate(blocks[i], bytes, streams[i].ref());
    CHECK(pool.stats().live_allocations == 0);
  }

  TEST_CASE("reserve judges its count: 0 is nothing to do, too many or an overflowing total is refused") {
    hip_pool_memory_space pool;
    const pool_stats before = pool.stats();
    CHECK(pool.reserve(1024, 0).ok());
    for (const std::size_t count : {hip_pool_memory_space::max_reserve_count + 1, SIZE_MAX}) {
      const dtl::status s = pool.reserve(1024, count);
      CHECK(s == status_code::invalid_argument);
      CHECK(s.message().find("max_reserve_count") != std::string_view::npos);
    }
    const dtl::status overflow = pool.reserve(std::size_t{1} << 50, hip_pool_memory_space::max_reserve_count);
    CHECK(overflow == status_code::invalid_argument);
    CHECK(overflow.message().find("overflows") != std::string_view::npos);
    CHECK(pool.stats().bytes_cached == before.bytes_cached);
    CHECK(pool.stats().total_allocations == 0);
  }

  TEST_CASE("trim gives the cache back, after pending work that used it") {
    hip_pool_memory_space pool;
    dtl_test::owned_stream stream;
    constexpr std::size_t n = std::size_t{1} << 20;
    constexpr std::size_t bytes = n * sizeof(unsigned);
    std::vector<void*> blocks;
    for (int i = 0; i < 4; ++i) {
      const auto r = pool.allocate(bytes << i, stream.ref());
      REQUIRE(r.has_value());
      blocks.push_back(*r);
    }
    REQUIRE(dtl_test_slow_fill(static_cast<unsigned*>(blocks[0]), n, 1u, slow_cycles, stream.get()) == hipSuccess);
    for (int i = 0; i < 4; ++i)
      REQUIRE(pool.try_deallocate(blocks[static_cast<std::size_t>(i)], bytes << i, stream.ref()).ok());
    const pool_stats before = pool.stats();
    if (pool.backing() == pool_backing::caching) CHECK(before.bytes_cached > 0);
    REQUIRE(pool.trim().ok());
    const pool_stats after = pool.stats();
    CHECK(after.trims == before.trims + 1);
    CHECK(after.bytes_cached <= before.bytes_cached);
    if (pool.backing() == pool_backing::caching) {
      CHECK(after.bytes_cached == 0);
      CHECK(after.bytes_reserved == 0);
      CHECK_FALSE(busy(stream.get()));  // the trim waited for the kernel before freeing its block
    }
    // The pool goes on working.
    const auto again = pool.allocate(bytes, stream.ref());
    REQUIRE(again.has_value());
    REQUIRE(dtl_test_slow_fill(static_cast<unsigned*>(*again), n, 5u, 0, stream.get()) == hipSuccess);
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(count_not(read_back(*again, n), 5u) == 0);
    pool.deallocate(*again, bytes, stream.ref());
    CHECK(hipGetLastError() == hipSuccess);
  }

  TEST_CASE("8 threads allocating and freeing at once leave exact statistics") {
    hip_pool_memory_space pool;
    REQUIRE(pool.availability().ok());
    constexpr int threads = 8;
    constexpr int rounds = 300;
    std::vector<std::vector<std::pair<void*, std::size_t>>> kept(threads);
    std::atomic<int> failures{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        hipStream_t own = nullptr;
        if (hipStreamCreateWithFlags(&own, hipStreamNonBlocking) != hipSuccess) {
          ++failures;
          return;
        }
        for (int i = 0; i < rounds; ++i) {
          const std::size_t bytes = 1 + static_cast<std::size_t>((t * 7919 + i * 104729) % (1 << 20));
          // Alternate between the thread's stream and the null stream, so that blocks change streams.
          const stream_ref stream = i % 2 == 0 ? stream_ref(own) : stream_ref{};
          const auto r = pool.allocate(bytes, stream);
          if (!r.has_value()) {
            ++failures;
            continue;
          }
          if (i % 3 == 0)
            kept[static_cast<std::size_t>(t)].emplace_back(*r, bytes);
          else if (!pool.try_deallocate(*r, bytes, stream).ok())
            ++failures;
          if (i % 50 == 0) static_cast<void>(pool.stats());  // readers alongside writers
        }
        if (hipStreamSynchronize(own) != hipSuccess || hipStreamDestroy(own) != hipSuccess) ++failures;
      });
    }
    for (std::thread& w : workers) w.join();
    CHECK(failures.load() == 0);

    std::size_t live_bytes = 0;
    std::size_t live_blocks = 0;
    for (const auto& list : kept) {
      for (const auto& block : list) live_bytes += block.second;
      live_blocks += list.size();
    }
    const pool_stats s = pool.stats();
    CHECK(s.total_allocations == static_cast<std::uint64_t>(threads * rounds));
    CHECK(s.live_allocations == live_blocks);
    CHECK(s.bytes_in_use == live_bytes);
    CHECK(s.peak_bytes >= live_bytes);
    CHECK(s.bytes_reserved >= live_bytes);
    if (pool.backing() == pool_backing::caching) CHECK(s.hits + s.misses == s.total_allocations);
    if (pool.backing() == pool_backing::direct) CHECK(s.misses == s.total_allocations);

    for (const auto& list : kept)
      for (const auto& [ptr, bytes] : list) pool.deallocate(ptr, bytes, stream_ref{});
    CHECK(pool.stats().bytes_in_use == 0);
    CHECK(pool.stats().live_allocations == 0);
    REQUIRE(pool.trim().ok());
    if (pool.backing() == pool_backing::caching) CHECK(pool.stats().bytes_reserved == 0);
  }

  TEST_CASE("a foreign pointer or a wrong size is a reported error that frees nothing") {
    hip_pool_memory_space pool;
    hip_pool_memory_space other;
    dtl_test::owned_stream stream;
    dtl_test::clear_pending_hip_error();
    const auto r = pool.allocate(1000, stream.ref());
    const auto theirs = other.allocate(1000, stream.ref());
    REQUIRE(r.has_value());
    REQUIRE(theirs.has_value());
    void* raw = nullptr;
    REQUIRE(hipMalloc(&raw, 1000) == hipSuccess);
    std::vector<unsigned char> host(1000);
    auto* p = static_cast<unsigned char*>(*r);
    const pool_stats before = pool.stats();

    CHECK(pool.try_deallocate(p, 999, stream.ref()) == status_code::invalid_argument);
    CHECK(pool.try_deallocate(p, 1024, stream.ref()) == status_code::invalid_argument);  // its block size, not its size
    CHECK(pool.try_deallocate(p, 1001, stream.ref()).message().find("1000") != std::string_view::npos);
    CHECK(pool.try_deallocate(p + 256, 744, stream.ref()) == status_code::invalid_pointer);
    CHECK(pool.try_deallocate(host.data(), 1000, stream.ref()) == status_code::invalid_pointer);
    CHECK(pool.try_deallocate(raw, 1000, stream.ref()) == status_code::invalid_pointer);
    CHECK(pool.try_deallocate(*theirs, 1000, stream.ref()) == status_code::invalid_pointer);
    CHECK(dtl_test::same_counts(pool.stats(), before));
    CHECK(hipGetLastError() == hipSuccess);  // none of them reached HIP

    {
      const dtl_test::unhandled_counter unhandled;
      pool.deallocate(p, 4000, stream.ref());
      pool.deallocate(raw, 1000);
      CHECK(unhandled.reports() == 2);
      CHECK(unhandled.last_code() == status_code::invalid_pointer);
    }
    CHECK(dtl_test::same_counts(pool.stats(), before));

    CHECK(pool.try_deallocate(p, 1000, stream.ref()).ok());
    CHECK(pool.try_deallocate(p, 1000, stream.ref()) == status_code::invalid_pointer);  // freed twice
    CHECK(pool.stats().bytes_in_use == 0);
    CHECK(pool.stats().live_allocations == 0);
    CHECK(other.try_deallocate(*theirs, 1000, stream.ref()).ok());
    CHECK(hipFree(raw) == hipSuccess);
  }

  TEST_CASE("a pool for a device allocates there, whatever device is current") {
    const int n = device_count();
    for (int target = 0; target < n; ++target) {
      pool_options options;
      options.device = target;
      hip_pool_memory_space pool(options);
      REQUIRE(pool.availability().ok());
      for (int current = 0; current < n; ++current) {
        CAPTURE(target);
        CAPTURE(current);
        dtl_test::scoped_current_device make_current(current);
        const auto r = pool.allocate(4096, stream_ref{});
        REQUIRE(r.has_value());
        CHECK(hip_current_device() == current);
        CHECK(query_pointer(*r).value().device == target);
        CHECK(pool.try_deallocate(*r, 4096, stream_ref{}).ok());
        CHECK(hip_current_device() == current);
      }
    }
    pool_options bad;
    bad.device = n;
    CHECK(hip_pool_memory_space(bad).availability() == status_code::invalid_argument);
  }
}

TEST_SUITE("gpu.pool_oom") {
  TEST_CASE("more than the device has: trim, one retry, out_of_memory, and the pool stays usable") {
    hip_pool_memory_space pool;
    const auto props = get_device_properties(hip_current_device());
    REQUIRE(props.has_value());
    const auto warm = pool.allocate(std::size_t{1} << 20, stream_ref{});  // something for the trim to give back
    REQUIRE(warm.has_value());
    pool.deallocate(*warm, std::size_t{1} << 20, stream_ref{});
    dtl_test::clear_pending_hip_error();

    const auto failed = pool.allocate(props->total_memory + (std::size_t{1} << 30), stream_ref{});
    REQUIRE(failed.has_error());
    CHECK(failed.error() == status_code::out_of_memory);
    CHECK(failed.error().native_code() == static_cast<int>(hipErrorOutOfMemory));
    CHECK(hipGetLastError() == hipSuccess);  // returned, not left pending
    const pool_stats s = pool.stats();
    if (pool.backing() == pool_backing::direct) {
      CHECK(s.out_of_memory_retries == 0);  // nothing cached, nothing to retry with
    } else {
      CHECK(failed.error().message().find("retrying once") != std::string_view::npos);
      CHECK(s.out_of_memory_retries == 1);
      CHECK(s.trims == 1);
    }
    if (pool.backing() == pool_backing::caching) CHECK(s.bytes_cached == 0);
    CHECK(s.live_allocations == 0);

    constexpr std::size_t n = std::size_t{1} << 20;
    const auto ok = pool.allocate(n * sizeof(unsigned), stream_ref{});
    REQUIRE(ok.has_value());
    REQUIRE(dtl_test_fill_index(static_cast<unsigned*>(*ok), n, 9u, nullptr) == hipSuccess);
    REQUIRE(stream_ref{}.synchronize().has_value());
    CHECK(read_back(*ok, n)[12345] == ((12345u * 2654435761u) ^ 9u));
    pool.deallocate(*ok, n * sizeof(unsigned), stream_ref{});
    CHECK(pool.stats().live_allocations == 0);
  }

  TEST_CASE("a reserve the device cannot hold returns out_of_memory and leaves the pool as it was") {
    // It used to trim its own blocks to retry: ok with most of them gone, or (SIZE_MAX) never returning.
    hip_pool_memory_space pool;
    const auto props = get_device_properties(hip_current_device());
    REQUIRE(props.has_value());
    constexpr std::size_t gib = std::size_t{1} << 30;
    REQUIRE(pool.reserve(std::size_t{1} << 20, 2).ok());  // something cached before
    const pool_stats before = pool.stats();
    const dtl::status s = pool.reserve(gib, props->total_memory / gib + 2);
    if (pool.backing() == pool_backing::direct) {
      CHECK(s.ok());  // keeps nothing, asks for nothing
    } else {
      CHECK(s == status_code::out_of_memory);
      CHECK(hipGetLastError() == hipSuccess);
    }
    const pool_stats after = pool.stats();
    CHECK(after.trims == before.trims);
    CHECK(after.out_of_memory_retries == before.out_of_memory_retries);
    if (pool.backing() == pool_backing::caching) CHECK(after.bytes_cached == before.bytes_cached);
    if (pool.backing() == pool_backing::runtime) CHECK(after.bytes_reserved < before.bytes_reserved + gib);
    CHECK(pool.reserve(gib, 1).ok());  // still usable
  }

  // The direct backing caches nothing: this case is for the other two.
  TEST_CASE("a cache that fills the device is given back, and the allocation that needed it succeeds" *
            doctest::skip(backing_under_test() == pool_backing::direct)) {
    hip_pool_memory_space pool;
    const auto info = get_memory_info(hip_current_device());
    REQUIRE(info.has_value());
    const std::size_t block = std::min(std::size_t{1} << 30, info->free / 64 / 256 * 256);
    const std::size_t count = info->free / 10 * 9 / block;  // 90% of what is free
    std::vector<void*> blocks;
    for (std::size_t i = 0; i < count; ++i) {
      const auto r = pool.allocate(block, stream_ref{});
      REQUIRE(r.has_value());
      blocks.push_back(*r);
    }
    for (void* b : blocks) pool.deallocate(b, block, stream_ref{});
    REQUIRE(stream_ref{}.synchronize().has_value());
    if (pool.backing() == pool_backing::caching)
      CHECK(pool.stats().bytes_cached == count * hip_pool_memory_space::block_size(block));
    dtl_test::clear_pending_hip_error();

    const std::size_t big = info->free / 2 / 256 * 256;  // more than is left, less than the cache holds
    const auto r = pool.allocate(big, stream_ref{});
    REQUIRE(r.has_value());
    const pool_stats s = pool.stats();
    if (pool.backing() == pool_backing::caching) {
      CHECK(s.out_of_memory_retries == 1);
      CHECK(s.trims == 1);
      CHECK(s.bytes_cached == 0);
    }
    CHECK(hipGetLastError() == hipSuccess);
    pool.deallocate(*r, big, stream_ref{});
    REQUIRE(pool.trim().ok());
  }
}
