// SPDX-License-Identifier: MIT
// What one call costs: microseconds per call of each DTL algorithm on a vector of 2^16 doubles on one GPU,
// over `calls` back-to-back calls (default 2000) and a final wait, against raw calls timed the same way
// in the same run: a raw elementwise kernel launched asynchronously (what an enqueued DTL call is held
// to: at most +1 µs), the same kernel with a stream synchronize after each launch (what a call followed by
// ctx.synchronize() is set beside: informational, +1 µs shown), and a raw dot (memset,
// kernel, 8-byte read-back into pinned memory: what a DTL value result is held to). Median of 7 batches
// after one warm-up batch. Prints the table and a CSV into $DTL_BENCH_CSV_DIR. Exits 77 without a GPU,
// and with more than one rank. "host us" is the host's own time per call while it issues a batch; past
// the runtime's launch queue (about a thousand launches) the host waits for room there, so a batch of
// 2000 cannot tell the host's cost from the device's pace: "host us, 64" issues batches of 64, which
// the queue always takes, and so is the host's cost alone.
//
//   dtl-percall-bench [calls]
#include "bench_build.hpp"
#include "bench_support.hpp"

#include <dtl/dtl.hpp>

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace bench;
using vector = dtl::distributed_vector<double, dtl::device_only_runtime>;

constexpr std::size_t n = std::size_t{1} << 16;
constexpr int block = 256;

__global__ void axpb_kernel(const double* in, double* out, std::size_t count, double a, double b) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = a * in[i] + b;
}

