// SPDX-License-Identifier: MIT
#pragma once
// Timing, rows, the printed table and the CSV of the memory benchmark.

#include "bench_median.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace mem_bench {

using clock_type = std::chrono::steady_clock;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "benchmark failed: %s\n", what.c_str());
  std::exit(1);
}

/// Microseconds per call of `op`, over `iterations` calls.
template <class F>
double micros_per_op(int iterations, F&& op) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < iterations; ++i) op();
  return std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / iterations;
}

/// How many calls of `op` fill about `target_us` (at least 1), from one timed call (which also warms up).
template <class F>
int calibrate(double target_us, F&& op) {
  const double one = micros_per_op(1, op);
  return static_cast<int>(std::clamp(target_us / std::max(one, 0.01), 1.0, 100000.0));
}

/// The median of `runs` samples of `op` (microseconds per op), after one warm-up sample.
template <class F>
double median_us(int runs, double target_us, F&& op) {
  const int n = calibrate(target_us, op);
  micros_per_op(n, op);
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) samples.push_back(micros_per_op(n, op));
  return median(std::move(samples));
}

/// Medians of `runs` samples of raw and dtl (microseconds per op), taken alternately so that drift
/// between them cancels; one warm-up sample of each is dropped first.
template <class Raw, class Dtl>
std::pair<double, double> medians(int runs, double target_us, Raw&& raw, Dtl&& dtl) {
  const int raw_n = calibrate(target_us, raw);
  const int dtl_n = calibrate(target_us, dtl);
  micros_per_op(raw_n, raw);
  micros_per_op(dtl_n, dtl);
  std::vector<double> r;
  std::vector<double> d;
  for (int i = 0; i < runs; ++i) {
    r.push_back(micros_per_op(raw_n, raw));
    d.push_back(micros_per_op(dtl_n, dtl));
  }
  return {median(std::move(r)), median(std::move(d))};
}

struct row {
  std::string group;      // alloc, copy, latency, staging
  std::string operation;  // what both columns do
  std::size_t bytes;
  std::string unit;  // "us" (lower is better) or "GB/s" (higher is better)
  double raw;        // < 0: no raw counterpart
  double dtl;
  std::string note;
};

inline double gbps(std::size_t bytes, double micros) { return static_cast<double>(bytes) / (micros * 1e3); }

inline std::string size_name(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

inline void print_table(const std::vector<row>& rows) {
  std::string group;
  for (const row& r : rows) {
    if (r.group != group) {
      group = r.group;
      std::printf("\n%-58s %8s %5s %10s %10s %8s  %s\n", ("[" + group + "]").c_str(), "size", "unit", "raw HIP", "DTL",
                  "DTL/raw", "note");
    }
    const std::string size = size_name(r.bytes);
    if (r.raw >= 0.0) {
      std::printf("%-58s %8s %5s %10.3f %10.3f %8.3f  %s\n", r.operation.c_str(), size.c_str(), r.unit.c_str(), r.raw,
                  r.dtl, r.raw > 0.0 ? r.dtl / r.raw : 0.0, r.note.c_str());
    } else {
      std::printf("%-58s %8s %5s %10s %10.3f %8s  %s\n", r.operation.c_str(), size.c_str(), r.unit.c_str(), "-", r.dtl,
                  "-", r.note.c_str());
    }
  }
}

/// Writes the rows as CSV into the folder named by DTL_BENCH_CSV_DIR (default: the current folder).
inline std::string write_csv(const std::vector<row>& rows, const std::string& header_comment) {
  const char* dir = std::getenv("DTL_BENCH_CSV_DIR");
  const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : ".") + "/dtl-mem-bench.csv";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) fail("cannot write " + path);
  std::fprintf(f, "# %s\n", header_comment.c_str());
  std::fprintf(f, "group,operation,bytes,unit,raw,dtl,ratio,note\n");
  for (const row& r : rows) {
    std::fprintf(f, "%s,\"%s\",%zu,%s,", r.group.c_str(), r.operation.c_str(), r.bytes, r.unit.c_str());
    if (r.raw >= 0.0)
      std::fprintf(f, "%.6g,%.6g,%.6g,", r.raw, r.dtl, r.raw > 0.0 ? r.dtl / r.raw : 0.0);
    else
      std::fprintf(f, ",%.6g,,", r.dtl);
    std::fprintf(f, "\"%s\"\n", r.note.c_str());
  }
  if (std::fclose(f) != 0) fail("cannot write " + path);
  return path;
}

}  // namespace mem_bench
