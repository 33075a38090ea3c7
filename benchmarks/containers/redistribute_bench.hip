// SPDX-License-Identifier: MIT
// distributed_vector::redistribute() / resize() of 1 GiB of float on the device, against the raw call
// that moves the same bytes on the same path, in the same run. Median of `runs` (default 21) timed
// calls after warm-up, raw and DTL alternating; every timing waits for the GPU. DTL's figure includes
// everything redistribute does (the new block's allocation, the local copy of what stays, the
// agreement, the exchange, freeing the old block).
//
//   DTL_COLLECTIVES=nccl dtl-redistribute-bench [runs]   one rank: no element can change owner, so
//       resize() alternates 2^28 and 2^28 - 2^20 floats (a new block and a D2D copy of what stays),
//       against a raw grouped ncclSend/ncclRecv to oneself of the same bytes (RCCL/NCCL builds) and
//       against hipMemcpy D2D
//   DTL_COLLECTIVES=mpi_staged mpirun -n 2 dtl-redistribute-bench [runs]   two ranks sharing the GPU:
//       the layout alternates {3/4, 1/4} and {1/4, 3/4} of 2^28 floats, so half the elements (512 MiB)
//       change owner each call, against hipMemcpy to pinned memory + MPI_Alltoallv + hipMemcpy of the
//       moved bytes
//
// Prints the table (GB/s of moved bytes; higher is better; target: DTL >= 0.7 of raw) and the times,
// and writes the CSV into $DTL_BENCH_CSV_DIR. Exits 77 without a GPU.
#include "bench_build.hpp"
#include "bench_support.hpp"
#include "raw_mpi.hpp"

#include <dtl/dtl.hpp>

#if DTL_CONTAINERS_HAS_NCCL
#include DTL_BENCH_NCCL_HEADER
#endif

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace bench;
using vec_t = dtl::distributed_vector<float, dtl::device_only_runtime>;
constexpr std::size_t n = std::size_t{1} << 28;  // 1 GiB of float

void print_times(const dtl::context& ctx, const char* what, double moved_bytes, double raw_s, double dtl_s) {
  if (ctx.rank() != 0) return;
  std::printf("%s: moved %.0f MiB; raw %.3f ms (%.1f GB/s), DTL %.3f ms (%.1f GB/s), DTL/raw %.3f\n", what,
              moved_bytes / (1 << 20), raw_s * 1e3, moved_bytes / raw_s / 1e9, dtl_s * 1e3, moved_bytes / dtl_s / 1e9,
              raw_s / dtl_s);
}

void one_rank(const dtl::context& ctx, int runs) {
  std::vector<row> rows;
  auto stream =
      dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
          .value();
  const hipStream_t s = stream.native_handle();
  std::printf("one rank, device collective path %s (%s)\n",
              std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
              ctx.device_collective_reason().c_str());
  vec_t v(n, 1.0f, ctx);
  const std::size_t small = n - (std::size_t{1} << 20);
  bool shrink = true;
  auto dtl_body = [&] {  // what stays: `small` floats either way
    check(v.resize(shrink ? small : n, 2.0f), "resize");
    shrink = !shrink;
  };
  const double moved = static_cast<double>(small) * sizeof(float);
  float* a = nullptr;
  float* b = nullptr;
  check(hipMalloc(reinterpret_cast<void**>(&a), n * sizeof(float)), "hipMalloc");
  check(hipMalloc(reinterpret_cast<void**>(&b), n * sizeof(float)), "hipMalloc");
  check(hipMemset(a, 0, n * sizeof(float)), "hipMemset");
  {
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {
          check(hipMemcpyAsync(b, a, small * sizeof(float), hipMemcpyDeviceToDevice, s), "hipMemcpyAsync");
          check(hipStreamSynchronize(s), "sync");
        },
        dtl_body);
    rows.push_back({"resize 1 GiB float, 1 rank (new block + D2D copy of what stays)", moved / raw_s / 1e9,
                    moved / dtl_s / 1e9, "GB/s", "hipMemcpyAsync D2D of the same bytes", 0.7});
    print_times(ctx, "resize vs hipMemcpy D2D", moved, raw_s, dtl_s);
  }