__global__ void dot_kernel(const double* a, const double* b, std::size_t count, double* out) {
  __shared__ double partial[block];
  double s = 0.0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    s += a[i] * b[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = block / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

/// The host's own microseconds per call in the last us_per_call (its calls issued, before the wait):
/// below the whole time, the device sets the pace; at it, the host does.
double last_issue_us = 0.0;

/// Microseconds per call: `calls` calls of call(), then wait(); median of 7 batches after a warm-up one.
double us_per_call(int calls, const std::function<void()>& call, const std::function<void()>& wait) {
  std::vector<double> batches, issues;
  for (int b = 0; b < 8; ++b) {
    const auto t0 = clock_type::now();
    for (int i = 0; i < calls; ++i) call();
    const auto t1 = clock_type::now();
    wait();
    const double us = std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / calls;
    if (b > 0) batches.push_back(us);
    if (b > 0) issues.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  last_issue_us = median(std::move(issues));
  return median(std::move(batches));
}

/// The host's own microseconds per call over batches of 64 calls (the launch queue never full), each
/// batch then waited for.
double short_issue_us(const std::function<void()>& call, const std::function<void()>& wait) {
  (void)us_per_call(64, call, wait);
  return last_issue_us;
}

/// Spins for about `cycles` device clock cycles: keeps a stream busy while the host is timed.
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

struct line {
  std::string call;
  double us;
  double issue_us;        // the host's part
  double short_issue_us;  // the host's part over batches of 64 (negative: not measured)
  std::string against;    // the raw row it is held to
  double raw_us;
  double allowed_us;  // the most it may add over the raw row
};

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("SKIP: no HIP device\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (ctx.size() != 1) {
    if (ctx.rank() == 0) std::printf("SKIP: the per-call table is of one GPU (run it on one rank)\n");
    return 77;
  }
  warn_if_unoptimized_build();
  const int calls = argc > 1 ? std::max(100, std::atoi(argv[1])) : 2000;

  // Raw: two device arrays, a dot slot, a pinned read-back slot, one non-blocking stream.
  double *in = nullptr, *out = nullptr, *d_dot = nullptr, *h_dot = nullptr;
  hipStream_t stream = nullptr;
  check(hipMalloc(&in, n * sizeof(double)), "hipMalloc");
  check(hipMalloc(&out, n * sizeof(double)), "hipMalloc");
  check(hipMalloc(&d_dot, sizeof(double)), "hipMalloc");
  check(hipHostMalloc(&h_dot, sizeof(double)), "hipHostMalloc");
  check(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking), "hipStreamCreate");
  check(hipMemset(in, 0, n * sizeof(double)), "hipMemset");
  const dim3 grid(static_cast<unsigned>((n + block - 1) / block));
  const auto launch = [&] { hipLaunchKernelGGL(axpb_kernel, grid, dim3(block), 0, stream, in, out, n, 2.0, 1.0); };
  const auto sync = [&] { check(hipStreamSynchronize(stream), "hipStreamSynchronize"); };
  const double raw_async = us_per_call(calls, launch, sync);
  const double raw_async_issue = last_issue_us;
  const double raw_async_short_issue = short_issue_us(launch, sync);
  const double raw_sync = us_per_call(
      calls,
      [&] {
        launch();
        sync();
      },
      [] {});
  const double raw_dot = us_per_call(
      calls,
      [&] {
        check(hipMemsetAsync(d_dot, 0, sizeof(double), stream), "hipMemsetAsync");
        hipLaunchKernelGGL(dot_kernel, dim3(264), dim3(block), 0, stream, in, out, n, d_dot);
        check(hipMemcpyAsync(h_dot, d_dot, sizeof(double), hipMemcpyDeviceToHost, stream), "hipMemcpyAsync");
        sync();
      },
      [] {});

  // What the runtime calls a DTL call makes besides the launch cost, each beside the async launch (the
  // difference is the call's own cost): where DTL's per-call microsecond goes.
  hipEvent_t event = nullptr;
  hipStream_t other = nullptr;
  check(hipEventCreateWithFlags(&event, hipEventDisableTiming), "hipEventCreate");
  check(hipStreamCreateWithFlags(&other, hipStreamNonBlocking), "hipStreamCreate");
  std::vector<double> host_heap(16);
  long long clock_sink = 0;  // keeps the clock reads
  double& host_word = host_heap[3];
  const std::pair<std::string, std::function<void()>> runtime_calls[] = {
      {"hipStreamQuery (busy stream)", [&] { (void)hipStreamQuery(stream); }},
      {"hipGetDevice",
       [&] {
         int d = 0;
         (void)hipGetDevice(&d);
       }},
      {"hipSetDevice (the current one)", [&] { (void)hipSetDevice(0); }},
      {"hipGetLastError", [&] { (void)hipGetLastError(); }},
      // The clocks a call could read to decide whether to query the stream (device_lane::poll_earlier).
      {"std::chrono::steady_clock::now()",
       [&] { clock_sink += std::chrono::steady_clock::now().time_since_epoch().count(); }},
      {"clock_gettime(CLOCK_MONOTONIC_COARSE)",
       [&] {
         timespec ts{};
         clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
         clock_sink += ts.tv_nsec;
       }},
      {"hipPointerGetAttributes (pageable host memory)",
       [&] {
         hipPointerAttribute_t attr{};
         (void)hipPointerGetAttributes(&attr, &host_word);
         (void)hipGetLastError();  // pageable memory may be reported as hipErrorInvalidValue
       }},
      {"hipPointerGetAttributes (device memory)",
       [&] {
         hipPointerAttribute_t attr{};
         (void)hipPointerGetAttributes(&attr, in);
       }},
      {"hipEventRecord + hipStreamWaitEvent",
       [&] {
         (void)hipEventRecord(event, stream);
         (void)hipStreamWaitEvent(other, event, 0);
       }},
  };
  // Each alone, on the host, while a spinning kernel keeps `stream` busy (so the query finds work pending).
  std::vector<std::pair<std::string, double>> runtime_rows;
  for (const auto& [name, extra] : runtime_calls) {
    hipLaunchKernelGGL(spin_kernel, dim3(1), dim3(1), 0, stream, 200000000LL);
    runtime_rows.emplace_back(name, us_per_call(calls, extra, [] {}));
    sync();
  }

  vector x(n, 1.0, ctx), y(n, 2.0, ctx), z(n, ctx);
  vector u(n, 1.0, ctx, dtl::halo{.prev = 1, .next = 1, .periodic = true}), w(n, ctx, dtl::halo{.prev = 1, .next = 1});
  const auto fence = [&] { check(ctx.synchronize(), "synchronize"); };
  const std::string async_row = "raw kernel, launched async", dot_row = "raw dot (memset, kernel, read-back)";
  std::vector<line> lines;
  auto enqueued = [&](const std::string& name, const std::function<void()>& call) {
    const double us = us_per_call(calls, call, fence);
    const double issue = last_issue_us;
    lines.push_back({name, us, issue, short_issue_us(call, fence), async_row, raw_async, 1.0});
  };
  // A call the host then waits for (the fence before raw interop), against a raw launch and a stream wait.
  auto waited = [&](const std::string& name, const std::function<void()>& call) {
    const double us = us_per_call(
        calls,
        [&] {
          call();
          fence();
        },
        [] {});
    lines.push_back({name, us, last_issue_us, -1.0, "raw kernel + stream synchronize", raw_sync, 1.0});
  };
  auto valued = [&](const std::string& name, const std::function<void()>& call) {
    const double us = us_per_call(calls, call, fence);
    lines.push_back({name, us, last_issue_us, -1.0, dot_row, raw_dot, 1.0});
  };
  enqueued("dtl::transform, unary", [&] {
    check(dtl::transform(x, z, [] __host__ __device__(double v) { return 2.0 * v + 1.0; }), "transform");
  });
  enqueued("dtl::transform, binary", [&] {
    check(dtl::transform(x, y, z, [] __host__ __device__(double a, double b) { return a + 2.0 * b; }), "transform");
  });
  enqueued("dtl::fill", [&] { check(dtl::fill(z, 3.0), "fill"); });
  enqueued("dtl::copy", [&] { check(dtl::copy(x, z), "copy"); });
  enqueued("dtl::for_each",
           [&] { check(dtl::for_each(z, [] __host__ __device__(double& v) { v += 1.0; }), "for_each"); });
  enqueued("dtl::stencil_transform (3-point)", [&] {
    check(dtl::stencil_transform(u, w, [] __host__ __device__(const double* p) { return p[-1] + p[0] + p[1]; }),
          "stencil_transform");
  });
  enqueued("halo().exchange() (periodic, one rank)", [&] { check(u.halo().exchange(), "exchange"); });
  waited("halo().exchange() + ctx.synchronize()", [&] { check(u.halo().exchange(), "exchange"); });
  waited("dtl::transform + ctx.synchronize()",
         [&] { check(dtl::transform(x, z, [] __host__ __device__(double v) { return 2.0 * v + 1.0; }), "transform"); });
  enqueued("dtl::inclusive_scan", [&] { check(dtl::inclusive_scan(x, z), "inclusive_scan"); });
  enqueued("dtl::transform(dtl::async{}), nobody waiting", [&] {
    (void)dtl::transform(dtl::async{}, x, z, [] __host__ __device__(double v) { return 2.0 * v + 1.0; });
  });
  double sink = 0.0;
  valued("dtl::dot", [&] { sink += dtl::dot(x, y); });
  valued("dtl::reduce", [&] { sink += dtl::reduce(x, 0.0); });
  valued("dtl::min_element", [&] { sink += static_cast<double>(dtl::min_element(x).global_index); });
  if (sink < 0 || clock_sink == 42) std::printf("%g\n", sink);  // keeps the value calls and the clock reads

  std::printf("one call on 2^16 doubles, one GPU, %s build: microseconds per call over %d calls (median of 7)\n",
              DTL_BENCH_BUILD, calls);
  std::printf("%-48s %9s %9s %9s\n", "raw", "us/call", "host us", "host, 64");
  std::printf("%-48s %9.2f %9.2f %9.2f\n", async_row.c_str(), raw_async, raw_async_issue, raw_async_short_issue);
  std::printf("%-48s %9.2f\n", "raw kernel + stream synchronize", raw_sync);
  std::printf("%-48s %9.2f\n", dot_row.c_str(), raw_dot);
  std::printf("runtime calls alone, on the host (a kernel keeps the stream busy):\n");
  for (const auto& [name, us] : runtime_rows) std::printf("  %-46s %9.3f\n", name.c_str(), us);
  std::printf("%-48s %9s %9s %9s %9s %9s  %s\n", "DTL", "us/call", "host us", "host, 64", "+us", "allowed", "over");
  for (const line& l : lines) {
    char short_issue[32] = "-";
    if (l.short_issue_us >= 0) std::snprintf(short_issue, sizeof short_issue, "%.2f", l.short_issue_us);
    std::printf("%-48s %9.2f %9.2f %9s %+9.2f %9.2f  %s%s\n", l.call.c_str(), l.us, l.issue_us, short_issue,
                l.us - l.raw_us, l.allowed_us, l.against.c_str(), l.us - l.raw_us <= l.allowed_us ? "" : "  (over)");
  }
  const char* dir = std::getenv("DTL_BENCH_CSV_DIR");
  const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : ".") + "/percall-1gpu.csv";
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fprintf(f, "call,us_per_call,raw_baseline,raw_us_per_call,added_us,allowed_us\n");
    std::fprintf(f, "\"%s\",%.3f,,,,\n\"raw kernel + stream synchronize\",%.3f,,,,\n\"%s\",%.3f,,,,\n",
                 async_row.c_str(), raw_async, raw_sync, dot_row.c_str(), raw_dot);
    for (const line& l : lines)
      std::fprintf(f, "\"%s\",%.3f,\"%s\",%.3f,%.3f,%.2f\n", l.call.c_str(), l.us, l.against.c_str(), l.raw_us,
                   l.us - l.raw_us, l.allowed_us);
    std::fclose(f);
    std::printf("CSV: %s\n", path.c_str());
  }
  (void)hipEventDestroy(event);
  (void)hipStreamDestroy(other);
  (void)hipStreamDestroy(stream);
  (void)hipHostFree(h_dot);
  for (double* p : {in, out, d_dot}) (void)hipFree(p);
  return 0;
}
