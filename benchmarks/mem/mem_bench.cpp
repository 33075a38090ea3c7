// SPDX-License-Identifier: MIT
// dtl-hip-mem benchmark: DTL against raw HIP, measured in the same run on the same device.
//
//   alloc    allocate + deallocate, 1 KiB to 256 MiB: hip_memory_space against hipMalloc + hipFree, and the
//            pool on each backing, same stream and alternating between two streams, against hipMallocAsync
//            + hipFreeAsync on the device's default pool (hipMalloc + hipFree for the direct backing).
//   copy     bandwidth, 4 KiB to 1 GiB: H2D and D2H from pinned and from pageable memory (DTL stages
//            pageable copies; raw HIP hands them to the runtime), and D2D. Sync copies: copy() against
//            hipMemcpy followed by hipStreamSynchronize(null) where hipMemcpy may return early, as copy()
//            does (H2D, D2D).
//   latency  4-byte copies: copy_async + hipStreamSynchronize, copy_async enqueue only, copy().
//   staging  256 MiB pageable copies for chunk sizes and host thread counts, against pinned bandwidth.
//
// Every figure is the median of `runs` samples (default 11, at least 10) after a warm-up sample; raw and
// DTL samples alternate. Prints a table and writes dtl-mem-bench.csv into $DTL_BENCH_CSV_DIR (default:
// the current folder). Exits 77 (skip) without a HIP device. Usage: dtl-mem-bench [runs]
#include "bench_table.hpp"
#include "bench_version.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/memory.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <array>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace mem_bench;
using dtl::hip::hip_memory_transfer;
using dtl::hip::pool_backing;
using dtl::hip::transfer_kind;

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t GiB = std::size_t{1} << 30;

void check(hipError_t e, const char* what) {
  if (e != hipSuccess) fail(std::string(what) + ": " + hipGetErrorName(e));
}

template <class R>
void check(const R& r, const char* what) {
  if (!r.has_value()) fail(std::string(what) + ": " + r.error().to_string());
}

void check(const dtl::status& s, const char* what) {
  if (!s.ok()) fail(std::string(what) + ": " + s.to_string());
}

struct context {
  int runs;
  hipStream_t s1;
  hipStream_t s2;
  std::vector<row> rows;
  std::vector<std::string> notes;
};

// ---- alloc ----

