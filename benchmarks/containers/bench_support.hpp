// SPDX-License-Identifier: MIT
#pragma once
// What the device benchmarks share: failing loudly, timing raw against DTL (alternating, medians, the
// slowest rank), and the table with its CSV.

#include "bench_median.hpp"

#include <dtl/containers/communication/context.hpp>

#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace bench {

using clock_type = std::chrono::steady_clock;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "benchmark failed: %s\n", what.c_str());
  std::exit(1);
}
inline void check(hipError_t e, const char* what) {
  if (e != hipSuccess) fail(std::string(what) + ": " + hipGetErrorString(e));
}
template <class R>
void check(const R& r, const char* what) {
  if (!r.has_value()) fail(std::string(what) + ": " + r.error().to_string());
}

/// One timed call of `body`, waited for. With several ranks it starts at a barrier and counts the
/// slowest rank.
template <class F>
double once(const dtl::context& ctx, F& body) {
  if (ctx.size() > 1) check(ctx.barrier(), "barrier");
  const auto t0 = clock_type::now();
  body();
  double s = std::chrono::duration<double>(clock_type::now() - t0).count();
  if (ctx.size() > 1) s = ctx.allreduce_value(s, dtl::reduce_op::max).value();
  return s;
}

/// Seconds per call of `body`: median of `runs` after 3 warm-up calls.
template <class F>
double seconds(const dtl::context& ctx, int runs, F&& body) {
  for (int i = 0; i < 3; ++i) body();
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) samples.push_back(once(ctx, body));
  return median(std::move(samples));
}

/// Seconds per call of the raw and the DTL body, {raw, dtl}: medians of `runs` samples each, taken
/// alternately (raw, DTL, raw, ...) after 3 warm-up calls of each, so that drifting clocks or
/// temperature weigh on both alike.
template <class Raw, class Dtl>
std::pair<double, double> compare(const dtl::context& ctx, int runs, Raw&& raw, Dtl&& dtl_body) {
  for (int i = 0; i < 3; ++i) {
    raw();
    dtl_body();
  }
  std::vector<double> raw_samples, dtl_samples;
  for (int i = 0; i < runs; ++i) {
    raw_samples.push_back(once(ctx, raw));
    dtl_samples.push_back(once(ctx, dtl_body));
  }
  return {median(std::move(raw_samples)), median(std::move(dtl_samples))};
}

struct row {
  std::string what;
  double raw;  // rate, higher is better
  double dtl;
  std::string unit;
  std::string raw_name;
  double target;  // minimum DTL/raw
};

inline void report(const dtl::context& ctx, const std::vector<row>& rows, const std::string& csv_name) {
  if (ctx.rank() != 0) return;
  std::printf("%-58s %10s %10s %8s %8s\n", "operation", "raw", "DTL", "DTL/raw", "target");
  for (const row& r : rows)
    std::printf("%-58s %10.3f %10.3f %8.3f %7s%.2f  (%s; raw = %s)\n", r.what.c_str(), r.raw, r.dtl, r.dtl / r.raw,
                ">=", r.target, r.unit.c_str(), r.raw_name.c_str());
  const char* dir = std::getenv("DTL_BENCH_CSV_DIR");
  const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : ".") + "/" + csv_name;
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fprintf(f, "operation,unit,raw,dtl,ratio,target,raw_baseline\n");
    for (const row& r : rows)
      std::fprintf(f, "\"%s\",%s,%.6f,%.6f,%.4f,%.2f,\"%s\"\n", r.what.c_str(), r.unit.c_str(), r.raw, r.dtl,
                   r.dtl / r.raw, r.target, r.raw_name.c_str());
    std::fclose(f);
    std::printf("CSV: %s\n", path.c_str());
  }
}

}  // namespace bench
