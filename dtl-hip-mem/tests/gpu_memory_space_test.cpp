// SPDX-License-Identifier: MIT
// hip_memory_space and hip_pinned_memory_space on a real GPU (suites gpu.memory_space, gpu.pinned, gpu.multi_device).
#include "doctest.hpp"

#include "gpu_support.hpp"
#include "test_kernels.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/pointer.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

using dtl::status_code;
using namespace dtl::hip;
using dtl_test::hip_current_device;

namespace {

bool aligned_to(const void* p, std::size_t alignment) { return reinterpret_cast<std::uintptr_t>(p) % alignment == 0; }

// deallocate with a wrong size, a foreign pointer, an interior pointer or a pointer already freed is a
// reported error that frees nothing, changes no count and never reaches HIP.
template <class Space>
void check_bad_deallocations() {
  Space space;
  if (!space.availability().ok()) {
    MESSAGE(Space::name() << " is not available here: " << space.availability().to_string());
    return;
  }
  Space other;
  dtl_test::clear_pending_hip_error();
  const auto r = space.allocate(1024);
  const auto theirs = other.allocate(1024);
  REQUIRE(r.has_value());
  REQUIRE(theirs.has_value());
  auto* p = static_cast<unsigned char*>(*r);
  const dtl::allocation_stats before = space.stats();

  CHECK(space.try_deallocate(p, 2048) == status_code::invalid_argument);  // larger than allocated
  CHECK(space.try_deallocate(p, 512) == status_code::invalid_argument);   // smaller
  CHECK(space.try_deallocate(p, 2048).message().find("1024") != std::string_view::npos);
  CHECK(space.try_deallocate(p + 256, 768) == status_code::invalid_pointer);  // interior
  std::vector<unsigned char> host(1024);
  CHECK(space.try_deallocate(host.data(), 1024) == status_code::invalid_pointer);  // foreign
  CHECK(space.try_deallocate(*theirs, 1024) == status_code::invalid_pointer);      // another space's
  CHECK(dtl_test::same_counts(space.stats(), before));
  CHECK(hipGetLastError() == hipSuccess);  // HIP never saw any of them

  {  // deallocate() cannot return the error: it goes to report_unhandled(), and nothing changes either.
    const dtl_test::unhandled_counter unhandled;
    space.deallocate(p, 4096);
    CHECK(unhandled.reports() == 1);
    CHECK(unhandled.last_code() == status_code::invalid_argument);
  }
  CHECK(dtl_test::same_counts(space.stats(), before));

  // The right size still frees it; a second free is a foreign pointer, and the counts never wrap.
  CHECK(space.try_deallocate(p, 1024).ok());
  CHECK(space.try_deallocate(p, 1024) == status_code::invalid_pointer);
  const dtl::allocation_stats after = space.stats();
  CHECK(after.bytes_in_use == 0);
  CHECK(after.live_allocations == 0);
  CHECK(other.try_deallocate(*theirs, 1024).ok());
}

}  // namespace

