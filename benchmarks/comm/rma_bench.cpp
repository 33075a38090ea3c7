// SPDX-License-Identifier: MIT
// dtl::memory_window's one-sided put, get and accumulate against raw MPI_Put, MPI_Get and MPI_Accumulate
// on the same kind of window (MPI_Win_create over a host buffer of each rank), measured in the same run
// on 2 ranks: 8 bytes and 1 MiB. Both windows are in a lock_all epoch; each call is rank 0's access to
// rank 1 completed by a flush of rank 1 (MPI_Win_flush / window.flush), rank 1 doing nothing. Accumulate
// sums doubles. Table: rank 0's median in microseconds per call and raw/DTL (1.0: DTL adds nothing).
// Exits 77 (skip) on fewer than 2 ranks.
// Usage: mpiexec -n 2 dtl-rma-bench [samples]   (default 201, at least 200)
#include "bench_build.hpp"
#include "comm/bench_compare.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/rma/rma.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace bench;

std::string size_name(std::size_t bytes) {
  return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " B";
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const int samples = argc > 1 ? std::max(200, std::atoi(argv[1])) : default_samples;
  if (env.rank_count() < 2) {
    if (env.rank() == 0) std::printf("SKIP: the one-sided benchmark needs 2 ranks (mpiexec -n 2)\n");
    return 77;
  }
  const dtl::context ctx = env.make_world_context();
  MPI_Comm sync = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &sync), "MPI_Comm_dup");
  const bool origin = env.rank() == 0;
  constexpr int target = 1;
  if (origin) {
    warn_if_unoptimized_build();
    std::printf(
        "dtl::memory_window one-sided access, rank 0 to rank 1 of %d, host buffers (%s, thread level %s), %s "
        "build, median of %d samples after %d warm-up (rank 0)\n",
        env.rank_count(), mpi_library().c_str(), level_name(env.mpi_thread_level()), DTL_BENCH_BUILD, samples,
        warm_up_samples);
    std::printf("%-44s %10s %10s %8s\n", "operation (microseconds per call)", "raw MPI", "DTL", "raw/DTL");
  }
  auto row = [&](const std::string& name, const measured& m) {
    if (origin) std::printf("%-44s %10.3f %10.3f %8.2f\n", name.c_str(), m.raw_us, m.dtl_us, m.raw_us / m.dtl_us);
  };

  for (const std::size_t bytes : {std::size_t{8}, std::size_t{1} << 20}) {
    const std::size_t n = bytes / sizeof(double);
    const int count = static_cast<int>(n);
    const int batch = bytes >= (1u << 20) ? 2 : 50;
    std::vector<double> raw_region(n, 0.0), dtl_region(n, 0.0), local(n, 1.0), back(n, 0.0);
    MPI_Win raw = MPI_WIN_NULL;
    check_mpi(MPI_Win_create(raw_region.data(), static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &raw),
              "MPI_Win_create");
    auto made = dtl::memory_window::create(ctx, dtl_region.data(), bytes);
    check(made, "memory_window::create");
    dtl::memory_window& w = *made;
    check_mpi(MPI_Win_lock_all(0, raw), "MPI_Win_lock_all");
    check(w.lock_all(), "lock_all");

    row("put + flush, " + size_name(bytes),
        compare(
            sync, samples, batch,
            [&] {
              if (!origin) return;
              check_mpi(MPI_Put(local.data(), count, MPI_DOUBLE, target, 0, count, MPI_DOUBLE, raw), "MPI_Put");
              check_mpi(MPI_Win_flush(target, raw), "MPI_Win_flush");
            },
            [&] {
              if (!origin) return;
              check(dtl::rma::put(target, 0, local.data(), bytes, w), "rma::put");
              check(w.flush(target), "flush");
            }));
    row("get + flush, " + size_name(bytes),
        compare(
            sync, samples, batch,
            [&] {
              if (!origin) return;
              check_mpi(MPI_Get(back.data(), count, MPI_DOUBLE, target, 0, count, MPI_DOUBLE, raw), "MPI_Get");
              check_mpi(MPI_Win_flush(target, raw), "MPI_Win_flush");
            },
            [&] {
              if (!origin) return;
              check(dtl::rma::get(target, 0, back.data(), bytes, w), "rma::get");
              check(w.flush(target), "flush");
            }));
    if (origin && back != local) fail("get: the bytes put did not come back");
    row("accumulate sum (double) + flush, " + size_name(bytes),
        compare(
            sync, samples, batch,
            [&] {
              if (!origin) return;
              check_mpi(MPI_Accumulate(local.data(), count, MPI_DOUBLE, target, 0, count, MPI_DOUBLE, MPI_SUM, raw),
                        "MPI_Accumulate");
              check_mpi(MPI_Win_flush(target, raw), "MPI_Win_flush");
            },
            [&] {
              if (!origin) return;
              check(dtl::rma::accumulate(target, 0, std::span<const double>(local), dtl::rma_reduce_op::sum, w),
                    "rma::accumulate");
              check(w.flush(target), "flush");
            }));

    check_mpi(MPI_Win_unlock_all(raw), "MPI_Win_unlock_all");
    check(w.unlock_all(), "unlock_all");
    check_mpi(MPI_Barrier(sync), "MPI_Barrier");
    // Rank 1's regions: both got the same number of accumulates (warm-up and samples alike).
    if (!origin && raw_region != dtl_region) fail("accumulate: the raw and DTL windows disagree");
    check_mpi(MPI_Win_free(&raw), "MPI_Win_free");
  }
  check_mpi(MPI_Comm_free(&sync), "MPI_Comm_free");
  return 0;
}