void alloc_rows(context& c) {
  const std::array sizes{KiB, 16 * KiB, 256 * KiB, MiB, 16 * MiB, 256 * MiB};
  constexpr double target_us = 3000;
  void* probe = nullptr;
  const bool raw_async = hipMallocAsync(&probe, KiB, c.s1) == hipSuccess && hipFreeAsync(probe, c.s1) == hipSuccess;
  if (!raw_async) {
    static_cast<void>(hipGetLastError());
    c.notes.push_back("hipMallocAsync is not available on this device: the pool rows have no raw column");
  }
  const auto raw_malloc = [](std::size_t bytes) {
    return [bytes] {
      void* p = nullptr;
      check(hipMalloc(&p, bytes), "hipMalloc");
      check(hipFree(p), "hipFree");
    };
  };

  dtl::hip::hip_memory_space space;
  for (const std::size_t bytes : sizes) {
    const auto [raw, dtl] = medians(c.runs, target_us, raw_malloc(bytes), [&] {
      const auto r = space.allocate(bytes);
      check(r, "hip_memory_space::allocate");
      space.deallocate(*r, bytes);
    });
    c.rows.push_back({"alloc", "hip_memory_space allocate+deallocate | hipMalloc+hipFree", bytes, "us", raw, dtl, ""});
  }

  for (const pool_backing backing : {pool_backing::runtime, pool_backing::caching, pool_backing::direct}) {
    dtl::hip::pool_options options;
    options.backing = backing;
    dtl::hip::hip_pool_memory_space pool(options);
    const std::string name(dtl::hip::pool_backing_name(backing));
    if (!pool.availability().ok()) {
      c.notes.push_back("pool, " + name + " backing: not measured (" + pool.availability().to_string() + ")");
      continue;
    }
    const bool async_raw = backing != pool_backing::direct;
    const std::string raw_name = async_raw ? "hipMallocAsync+hipFreeAsync" : "hipMalloc+hipFree";
    for (const std::size_t bytes : sizes) {
      const auto dtl_pair = [&](hipStream_t s) {
        const auto r = pool.allocate(bytes, s);
        check(r, "pool allocate");
        pool.deallocate(*r, bytes, s);
      };
      const auto raw_pair = [&](hipStream_t s) {
        void* p = nullptr;
        if (async_raw) {
          check(hipMallocAsync(&p, bytes, s), "hipMallocAsync");
          check(hipFreeAsync(p, s), "hipFreeAsync");
        } else {
          raw_malloc(bytes)();
        }
      };
      const bool has_raw = !async_raw || raw_async;
      const auto raw_or_skip = [&](hipStream_t s) {
        if (has_raw) raw_pair(s);
      };
      auto same = medians(
          c.runs, target_us, [&] { raw_or_skip(c.s1); }, [&] { dtl_pair(c.s1); });
      // Freed on one stream, allocated on the other: per allocate+deallocate pair.
      auto cross = medians(
          c.runs, target_us,
          [&] {
            raw_or_skip(c.s1);
            raw_or_skip(c.s2);
          },
          [&] {
            dtl_pair(c.s1);
            dtl_pair(c.s2);
          });
      check(hipStreamSynchronize(c.s1), "hipStreamSynchronize");
      check(hipStreamSynchronize(c.s2), "hipStreamSynchronize");
      c.rows.push_back({"alloc", "pool (" + name + ") same stream | " + raw_name, bytes, "us",
                        has_raw ? same.first : -1.0, same.second, ""});
      c.rows.push_back({"alloc", "pool (" + name + ") cross-stream reuse | " + raw_name, bytes, "us",
                        has_raw ? cross.first / 2 : -1.0, cross.second / 2, ""});
    }
    const dtl::hip::pool_stats s = pool.stats();
    c.notes.push_back("pool, " + name + " backing: " + std::to_string(s.total_allocations) + " allocations, " +
                      std::to_string(s.hits) + " hits, " + std::to_string(s.misses) + " misses, " +
                      std::to_string(s.bytes_reserved >> 20) + " MiB reserved at the end");
    check(pool.trim(), "pool trim");
  }
}

// ---- copy and latency ----

struct buffers {
  std::size_t bytes;
  dtl::hip::hip_pinned_memory_space pinned_space;
  dtl::hip::hip_memory_space device_space;
  void* pinned_a = nullptr;
  void* pinned_b = nullptr;
  void* device_a = nullptr;
  void* device_b = nullptr;
  std::unique_ptr<unsigned char[]> pageable_a;
  std::unique_ptr<unsigned char[]> pageable_b;

  explicit buffers(std::size_t n) : bytes(n), pageable_a(new unsigned char[n]), pageable_b(new unsigned char[n]) {
    for (void** p : {&pinned_a, &pinned_b}) {
      const auto r = pinned_space.allocate(n);
      check(r, "pinned allocate");
      *p = *r;
    }
    for (void** p : {&device_a, &device_b}) {
      const auto r = device_space.allocate(n);
      check(r, "device allocate");
      *p = *r;
    }
    // Touch every page, so that no copy pays first-touch faults.
    std::memset(pinned_a, 1, n);
    std::memset(pinned_b, 2, n);
    std::memset(pageable_a.get(), 3, n);
    std::memset(pageable_b.get(), 4, n);
  }
  buffers(const buffers&) = delete;
  buffers& operator=(const buffers&) = delete;
  ~buffers() {
    pinned_space.deallocate(pinned_a, bytes);
    pinned_space.deallocate(pinned_b, bytes);
    device_space.deallocate(device_a, bytes);
    device_space.deallocate(device_b, bytes);
  }
};

/// A sync copy both ways: raw hipMemcpy (plus a null-stream wait where hipMemcpy may return early, as
/// copy() does) and hip_memory_transfer::copy. Microseconds per copy.
std::pair<double, double> sync_copy(context& c, void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                                    hipMemcpyKind raw_kind) {
  const bool wait = kind != transfer_kind::device_to_host;
  return medians(
      c.runs, 5000,
      [&] {
        check(hipMemcpy(dst, src, bytes, raw_kind), "hipMemcpy");
        if (wait) check(hipStreamSynchronize(nullptr), "hipStreamSynchronize");
      },
      [&] { check(hip_memory_transfer::copy(dst, src, bytes, kind), "copy"); });
}