TEST_SUITE("gpu.memory_space") {
  TEST_CASE("allocate, inspect and free device memory on the current device") {
    const int before = hip_current_device();
    hip_memory_space space;
    REQUIRE(space.availability().ok());
    CHECK(space.device_id() == before);
    CHECK(space.properties().device_id == before);

    const auto allocated = space.allocate(1024);
    REQUIRE(allocated.has_value());
    void* ptr = *allocated;
    CHECK(ptr != nullptr);
    CHECK(aligned_to(ptr, 256));
    CHECK(space.contains(ptr).value());
    CHECK(space.contains(static_cast<char*>(ptr) + 1000).value());  // interior pointers too
    const auto attr = query_pointer(ptr);
    REQUIRE(attr.has_value());
    CHECK(attr->kind == memory_kind::device);
    CHECK(attr->device == before);
    CHECK_FALSE(never_device_memory(ptr));  // device memory is never in the host's own ranges

    int host_value = 0;
    CHECK_FALSE(space.contains(&host_value).value());

    dtl::allocation_stats s = space.stats();
    CHECK(s.bytes_in_use == 1024);
    CHECK(s.peak_bytes == 1024);
    CHECK(s.live_allocations == 1);
    CHECK(s.total_allocations == 1);

    space.deallocate(ptr, 1024);
    s = space.stats();
    CHECK(s.bytes_in_use == 0);
    CHECK(s.peak_bytes == 1024);
    CHECK(s.live_allocations == 0);
    CHECK(s.total_allocations == 1);
    CHECK(hip_current_device() == before);
  }

  TEST_CASE("find_allocation: an interior pointer's allocation starts where the space's block does") {
    hip_memory_space space;
    const auto allocated = space.allocate(4096);
    REQUIRE(allocated.has_value());
    auto* block = static_cast<std::byte*>(*allocated);
    for (const std::size_t at : {std::size_t{0}, std::size_t{100}, std::size_t{4095}}) {
      CAPTURE(at);
      const auto found = find_allocation(block + at);
      REQUIRE(found.has_value());
      CHECK(found->base == block);
      CHECK(found->bytes >= 4096);
    }
    CHECK(find_allocation(nullptr).error() == status_code::invalid_argument);
    space.deallocate(block, 4096);
  }

  TEST_CASE("the guide's snippet: allocate(1024), check, deallocate") {
    dtl::hip::hip_memory_space mem_space;
    auto alloc_result = mem_space.allocate(1024);
    REQUIRE(alloc_result.has_value());
    void* ptr = alloc_result.value();
    CHECK(mem_space.stats().bytes_in_use == 1024);
    mem_space.deallocate(ptr, 1024);
    CHECK(mem_space.stats().bytes_in_use == 0);
  }

  TEST_CASE("every power-of-two alignment up to 256 is honoured; larger ones are refused") {
    hip_memory_space space;
    std::vector<std::pair<void*, std::size_t>> blocks;
    for (std::size_t alignment = 1; alignment <= 256; alignment *= 2) {
      for (const std::size_t bytes : {std::size_t{1}, std::size_t{3}, std::size_t{100}, std::size_t{4097}}) {
        const auto r = space.allocate(bytes, alignment);
        REQUIRE(r.has_value());
        CHECK(aligned_to(*r, alignment));
        blocks.emplace_back(*r, bytes);
      }
    }
    const std::size_t live = blocks.size();
    CHECK(space.allocate(100, 512).error() == status_code::invalid_argument);
    CHECK(space.allocate(100, 1u << 20).error() == status_code::invalid_argument);
    CHECK(space.allocate(100, 48).error() == status_code::invalid_argument);
    CHECK(space.stats().live_allocations == live);  // the refused requests left nothing behind
    for (const auto& [ptr, bytes] : blocks) CHECK(space.try_deallocate(ptr, bytes).ok());
    CHECK(space.stats().live_allocations == 0);
    CHECK(space.stats().bytes_in_use == 0);
  }

  TEST_CASE("0 bytes and bad ids are refused with a device present") {
    hip_memory_space space;
    CHECK(space.allocate(0).error() == status_code::invalid_argument);
    const int n = device_count();
    hip_memory_space bad(n);
    CHECK(bad.availability() == status_code::invalid_argument);
    CHECK(bad.allocate(16).error() == status_code::invalid_argument);
    CHECK(hip_memory_space(-1).allocate(16).error() == status_code::invalid_argument);
    CHECK(space.stats().total_allocations == 0);
  }

  TEST_CASE("data a kernel wrote reads back through hip_memory_transfer") {
    hip_memory_space space;
    constexpr std::size_t n = (1u << 20) + 3;
    const auto r = space.allocate(n * sizeof(unsigned));
    REQUIRE(r.has_value());
    auto* d = static_cast<unsigned*>(*r);
    REQUIRE(dtl_test_fill_index(d, n, 0x5eedu, nullptr) == hipSuccess);
    std::vector<unsigned> h(n, 0);
    REQUIRE(hip_memory_transfer::copy(h.data(), d, n * sizeof(unsigned), transfer_kind::device_to_host).has_value());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) mismatches += h[i] != ((static_cast<unsigned>(i) * 2654435761u) ^ 0x5eedu);
    CHECK(mismatches == 0);
    space.deallocate(d, n * sizeof(unsigned));
    CHECK(space.stats().bytes_in_use == 0);
  }

  TEST_CASE("8 threads allocating at once leave exact statistics") {
    hip_memory_space space;
    REQUIRE(space.availability().ok());
    constexpr int threads = 8;
    constexpr int rounds = 64;
    const int device = hip_current_device();
    std::vector<std::vector<std::pair<void*, std::size_t>>> kept(threads);
    std::atomic<int> failures{0};
    std::atomic<int> device_changed{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        int mine = -1;  // a new thread starts on its own current device
        if (hipGetDevice(&mine) != hipSuccess) ++failures;
        int seen = -1;
        for (int i = 0; i < rounds; ++i) {
          const std::size_t bytes = 1 + static_cast<std::size_t>((t * 7919 + i * 104729) % 65536);
          const auto r = space.allocate(bytes);
          if (!r.has_value()) {
            ++failures;
            continue;
          }
          if (i % 2 == 0) {
            kept[static_cast<std::size_t>(t)].emplace_back(*r, bytes);  // every other block stays live
          } else if (!space.try_deallocate(*r, bytes).ok()) {
            ++failures;
          }
          if (hipGetDevice(&seen) != hipSuccess || seen != mine) ++device_changed;
        }
      });
    }
    for (std::thread& th : pool) th.join();
    CHECK(failures.load() == 0);
    CHECK(device_changed.load() == 0);

    std::size_t live_bytes = 0;
    std::size_t live_blocks = 0;
    for (const auto& list : kept) {
      for (const auto& block : list) live_bytes += block.second;
      live_blocks += list.size();
    }
    const dtl::allocation_stats s = space.stats();
    CHECK(s.total_allocations == static_cast<std::uint64_t>(threads * rounds));
    CHECK(s.live_allocations == live_blocks);
    CHECK(s.bytes_in_use == live_bytes);
    CHECK(s.peak_bytes >= live_bytes);

    for (const auto& list : kept)
      for (const auto& [ptr, bytes] : list) space.deallocate(ptr, bytes);
    CHECK(space.stats().bytes_in_use == 0);
    CHECK(space.stats().live_allocations == 0);
    CHECK(hip_current_device() == device);
  }

  TEST_CASE("a wrong size or a pointer the space did not give out is a reported error, for every space") {
    SUBCASE("hip_memory_space") { check_bad_deallocations<hip_memory_space>(); }
    SUBCASE("hip_pinned_memory_space") { check_bad_deallocations<hip_pinned_memory_space>(); }
    SUBCASE("hip_managed_memory_space") { check_bad_deallocations<hip_managed_memory_space>(); }
    SUBCASE("hip_device_preferred_memory_space") { check_bad_deallocations<hip_device_preferred_memory_space>(); }
  }

  TEST_CASE("leak check: statistics return to zero after mixed use") {
    hip_memory_space space;
    std::vector<std::pair<void*, std::size_t>> blocks;
    for (std::size_t bytes = 1; bytes <= (64u << 20); bytes *= 4) {
      const auto r = space.allocate(bytes);
      REQUIRE(r.has_value());
      blocks.emplace_back(*r, bytes);
    }
    CHECK(space.stats().live_allocations == blocks.size());
    for (const auto& [ptr, bytes] : blocks) space.deallocate(ptr, bytes);
    const dtl::allocation_stats s = space.stats();
    CHECK(s.bytes_in_use == 0);
    CHECK(s.live_allocations == 0);
    CHECK(s.total_allocations == blocks.size());
  }
}

