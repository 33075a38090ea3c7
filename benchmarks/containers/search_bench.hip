// SPDX-License-Identifier: MIT
// dtl-containers benchmark of the one-pass reductions over indices, on one GPU, against raw calls in the
// same run: dot of two 1 GiB double vectors (and of two of 2^25, BabelStream's default size) against
// BabelStream's dot kernel (per-block partial sums, summed on the host) and against the vendor library's
// TransformReduce over a zip iterator; min_element, max_element and find (of a value that is absent: the whole vector
// read) over 1 GiB of double against the vendor library's reduce (min) over the same bytes. Median of `runs` (default
// 21) timed repetitions after warm-up, raw and DTL alternating; every timing includes getting the value on the host.
//
//   dtl-containers-search-bench [runs]
//
// Prints a table (raw, DTL, DTL/raw, target) and writes it as CSV into $DTL_BENCH_CSV_DIR (default .).
// Exits 77 without a GPU, and with more than one rank (the table is of one GPU).
#include "bench_build.hpp"
#include "bench_support.hpp"
#include "raw_baselines.hpp"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace bench;

constexpr std::size_t gib_doubles = std::size_t{1} << 27;  // 1 GiB of double
constexpr double gib = 1024.0 * 1024.0 * 1024.0;

/// A device allocation for the raw calls, freed at the end.
template <class T>
T* device_array(std::size_t n) {
  void* p = nullptr;
  check(hipMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), "hipMalloc");
  return static_cast<T*>(p);
}

void note_if_different(const std::string& what, double raw, double dtl_value) {
  if (std::abs(raw - dtl_value) > 1e-9 * std::max(1.0, std::abs(raw)))
    std::printf("note: %s differs: raw %.17g, DTL %.17g\n", what.c_str(), raw, dtl_value);
}