void copy_rows(context& c, buffers& b) {
  const std::array sizes{4 * KiB, 64 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB};
  const auto staging = hip_memory_transfer::staging();
  for (const std::size_t bytes : sizes) {
    if (bytes > b.bytes) {
      c.notes.push_back(size_name(bytes) + " copies: not measured (the device has too little free memory)");
      continue;
    }
    const auto add = [&](const std::string& what, std::pair<double, double> us, const std::string& note) {
      c.rows.push_back({"copy", what, bytes, "GB/s", gbps(bytes, us.first), gbps(bytes, us.second), note});
      return gbps(bytes, us.second);
    };
    const double pinned_h2d =
        add("H2D pinned | hipMemcpy",
            sync_copy(c, b.device_a, b.pinned_a, bytes, transfer_kind::host_to_device, hipMemcpyHostToDevice), "");
    const double pinned_d2h =
        add("D2H pinned | hipMemcpy",
            sync_copy(c, b.pinned_b, b.device_a, bytes, transfer_kind::device_to_host, hipMemcpyDeviceToHost), "");
    const bool staged = staging.enabled && bytes >= staging.min_bytes;
    const auto of_pinned = [&](double bw, double pinned) {
      return std::string(staged ? "staged" : "runtime") + ", " +
             std::to_string(static_cast<int>(100 * bw / pinned + 0.5)) + "% of pinned";
    };
    const auto h2d =
        sync_copy(c, b.device_a, b.pageable_a.get(), bytes, transfer_kind::host_to_device, hipMemcpyHostToDevice);
    add("H2D pageable | hipMemcpy", h2d, of_pinned(gbps(bytes, h2d.second), pinned_h2d));
    const auto d2h =
        sync_copy(c, b.pageable_b.get(), b.device_a, bytes, transfer_kind::device_to_host, hipMemcpyDeviceToHost);
    add("D2H pageable | hipMemcpy", d2h, of_pinned(gbps(bytes, d2h.second), pinned_d2h));
    add("D2D | hipMemcpy",
        sync_copy(c, b.device_b, b.device_a, bytes, transfer_kind::device_to_device, hipMemcpyDeviceToDevice),
        "bytes copied per second (read + write is twice that)");
  }
}

