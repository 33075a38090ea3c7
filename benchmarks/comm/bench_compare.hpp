// SPDX-License-Identifier: MIT
#pragma once
// What the MPI benchmarks (comm_bench.cpp, rma_bench.cpp) share: raw and DTL timed alternately, sample by
// sample after a barrier on a separate communicator, so that drift cancels; medians in microseconds per
// call; failures end the job.

#include "bench_median.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace bench {

using clock_type = std::chrono::steady_clock;
constexpr int warm_up_samples = 20;
constexpr int default_samples = 201;

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "benchmark failed: %s\n", what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

inline void check_mpi(int err, const char* what) {
  if (err != MPI_SUCCESS) fail(std::string(what) + " failed");
}

template <class R>
void check(const R& r, const char* what) {
  if (!r.has_value()) fail(std::string(what) + ": " + r.error().to_string());
}

struct measured {
  double raw_us;
  double dtl_us;
};

/// Medians (microseconds per call) of `samples` samples of `batch` calls of raw and dtl, alternating.
inline measured compare(MPI_Comm sync, int samples, int batch, const std::function<void()>& raw,
                        const std::function<void()>& dtl) {
  auto sample = [&](const std::function<void()>& op) {
    check_mpi(MPI_Barrier(sync), "MPI_Barrier");
    const auto t0 = clock_type::now();
    for (int i = 0; i < batch; ++i) op();
    return std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / batch;
  };
  std::vector<double> r, d;
  for (int i = 0; i < warm_up_samples + samples; ++i) {
    const double raw_us = sample(raw);
    const double dtl_us = sample(dtl);
    if (i < warm_up_samples) continue;
    r.push_back(raw_us);
    d.push_back(dtl_us);
  }
  return {median(std::move(r)), median(std::move(d))};
}

inline const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "single";
    case MPI_THREAD_FUNNELED: return "funneled";
    case MPI_THREAD_SERIALIZED: return "serialized";
    default: return "multiple";
  }
}

/// The MPI library's name and version ("Open MPI v4.1.6").
inline std::string mpi_library() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string mpi(version, static_cast<std::size_t>(length));
  mpi.resize(std::min(mpi.find_first_of("\n,"), mpi.size()));
  return mpi;
}

}  // namespace bench
