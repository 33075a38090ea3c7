// SPDX-License-Identifier: MIT
// Staged copies between pageable host memory and device memory on a real GPU (suite gpu.staging): random
// data around every chunk boundary, sync and async, checked byte for byte; stream order; concurrency.
#include "doctest.hpp"

#include "gpu_support.hpp"
#include "test_kernels.hpp"

#include <dtl/hip/basic_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

using dtl::status_code;
using namespace dtl::hip;
using dtl_test::device_buffer;
using dtl_test::hip_current_device;

namespace {

constexpr long long slow_cycles = 50'000'000;  // about 25-35 ms of GPU time
constexpr std::size_t small_chunk = std::size_t{64} << 10;

/// Sets the staging for one test and puts the previous one back.
class staging_scope {
 public:
  explicit staging_scope(const staging_options& options) : previous_(hip_memory_transfer::staging()) {
    REQUIRE(hip_memory_transfer::set_staging(options).ok());
  }
  ~staging_scope() { CHECK(hip_memory_transfer::set_staging(previous_).ok()); }
  staging_scope(const staging_scope&) = delete;
  staging_scope& operator=(const staging_scope&) = delete;

 private:
  staging_options previous_;
};

staging_options small_chunks(unsigned threads) {
  staging_options o = hip_memory_transfer::staging();
  o.enabled = true;
  o.min_bytes = 1;  // stage everything, so that small sizes cross chunk boundaries
  o.chunk_bytes = small_chunk;
  o.chunks = 3;
  o.threads = threads;
  return o;
}

/// What is in device memory, read with a plain hipMemcpy (not through the code under test).
std::vector<unsigned char> device_contents(const unsigned char* device, std::size_t bytes) {
  std::vector<unsigned char> host(bytes, 0);
  REQUIRE(hipMemcpy(host.data(), device, bytes, hipMemcpyDeviceToHost) == hipSuccess);
  return host;
}

/// Pageable src (at an odd offset when `skew`) -> device (at an odd offset when `skew`) -> pageable dst,
/// checked byte for byte, and the host buffers checked for writes outside their ranges. Staged async
/// copies are also checked for what they promise on return: src consumed, dst filled.
void round_trip(std::size_t bytes, bool async, std::size_t skew, stream_ref stream) {
  const staging_options options = hip_memory_transfer::staging();
  const bool staged = options.enabled && bytes >= options.min_bytes;
  CAPTURE(bytes);
  CAPTURE(async);
  CAPTURE(skew);
  CAPTURE(staged);
  const int before = hip_current_device();
  std::vector<unsigned char> expected(bytes);
  dtl_test::fill_never_zero(expected.data(), bytes, 0x5851f42d4c957f2dull ^ bytes ^ skew);
  dtl_test::guarded_buffer src_storage(bytes + skew);
  unsigned char* src = src_storage.data() + skew;
  std::memcpy(src, expected.data(), bytes);
  hip_memory_space space;
  device_buffer device(space, bytes + skew);
  unsigned char* d = device.get() + skew;

  if (async) {
    REQUIRE(hip_memory_transfer::copy_async(d, src, bytes, transfer_kind::host_to_device, stream).has_value());
    // A staged host-to-device copy has consumed src when it returns: overwriting it now changes nothing.
    if (staged) std::memset(src, 0, bytes);
    REQUIRE(stream.synchronize().has_value());
  } else {
    REQUIRE(hip_memory_transfer::copy(d, src, bytes, transfer_kind::host_to_device).has_value());
  }
  CHECK(device_contents(d, bytes) == expected);
  CHECK(src_storage.guards_intact());

  dtl_test::guarded_buffer dst(bytes);
  if (async) {
    REQUIRE(hip_memory_transfer::copy_async(dst.data(), d, bytes, transfer_kind::device_to_host, stream).has_value());
    // A staged device-to-host copy returns with the data in dst: no wait for it.
    if (!staged) REQUIRE(stream.synchronize().has_value());
  } else {
    REQUIRE(hip_memory_transfer::copy(dst.data(), d, bytes, transfer_kind::device_to_host).has_value());
  }
  CHECK(std::memcmp(dst.data(), expected.data(), bytes) == 0);
  CHECK(dst.guards_intact());
  CHECK(hip_current_device() == before);
}

}  // namespace