void latency_rows(context& c, buffers& b) {
  constexpr std::size_t bytes = 4;
  constexpr double target_us = 3000;
  const auto async_then_wait = [&](const std::string& what, void* dst, const void* src, transfer_kind kind,
                                   hipMemcpyKind raw_kind) {
    const auto us = medians(
        c.runs, target_us,
        [&] {
          check(hipMemcpyAsync(dst, src, bytes, raw_kind, c.s1), "hipMemcpyAsync");
          check(hipStreamSynchronize(c.s1), "hipStreamSynchronize");
        },
        [&] {
          check(hip_memory_transfer::copy_async(dst, src, bytes, kind, c.s1), "copy_async");
          check(hipStreamSynchronize(c.s1), "hipStreamSynchronize");
        });
    c.rows.push_back({"latency", what, bytes, "us", us.first, us.second, ""});
  };
  async_then_wait("copy_async H2D pinned + wait | hipMemcpyAsync + wait", b.device_a, b.pinned_a,
                  transfer_kind::host_to_device, hipMemcpyHostToDevice);
  async_then_wait("copy_async D2H pinned + wait | hipMemcpyAsync + wait", b.pinned_b, b.device_a,
                  transfer_kind::device_to_host, hipMemcpyDeviceToHost);
  async_then_wait("copy_async D2D + wait | hipMemcpyAsync + wait", b.device_b, b.device_a,
                  transfer_kind::device_to_device, hipMemcpyDeviceToDevice);

  // Foreign pinned memory (not from a DTL space): the checks ask the runtime.
  void* foreign = nullptr;
  check(hipHostMalloc(&foreign, 64, hipHostMallocDefault), "hipHostMalloc");
  async_then_wait("copy_async H2D foreign pinned + wait | hipMemcpyAsync + wait", b.device_a, foreign,
                  transfer_kind::host_to_device, hipMemcpyHostToDevice);
  check(hipHostFree(foreign), "hipHostFree");

  {  // Enqueue only: 256 calls per sample, the stream drained between samples (untimed).
    constexpr int batch = 256;
    std::vector<double> raw;
    std::vector<double> dtl;
    for (int i = 0; i <= c.runs; ++i) {  // the first sample of each is a warm-up
      raw.push_back(micros_per_op(batch, [&] {
        check(hipMemcpyAsync(b.device_a, b.pinned_a, bytes, hipMemcpyHostToDevice, c.s1), "hipMemcpyAsync");
      }));
      check(hipStreamSynchronize(c.s1), "hipStreamSynchronize");
      dtl.push_back(micros_per_op(batch, [&] {
        check(hip_memory_transfer::copy_async(b.device_a, b.pinned_a, bytes, transfer_kind::host_to_device, c.s1),
              "copy_async");
      }));
      check(hipStreamSynchronize(c.s1), "hipStreamSynchronize");
    }
    raw.erase(raw.begin());
    dtl.erase(dtl.begin());
    c.rows.push_back({"latency", "copy_async H2D pinned, enqueue only | hipMemcpyAsync", bytes, "us",
                      median(std::move(raw)), median(std::move(dtl)), ""});
  }

  const auto sync = [&](const std::string& what, void* dst, const void* src, transfer_kind kind,
                        hipMemcpyKind raw_kind) {
    const auto us = sync_copy(c, dst, src, bytes, kind, raw_kind);
    c.rows.push_back({"latency", what, bytes, "us", us.first, us.second, ""});
  };
  sync("copy H2D pinned | hipMemcpy (+ wait)", b.device_a, b.pinned_a, transfer_kind::host_to_device,
       hipMemcpyHostToDevice);
  sync("copy D2H pinned | hipMemcpy", b.pinned_b, b.device_a, transfer_kind::device_to_host, hipMemcpyDeviceToHost);
  sync("copy H2D pageable | hipMemcpy (+ wait)", b.device_a, b.pageable_a.get(), transfer_kind::host_to_device,
       hipMemcpyHostToDevice);
  sync("copy D2H pageable | hipMemcpy", b.pageable_b.get(), b.device_a, transfer_kind::device_to_host,
       hipMemcpyDeviceToHost);
}

// ---- staging sweep ----