void one_gpu(const dtl::context& ctx, int runs) {
  using vector = dtl::distributed_vector<double, dtl::device_only_runtime>;
  const std::size_t n = gib_doubles;
  vector x(n, ctx), y(n, ctx);
  // Values that make the sums exact (multiples of 1/4 below 2^53) and the extremes unique.
  check(dtl::for_each_indexed(x, [] __device__(std::size_t i, double& v) { v = 0.25 * static_cast<double>(i % 1024); }),
        "fill x");
  check(dtl::for_each_indexed(y, [] __device__(std::size_t i, double& v) { v = static_cast<double>(i % 3); }),
        "fill y");
  const std::size_t third = y.global_size() / 3;  // a run-time value: a constexpr one needs no capture
  check(dtl::for_each_indexed(y,
                              [third] __device__(std::size_t i, double& v) {
                                if (i == third) v = -1.0;
                                if (i == 2 * third) v = 7.0;
                              }),
        "mark y");

  hipStream_t raw = nullptr;
  check(hipStreamCreateWithFlags(&raw, hipStreamNonBlocking), "hipStreamCreate");
  const int blocks = raw_dot_blocks();
  double* d_partials = device_array<double>(static_cast<std::size_t>(blocks));
  double* h_partials = nullptr;
  check(hipHostMalloc(reinterpret_cast<void**>(&h_partials), sizeof(double) * static_cast<std::size_t>(blocks + 1),
                      hipHostMallocDefault),
        "hipHostMalloc");
  double* d_out = device_array<double>(1);
  std::size_t dot_temp_bytes = 0, min_temp_bytes = 0;
  check(raw_dot_transform_reduce(x.local_data(), y.local_data(), n, d_out, nullptr, dot_temp_bytes, raw), "temp size");
  check(raw_min(y.local_data(), n, d_out, nullptr, min_temp_bytes, raw), "temp size");
  void* temp = device_array<unsigned char>(std::max(dot_temp_bytes, min_temp_bytes));
  const std::string lib = vendor_library();
  std::vector<row> rows;

  // The raw library calls with the value read back, as DTL's bare forms give it.
  auto read_value = [&] {
    check(hipMemcpyAsync(h_partials + blocks, d_out, sizeof(double), hipMemcpyDeviceToHost, raw), "hipMemcpyAsync");
    check(hipStreamSynchronize(raw), "sync");
    return h_partials[blocks];
  };

  double raw_value = 0.0, dtl_value = 0.0;
  const auto [babel_s, dot_s] = compare(
      ctx, runs,
      [&] {
        check(raw_dot_babelstream(x.local_data(), y.local_data(), n, blocks, d_partials, h_partials, raw_value, raw),
              "BabelStream dot");
      },
      [&] { dtl_value = dtl::dot(x, y); });
  note_if_different("dot (BabelStream)", raw_value, dtl_value);
  rows.push_back({"dot of two 1 GiB double vectors", 2 * gib / babel_s / 1e12, 2 * gib / dot_s / 1e12, "TB/s read",
                  "BabelStream dot kernel, partials summed on the host", 1.0});
  {
    // BabelStream's default size, 2^25 doubles a vector: here a value's fixed cost still shows.
    const std::size_t small = std::size_t{1} << 25;
    const double bytes = 2.0 * static_cast<double>(small * sizeof(double));
    vector xs(small, 0.25, ctx), ys(small, 2.0, ctx);
    const auto [babel_small, dot_small] = compare(
        ctx, runs,
        [&] {
          check(raw_dot_babelstream(xs.local_data(), ys.local_data(), small, blocks, d_partials, h_partials, raw_value,
                                    raw),
                "BabelStream dot");
        },
        [&] { dtl_value = dtl::dot(xs, ys); });
    note_if_different("dot of 2^25 (BabelStream)", raw_value, dtl_value);
    rows.push_back({"dot of two 2^25 double vectors (256 MiB each)", bytes / babel_small / 1e12,
                    bytes / dot_small / 1e12, "TB/s read", "BabelStream dot kernel, partials summed on the host", 1.0});
  }

  const auto [tr_s, dot2_s] = compare(
      ctx, runs,
      [&] {
        check(raw_dot_transform_reduce(x.local_data(), y.local_data(), n, d_out, temp, dot_temp_bytes, raw), "raw dot");
        raw_value = read_value();
      },
      [&] { dtl_value = dtl::dot(x, y); });
  note_if_different("dot (" + lib + ")", raw_value, dtl_value);
  rows.push_back({"dot of two 1 GiB double vectors", 2 * gib / tr_s / 1e12, 2 * gib / dot2_s / 1e12, "TB/s read",
                  lib + " TransformReduce over a zip iterator", 0.98});

  const auto raw_min_call = [&] {
    check(raw_min(y.local_data(), n, d_out, temp, min_temp_bytes, raw), "raw min");
    raw_value = read_value();
  };
  const auto [min_raw, min_dtl] = compare(ctx, runs, raw_min_call, [&] { dtl_value = dtl::min_element(y).value; });
  note_if_different("min", raw_value, dtl_value);
  rows.push_back({"min_element, 1 GiB double", gib / min_raw / 1e12, gib / min_dtl / 1e12, "TB/s read",
                  lib + " reduce (min) of the same bytes", 0.95});
  const auto [max_raw, max_dtl] = compare(ctx, runs, raw_min_call, [&] { dtl_value = dtl::max_element(y).value; });
  rows.push_back({"max_element, 1 GiB double", gib / max_raw / 1e12, gib / max_dtl / 1e12, "TB/s read",
                  lib + " reduce (min) of the same bytes", 0.95});
  bool found = true;
  const auto [find_raw, find_dtl] = compare(ctx, runs, raw_min_call, [&] { found = dtl::find(y, 5.0).found; });
  if (found) std::printf("note: find found a value that is not there\n");
  rows.push_back({"find (absent value), 1 GiB double", gib / find_raw / 1e12, gib / find_dtl / 1e12, "TB/s read",
                  lib + " reduce (min) of the same bytes", 0.95});
  const auto [mm_raw, mm_dtl] = compare(ctx, runs, raw_min_call, [&] { static_cast<void>(dtl::minmax_element(y)); });
  rows.push_back({"minmax_element, 1 GiB double", gib / mm_raw / 1e12, gib / mm_dtl / 1e12, "TB/s read",
                  lib + " reduce (min) of the same bytes", 0.90});
  report(ctx, rows, "search-1gpu.csv");

  check(hipFree(temp), "hipFree");
  check(hipFree(d_out), "hipFree");
  check(hipFree(d_partials), "hipFree");
  check(hipHostFree(h_partials), "hipHostFree");
  check(hipStreamDestroy(raw), "hipStreamDestroy");
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the dtl-containers search benchmark\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (ctx.size() != 1) {
    if (ctx.rank() == 0) std::printf("SKIP: the search benchmark runs on one rank\n");
    return 77;
  }
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 21;
  warn_if_unoptimized_build();
  const auto props = dtl::hip::get_device_properties(ctx.device()).value();
  std::printf("dtl-containers search benchmark: %s (%s), %s build, median of %d runs\n", props.name.c_str(),
              props.arch.c_str(), DTL_BENCH_BUILD, runs);
  one_gpu(ctx, runs);
  return 0;
}