TEST_SUITE("gpu.staging") {
  TEST_CASE("sizes around every chunk boundary, sync and async, with one and with several host threads") {
    dtl_test::owned_stream stream;
    const std::size_t c = small_chunk;
    const std::vector<std::size_t> sizes{1,     7,     c - 1,     c,         c + 1,      2 * c - 1,
                                         2 * c, 3 * c, 3 * c + 1, 4 * c - 1, 10 * c + 1, (c << 6) + 1};
    for (const unsigned threads : {1u, 4u}) {
      CAPTURE(threads);
      staging_scope scope(small_chunks(threads));
      for (const std::size_t bytes : sizes) {
        for (const std::size_t skew : {std::size_t{0}, std::size_t{3}}) {
          round_trip(bytes, false, skew, stream_ref{});
          round_trip(bytes, true, skew, stream.ref());
        }
      }
    }
  }

  TEST_CASE("the default chunks: below the threshold, at it, and around the chunk size") {
    const staging_options o = hip_memory_transfer::staging();
    REQUIRE(o.enabled);
    dtl_test::owned_stream stream;
    const std::size_t c = o.chunk_bytes;
    for (const std::size_t bytes : {o.min_bytes - 1, o.min_bytes, c - 1, c, c + 1, 10 * c + 1}) {
      round_trip(bytes, false, 0, stream_ref{});
      round_trip(bytes, true, 1, stream.ref());
    }
  }

  TEST_CASE("staged copies keep stream order with kernels") {
    staging_scope scope(small_chunks(4));
    dtl_test::owned_stream stream;
    constexpr std::size_t n = (small_chunk * 5) / sizeof(unsigned) + 3;
    constexpr std::size_t bytes = n * sizeof(unsigned);
    hip_memory_space space;
    device_buffer device(space, bytes);
    auto* d = reinterpret_cast<unsigned*>(device.get());

    // Device to host after a kernel that is still writing: the copy sees what the kernel wrote.
    REQUIRE(dtl_test_slow_fill(d, n, 0x01020304u, slow_cycles, stream.get()) == hipSuccess);
    std::vector<unsigned> host(n, 0);
    REQUIRE(hip_memory_transfer::copy_async(host.data(), d, bytes, transfer_kind::device_to_host, stream.ref())
                .has_value());
    std::size_t wrong = 0;
    for (const unsigned v : host) wrong += v != 0x01020304u;
    CHECK(wrong == 0);

    // Host to device after a kernel that is still writing dst: the copy lands after it.
    REQUIRE(dtl_test_slow_fill(d, n, 0xdeadbeefu, slow_cycles, stream.get()) == hipSuccess);
    std::vector<unsigned> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<unsigned>(i * 3 + 1);
    REQUIRE(hip_memory_transfer::copy_async(d, values.data(), bytes, transfer_kind::host_to_device, stream.ref())
                .has_value());
    // ...and a kernel after the copy sees the copied data.
    REQUIRE(dtl_test_add(d, n, 10u, stream.get()) == hipSuccess);
    REQUIRE(stream.ref().synchronize().has_value());
    const std::vector<unsigned char> raw = device_contents(device.get(), bytes);
    std::vector<unsigned> back(n);
    std::memcpy(back.data(), raw.data(), bytes);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += back[i] != static_cast<unsigned>(i * 3 + 11);
    CHECK(wrong == 0);
  }

  TEST_CASE("automatic copies from and to pageable memory are staged too") {
    staging_scope scope(small_chunks(2));
    constexpr std::size_t bytes = small_chunk * 4 + 5;
    std::vector<unsigned char> src(bytes);
    dtl_test::fill_never_zero(src.data(), bytes, 77);
    hip_memory_space space;
    device_buffer device(space, bytes);
    REQUIRE(hip_memory_transfer::copy(device.get(), src.data(), bytes, transfer_kind::automatic).has_value());
    CHECK(device_contents(device.get(), bytes) == src);
    std::vector<unsigned char> dst(bytes, 0);
    REQUIRE(hip_memory_transfer::copy(dst.data(), device.get(), bytes, transfer_kind::automatic).has_value());
    CHECK(dst == src);
  }

  TEST_CASE("managed memory as the device side") {
    hip_managed_memory_space managed;
    if (!managed.availability().ok()) {
      MESSAGE("no managed memory here: " << managed.availability().to_string());
      CHECK(managed.availability() == status_code::not_supported);
      return;
    }
    staging_scope scope(small_chunks(4));
    constexpr std::size_t bytes = small_chunk * 3 + 1;
    const auto r = managed.allocate(bytes);
    REQUIRE(r.has_value());
    std::vector<unsigned char> src(bytes);
    dtl_test::fill_never_zero(src.data(), bytes, 99);
    REQUIRE(hip_memory_transfer::copy(*r, src.data(), bytes, transfer_kind::host_to_device).has_value());
    CHECK(std::memcmp(*r, src.data(), bytes) == 0);  // the host reads managed memory directly
    std::vector<unsigned char> dst(bytes, 0);
    REQUIRE(hip_memory_transfer::copy(dst.data(), *r, bytes, transfer_kind::device_to_host).has_value());
    CHECK(dst == src);
    managed.deallocate(*r, bytes);
  }

  TEST_CASE("concurrent staged copies from 4 threads each get their own chunks") {
    staging_scope scope(small_chunks(4));
    constexpr int threads = 4;
    std::atomic<int> failures{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&failures, t] {
        hipStream_t stream = nullptr;
        if (hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) != hipSuccess) {
          ++failures;
          return;
        }
        const std::size_t bytes = small_chunk * (7 + static_cast<std::size_t>(t)) + static_cast<std::size_t>(t);
        std::vector<unsigned char> src(bytes);
        dtl_test::fill_never_zero(src.data(), bytes, 1000u + static_cast<unsigned>(t));
        std::vector<unsigned char> dst(bytes, 0);
        void* d = nullptr;
        if (hipMalloc(&d, bytes) != hipSuccess) {
          ++failures;
          return;
        }
        for (int round = 0; round < 20; ++round) {
          if (!hip_memory_transfer::copy_async(d, src.data(), bytes, transfer_kind::host_to_device, stream)
                   .has_value() ||
              !hip_memory_transfer::copy_async(dst.data(), d, bytes, transfer_kind::device_to_host, stream)
                   .has_value() ||
              dst != src)
            ++failures;
          std::fill(dst.begin(), dst.end(), 0);
        }
        if (hipFree(d) != hipSuccess || hipStreamDestroy(stream) != hipSuccess) ++failures;
      });
    }
    for (std::thread& w : workers) w.join();
    CHECK(failures.load() == 0);
  }

  TEST_CASE("with staging off, pageable copies go to the runtime and still arrive") {
    staging_options off = hip_memory_transfer::staging();
    off.enabled = false;
    staging_scope scope(off);
    dtl_test::owned_stream stream;
    round_trip(small_chunk * 3 + 1, false, 1, stream_ref{});
    round_trip(small_chunk * 3 + 1, true, 1, stream.ref());
  }
}