void staging_rows(context& c, buffers& b) {
  const std::size_t bytes = std::min(256 * MiB, b.bytes);
  const dtl::hip::staging_options defaults = hip_memory_transfer::staging();
  const auto pinned = [&](void* dst, const void* src, hipMemcpyKind kind) {
    return gbps(bytes, median_us(c.runs, 5000, [&] {
                  check(hipMemcpy(dst, src, bytes, kind), "hipMemcpy");
                  check(hipStreamSynchronize(nullptr), "hipStreamSynchronize");
                }));
  };
  const double pinned_h2d = pinned(b.device_a, b.pinned_a, hipMemcpyHostToDevice);
  const double pinned_d2h = pinned(b.pinned_b, b.device_a, hipMemcpyDeviceToHost);

  const auto measure = [&](const dtl::hip::staging_options& o) {
    check(hip_memory_transfer::set_staging(o), "set_staging");
    const std::string shape = size_name(o.chunk_bytes) + " x " + std::to_string(o.chunks) + ", " +
                              std::to_string(o.threads) + " thread" + (o.threads == 1 ? "" : "s");
    const auto run = [&](void* dst, const void* src, transfer_kind kind) {
      return gbps(bytes,
                  median_us(c.runs, 5000, [&] { check(hip_memory_transfer::copy(dst, src, bytes, kind), "copy"); }));
    };
    c.rows.push_back({"staging", "H2D pageable, chunks " + shape + " | pinned hipMemcpy", bytes, "GB/s", pinned_h2d,
                      run(b.device_a, b.pageable_a.get(), transfer_kind::host_to_device), ""});
    c.rows.push_back({"staging", "D2H pageable, chunks " + shape + " | pinned hipMemcpy", bytes, "GB/s", pinned_d2h,
                      run(b.pageable_b.get(), b.device_a, transfer_kind::device_to_host), ""});
  };
  const auto measure_shape = [&](std::size_t chunk, unsigned chunks, unsigned threads) {
    dtl::hip::staging_options o = defaults;
    o.enabled = true;
    o.chunk_bytes = chunk;
    o.chunks = chunks;
    o.threads = threads;
    measure(o);
  };
  for (const std::size_t chunk : {2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB})
    for (const unsigned threads : {1u, 2u, 4u, 8u}) measure_shape(chunk, defaults.chunks, threads);
  // More host threads, where the machine has them: does the copy keep scaling?
  const unsigned cores = std::thread::hardware_concurrency();
  for (const std::size_t chunk : {8 * MiB, 16 * MiB})
    for (const unsigned threads : {12u, 16u})
      if (threads <= cores) measure_shape(chunk, defaults.chunks, threads);
  // Other chunk counts at the default chunk size and threads.
  for (const unsigned chunks : {2u, 3u, 4u, 6u})
    if (chunks != defaults.chunks) measure_shape(defaults.chunk_bytes, chunks, defaults.threads);
  check(hip_memory_transfer::set_staging(defaults), "set_staging");
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the dtl-hip-mem benchmark\n");
    return 77;
  }
  context c{argc > 1 ? std::max(10, std::atoi(argv[1])) : 11, nullptr, nullptr, {}, {}};
  const auto dev = dtl::hip::current_device();
  check(dev, "current_device");
  const auto props = dtl::hip::get_device_properties(*dev);
  check(props, "get_device_properties");
  const auto staging = hip_memory_transfer::staging();

  // DTL_SOURCE_COMMIT names the commit where the build's own git cannot (a copied tree with stale metadata).
  const char* source_commit = std::getenv("DTL_SOURCE_COMMIT");
  const std::string commit = source_commit != nullptr && *source_commit != '\0' ? source_commit : DTL_BENCH_COMMIT;
  const std::string header = "dtl-hip-mem benchmark on " + props->name + " (" + props->arch + "), HIP platform " +
                             dtl::hip::platform_name() + ", " + DTL_BENCH_BUILD + " build, commit " + commit + ", " +
                             today() + ", median of " + std::to_string(c.runs) + " runs";
  std::printf("%s\n", header.c_str());
  if (!DTL_BENCH_OPTIMISED)
    std::printf(
        "WARNING: this build is not optimised; its numbers say little. Configure with "
        "-Dbuildtype=release (or debugoptimized) to measure.\n");
  std::printf("staging: %s, from %zu bytes, %zu-byte chunks x %u, %u host threads; pool backing for automatic: %s\n",
              staging.enabled ? "on" : "off", staging.min_bytes, staging.chunk_bytes, staging.chunks, staging.threads,
              std::string(dtl::hip::pool_backing_name(dtl::hip::hip_pool_memory_space().backing())).c_str());
  std::fflush(stdout);

  check(hipStreamCreateWithFlags(&c.s1, hipStreamNonBlocking), "hipStreamCreateWithFlags");
  check(hipStreamCreateWithFlags(&c.s2, hipStreamNonBlocking), "hipStreamCreateWithFlags");

  alloc_rows(c);
  {
    const auto mem = dtl::hip::get_memory_info(*dev);
    check(mem, "get_memory_info");
    std::size_t largest = GiB;
    while (largest > 4 * KiB && 2 * largest + 256 * MiB > mem->free) largest /= 2;
    buffers b(largest);
    copy_rows(c, b);
    latency_rows(c, b);
    staging_rows(c, b);
  }
  check(hipStreamDestroy(c.s1), "hipStreamDestroy");
  check(hipStreamDestroy(c.s2), "hipStreamDestroy");

  print_table(c.rows);
  std::printf("\nEach operation reads \"DTL call | raw HIP call\". GB/s rows: higher is better; us rows: lower.\n");
  for (const std::string& note : c.notes) std::printf("note: %s\n", note.c_str());
  const std::string csv = write_csv(c.rows, header);
  std::printf("CSV: %s\n", csv.c_str());
  return 0;
}
