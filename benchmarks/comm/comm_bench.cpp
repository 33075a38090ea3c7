// SPDX-License-Identifier: MIT
// dtl::context collectives on host buffers against the raw MPI call, measured in the same run on the
// same ranks (mpiexec -n 2): allreduce (sum of double) of 1, 128, 1024 and 1M elements, broadcast,
// gather and scan of the same sizes, barrier, and point-to-point (ping-pong, sendrecv) and alltoallv of
// the same sizes. DTL runs on its world
// context, raw MPI on a duplicate of MPI_COMM_WORLD.
//
// Each sample times `batch` calls on every rank after a barrier on the raw communicator (so that the
// ranks start together), raw and DTL alternating sample by sample so that drift cancels; after the
// warm-up samples, the table gives rank 0's median in microseconds per call and raw/DTL (1.0: DTL adds
// nothing; below 1: DTL is slower). Exits 77 (skip) on fewer than 2 ranks.
// Usage: mpiexec -n 2 dtl-comm-bench [samples]   (default 201, at least 200)
#include "bench_build.hpp"
#include "comm/bench_compare.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace bench;

std::string elements(std::size_t n) { return n >= (1u << 20) ? std::to_string(n >> 20) + "M" : std::to_string(n); }

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const int samples = argc > 1 ? std::max(200, std::atoi(argv[1])) : default_samples;
  if (env.rank_count() < 2) {
    if (env.rank() == 0) std::printf("SKIP: the collectives benchmark needs 2 ranks (mpiexec -n 2)\n");
    return 77;
  }
  const dtl::context ctx = env.make_world_context();
  MPI_Comm raw_comm = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &raw_comm), "MPI_Comm_dup");
  MPI_Comm sync = MPI_COMM_NULL;  // the barrier before each sample, apart from the timed communicator
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &sync), "MPI_Comm_dup");
  const bool root = env.rank() == 0;

  if (root) {
    warn_if_unoptimized_build();
    const std::string mpi = mpi_library();
    std::printf(
        "dtl::context collectives on %d ranks, host buffers (%s, thread level %s), %s build, median of %d "
        "samples after %d warm-up (rank 0)\n",
        env.rank_count(), mpi.c_str(), level_name(env.mpi_thread_level()), DTL_BENCH_BUILD, samples, warm_up_samples);
    std::printf("%-44s %10s %10s %8s\n", "operation (microseconds per call)", "raw MPI", "DTL", "raw/DTL");
  }
  auto row = [&](const std::string& name, const measured& m) {
    if (root) std::printf("%-44s %10.3f %10.3f %8.2f\n", name.c_str(), m.raw_us, m.dtl_us, m.raw_us / m.dtl_us);
  };

  const std::size_t sizes[] = {1, 128, 1024, std::size_t{1} << 20};
  auto batch_for = [](std::size_t n) { return n >= (1u << 20) ? 1 : 20; };  // 1M: one call is long enough
  for (const std::size_t n : sizes) {
    const int count = static_cast<int>(n);
    std::vector<double> in(n, 1.0 + env.rank()), raw_out(n), dtl_out(n);
    row("allreduce sum, " + elements(n) + " double",
        compare(
            sync, samples, batch_for(n),
            [&] {
              check_mpi(MPI_Allreduce(in.data(), raw_out.data(), count, MPI_DOUBLE, MPI_SUM, raw_comm),
                        "MPI_Allreduce");
            },
            [&] { check(ctx.allreduce(in.data(), dtl_out.data(), n, dtl::reduce_op::sum), "allreduce"); }));
    if (raw_out != dtl_out) fail("allreduce: DTL and MPI disagree");
  }
  for (const std::size_t n : sizes) {
    const int count = static_cast<int>(n);
    std::vector<double> data(n, root ? 2.0 : 0.0);
    row("broadcast from rank 0, " + elements(n) + " double",
        compare(
            sync, samples, batch_for(n),
            [&] { check_mpi(MPI_Bcast(data.data(), count, MPI_DOUBLE, 0, raw_comm), "MPI_Bcast"); },
            [&] { check(ctx.broadcast(data.data(), n, 0), "broadcast"); }));
    if (data != std::vector<double>(n, 2.0)) fail("broadcast: the data did not arrive");
  }
  for (const std::size_t n : sizes) {
    const int count = static_cast<int>(n);
    const std::size_t p = static_cast<std::size_t>(env.rank_count());
    std::vector<double> in(n, 1.0 + env.rank()), raw_out(root ? n * p : 0), dtl_out(root ? n * p : 0);
    row("gather to rank 0, " + elements(n) + " double",
        compare(
            sync, samples, batch_for(n),
            [&] {
              check_mpi(MPI_Gather(in.data(), count, MPI_DOUBLE, raw_out.data(), count, MPI_DOUBLE, 0, raw_comm),
                        "MPI_Gather");
            },
            [&] { check(ctx.gather(in.data(), dtl_out.data(), n, 0), "gather"); }));
    if (raw_out != dtl_out) fail("gather: DTL and MPI disagree");
  }
  for (const std::size_t n : sizes) {
    const int count = static_cast<int>(n);
    std::vector<double> in(n, 1.0 + env.rank()), raw_out(n), dtl_out(n);
    row("scan sum, " + elements(n) + " double",
        compare(
            sync, samples, batch_for(n),
            [&] { check_mpi(MPI_Scan(in.data(), raw_out.data(), count, MPI_DOUBLE, MPI_SUM, raw_comm), "MPI_Scan"); },
            [&] { check(ctx.scan(in.data(), dtl_out.data(), n, dtl::reduce_op::sum), "scan"); }));
    if (raw_out != dtl_out) fail("scan: DTL and MPI disagree");
  }
  row("barrier", compare(
                     sync, samples, 20, [&] { check_mpi(MPI_Barrier(raw_comm), "MPI_Barrier"); },
                     [&] { check(ctx.barrier(), "barrier"); }));

  // Point-to-point between ranks 0 and 1 (the others, if any, wait): a ping-pong (send, then receive
  // the reply; the time is one round trip) and a sendrecv exchange.
  const int me = env.rank();
  const bool pair = me < 2;
  const int peer = 1 - me;
  for (const std::size_t n : sizes) {
    const int count = static_cast<int>(n);
    std::vector<double> out(n, 1.0 + me), in(n, 0.0);
    row("ping-pong send/recv, " + elements(n) + " double",
        compare(
            sync, samples, batch_for(n),
            [&] {
              if (!pair) return;
              if (me == 0) {
                check_mpi(MPI_Send(out.data(), count, MPI_DOUBLE, peer, 0, raw_comm), "MPI_Send");
                check_mpi(MPI_Recv(in.data(), count, MPI_DOUBLE, peer, 0, raw_comm, MPI_STATUS_IGNORE), "MPI_Recv");
              } else {
                check_mpi(MPI_Recv(in.data(), count, MPI_DOUBLE, peer, 0, raw_comm, MPI_STATUS_IGNORE), "MPI_Recv");
                check_mpi(MPI_Send(out.data(), count, MPI_DOUBLE, peer, 0, raw_comm), "MPI_Send");
              }
            },
            [&] {
              if (!pair) return;
              if (me == 0) {
                check(ctx.send(out.data(), n, peer, 0), "send");
                check(ctx.recv(in.data(), n, peer, 0), "recv");
              } else {
                check(ctx.recv(in.data(), n, peer, 0), "recv");
                check(ctx.send(out.data(), n, peer, 0), "send");
              }
            }));
    if (pair && in != std::vector<double>(n, 1.0 + peer)) fail("send/recv: the data did not arrive");
  }
  for (const std::size_t n : sizes) {
    const int count = static_cast<int>(n);
    std::vector<double> out(n, 1.0 + me), in(n, 0.0);
    row("sendrecv exchange, " + elements(n) + " double",
        compare(
            sync, samples, batch_for(n),
            [&] {
              if (pair)
                check_mpi(MPI_Sendrecv(out.data(), count, MPI_DOUBLE, peer, 0, in.data(), count, MPI_DOUBLE, peer, 0,
                                       raw_comm, MPI_STATUS_IGNORE),
                          "MPI_Sendrecv");
            },
            [&] {
              if (pair) check(ctx.sendrecv(out.data(), n, peer, in.data(), n, peer, 0), "sendrecv");
            }));
    if (pair && in != std::vector<double>(n, 1.0 + peer)) fail("sendrecv: the data did not arrive");
  }
  // All-to-all with per-peer counts: n elements to every rank.
  for (const std::size_t n : sizes) {
    const std::size_t p = static_cast<std::size_t>(env.rank_count());
    std::vector<double> out(n * p, 1.0 + me), in(n * p, 0.0);
    std::vector<int> counts(p, static_cast<int>(n)), displs(p);
    std::vector<std::size_t> counts_z(p, n), displs_z(p);
    for (std::size_t r = 0; r < p; ++r) {
      displs[r] = static_cast<int>(r * n);
      displs_z[r] = r * n;
    }
    row("alltoallv, " + elements(n) + " double per peer",
        compare(
            sync, samples, batch_for(n),
            [&] {
              check_mpi(MPI_Alltoallv(out.data(), counts.data(), displs.data(), MPI_DOUBLE, in.data(), counts.data(),
                                      displs.data(), MPI_DOUBLE, raw_comm),
                        "MPI_Alltoallv");
            },
            [&] { check(ctx.alltoallv(out.data(), counts_z, displs_z, in.data(), counts_z, displs_z), "alltoallv"); }));
    for (std::size_t r = 0; r < p; ++r)
      if (in[r * n] != 1.0 + static_cast<double>(r)) fail("alltoallv: the data did not arrive");
  }

  MPI_Comm_free(&sync);
  MPI_Comm_free(&raw_comm);
  return 0;
}