TEST_SUITE("gpu.pinned") {
  TEST_CASE("pinned memory is host memory the device can reach") {
    const int before = hip_current_device();
    hip_pinned_memory_space space;
    REQUIRE(space.availability().ok());
    constexpr std::size_t n = 1u << 18;
    const auto r = space.allocate(n * sizeof(unsigned));
    REQUIRE(r.has_value());
    auto* p = static_cast<unsigned*>(*r);
    CHECK(aligned_to(p, 256));
    CHECK(space.contains(p).value());
    CHECK(query_pointer(p).value().kind == memory_kind::host_pinned);
    CHECK_FALSE(hip_memory_space().contains(p).value());

    for (std::size_t i = 0; i < n; ++i) p[i] = 0;                    // the host writes it directly
    REQUIRE(dtl_test_fill_index(p, n, 99u, nullptr) == hipSuccess);  // the device writes it directly
    REQUIRE(stream_ref{}.synchronize().has_value());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) mismatches += p[i] != ((static_cast<unsigned>(i) * 2654435761u) ^ 99u);
    CHECK(mismatches == 0);

    CHECK(space.stats().bytes_in_use == n * sizeof(unsigned));
    space.deallocate(p, n * sizeof(unsigned));
    CHECK(space.stats().bytes_in_use == 0);
    CHECK(space.stats().live_allocations == 0);
    CHECK(hip_current_device() == before);
  }

  TEST_CASE("pinned async copies on a stream: H2D, D2D, D2H") {
    hip_pinned_memory_space pinned;
    hip_memory_space device;
    dtl_test::owned_stream stream;
    constexpr std::size_t bytes = (64u << 20) + 5;
    const auto src_r = pinned.allocate(bytes);
    const auto dst_r = pinned.allocate(bytes);
    const auto d1_r = device.allocate(bytes);
    const auto d2_r = device.allocate(bytes);
    REQUIRE(src_r.has_value());
    REQUIRE(dst_r.has_value());
    REQUIRE(d1_r.has_value());
    REQUIRE(d2_r.has_value());
    auto* src = static_cast<unsigned char*>(*src_r);
    auto* dst = static_cast<unsigned char*>(*dst_r);
    void* d1 = *d1_r;
    void* d2 = *d2_r;
    dtl_test::fill_never_zero(src, bytes, 42);
    std::memset(dst, 0, bytes);

    CHECK(hip_memory_transfer::copy_async(d1, src, bytes, transfer_kind::host_to_device, stream.ref()).has_value());
    CHECK(hip_memory_transfer::copy_async(d2, d1, bytes, transfer_kind::device_to_device, stream.ref()).has_value());
    CHECK(hip_memory_transfer::copy_async(dst, d2, bytes, transfer_kind::device_to_host, stream.get()).has_value());
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(std::memcmp(src, dst, bytes) == 0);

    // automatic (hipMemcpyDefault) works out the directions itself.
    std::memset(dst, 0, bytes);
    CHECK(hip_memory_transfer::copy_async(d1, src, bytes, transfer_kind::automatic, stream.ref()).has_value());
    CHECK(hip_memory_transfer::copy_async(dst, d1, bytes, transfer_kind::automatic, stream.ref()).has_value());
    REQUIRE(stream.ref().synchronize().has_value());
    CHECK(std::memcmp(src, dst, bytes) == 0);

    device.deallocate(d2, bytes);
    device.deallocate(d1, bytes);
    pinned.deallocate(dst, bytes);
    pinned.deallocate(src, bytes);
    CHECK(pinned.stats().bytes_in_use == 0);
    CHECK(device.stats().bytes_in_use == 0);
  }
}

// Meson test gpu-memory-multi-device (--requires=devices:2): SKIP with fewer than two devices.
TEST_SUITE("gpu.multi_device") {
  TEST_CASE("a space for device N allocates on N whatever device is current, and leaves it current") {
    const int n = device_count();
    for (int target = 0; target < n; ++target) {
      hip_memory_space space(target);
      REQUIRE(space.availability().ok());
      for (int current = 0; current < n; ++current) {
        CAPTURE(target);
        CAPTURE(current);
        dtl_test::scoped_current_device make_current(current);
        const auto r = space.allocate(4096);
        REQUIRE(r.has_value());
        CHECK(hip_current_device() == current);
        CHECK(query_pointer(*r).value().device == target);
        CHECK(space.contains(*r).value());
        CHECK(hip_current_device() == current);
        CHECK(space.try_deallocate(*r, 4096).ok());
        CHECK(hip_current_device() == current);
      }
      CHECK(space.stats().bytes_in_use == 0);
    }
  }
}