#if DTL_CONTAINERS_HAS_NCCL
  if (ctx.device_collective_path() == dtl::collective_path::nccl) {
    ncclComm_t comm = nullptr;
    ncclUniqueId id{};
    ncclGetUniqueId(&id);
    {
      auto guard = dtl::hip::device_guard::enter(ctx.device()).value();
      if (ncclCommInitRank(&comm, 1, id, 0) != ncclSuccess) fail("ncclCommInitRank");
    }
    const std::size_t bytes = small * sizeof(float);
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {
          if (ncclGroupStart() != ncclSuccess || ncclSend(a, bytes, ncclChar, 0, comm, s) != ncclSuccess ||
              ncclRecv(b, bytes, ncclChar, 0, comm, s) != ncclSuccess || ncclGroupEnd() != ncclSuccess)
            fail("raw ncclSend/ncclRecv");
          check(hipStreamSynchronize(s), "sync");
        },
        dtl_body);
    rows.push_back({"resize 1 GiB float, 1 rank (nccl path)", moved / raw_s / 1e9, moved / dtl_s / 1e9, "GB/s",
                    "grouped ncclSend/ncclRecv to self, same bytes", 0.7});
    print_times(ctx, "resize vs raw NCCL self", moved, raw_s, dtl_s);
    ncclCommDestroy(comm);
  }
#endif
  check(hipFree(a), "hipFree");
  check(hipFree(b), "hipFree");
  report(ctx, rows, "redistribute-1rank.csv");
}

void two_ranks_sharing(const dtl::context& ctx, int runs) {
  std::vector<row> rows;
  const int me = ctx.rank();
  if (me == 0)
    std::printf("2 ranks, device collective path %s (%s)\n",
                std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                ctx.device_collective_reason().c_str());
  if (!raw_mpi::available()) fail("MPI is not running");
  const std::vector<std::size_t> a_layout{3 * n / 4, n - 3 * n / 4}, b_layout{n / 4, n - n / 4};
  vec_t v(n, 1.0f, ctx);
  check(v.redistribute(a_layout), "redistribute");
  bool to_b = true;
  auto dtl_body = [&] {  // elements [n/4, 3n/4) change owner each call
    check(v.redistribute(to_b ? b_layout : a_layout), "redistribute");
    to_b = !to_b;
  };
  const std::size_t moved_elems = n / 2, moved_bytes = moved_elems * sizeof(float);
  // Raw: rank 0 sends its elements [n/4, 3n/4) to rank 1, staged by hand through pinned memory.
  float* d = nullptr;
  void* h = nullptr;
  check(hipMalloc(reinterpret_cast<void**>(&d), 3 * n / 4 * sizeof(float)), "hipMalloc");
  check(hipMemset(d, 0, 3 * n / 4 * sizeof(float)), "hipMemset");
  check(hipHostMalloc(&h, moved_bytes, hipHostMallocDefault), "hipHostMalloc");
  void* h_recv = nullptr;
  check(hipHostMalloc(&h_recv, moved_bytes, hipHostMallocDefault), "hipHostMalloc");
  const std::vector<std::size_t> zero{0, 0};
  const std::vector<std::size_t> send_bytes = me == 0 ? std::vector<std::size_t>{0, moved_bytes} : zero;
  const std::vector<std::size_t> recv_bytes = me == 1 ? std::vector<std::size_t>{moved_bytes, 0} : zero;
  const auto [raw_s, dtl_s] = compare(
      ctx, runs,
      [&] {
        if (me == 0) check(hipMemcpy(h, d + n / 4, moved_bytes, hipMemcpyDeviceToHost), "hipMemcpy");
        raw_mpi::alltoallv(h, send_bytes.data(), zero.data(), h_recv, recv_bytes.data(), zero.data());
        if (me == 1) check(hipMemcpy(d + n / 4, h_recv, moved_bytes, hipMemcpyHostToDevice), "hipMemcpy");
      },
      dtl_body);
  rows.push_back({"redistribute 1 GiB float, half changes owner, 2 ranks sharing the GPU", moved_bytes / raw_s / 1e9,
                  moved_bytes / dtl_s / 1e9, "GB/s", "hipMemcpy + MPI_Alltoallv + hipMemcpy of the moved bytes", 0.7});
  print_times(ctx, "redistribute vs raw staged MPI_Alltoallv", static_cast<double>(moved_bytes), raw_s, dtl_s);
  check(hipFree(d), "hipFree");
  check(hipHostFree(h), "hipHostFree");
  check(hipHostFree(h_recv), "hipHostFree");
  report(ctx, rows, "redistribute-2ranks.csv");
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const int runs = argc > 1 ? std::max(5, std::atoi(argv[1])) : 21;
  if (dtl::hip::device_count() == 0) {
    if (env.rank() == 0) std::printf("SKIP: no GPU\n");
    return 77;
  }
  const dtl::context ctx = env.make_world_context();
  if (ctx.rank() == 0) warn_if_unoptimized_build();
  if (ctx.size() == 1)
    one_rank(ctx, runs);
  else if (ctx.size() == 2)
    two_ranks_sharing(ctx, runs);
  else if (ctx.rank() == 0)
    std::printf("SKIP: one or two ranks\n");
  return ctx.size() <= 2 ? 0 : 77;
}
