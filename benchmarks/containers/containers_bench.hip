// SPDX-License-Identifier: MIT
// dtl-containers benchmark: DTL's algorithms and collectives against the raw vendor calls, in the same
// run, on 1 GiB of float. Median of `runs` (default 21) timed repetitions after warm-up, raw and DTL
// alternating; each timing includes waiting for the GPU, as a caller of a blocking call does.
//
//   dtl-containers-bench [runs]                 one rank: fill, transform (x -> a x + b), reduce (sum)
//   mpirun -n 2 dtl-containers-bench [runs]     two ranks, one GPU each: context allreduce against raw
//                                               RCCL/NCCL, and reduce weak scaling against one GPU
//
// Prints a table (raw, DTL, DTL/raw, target) and writes it as CSV into $DTL_BENCH_CSV_DIR (default .).
// Exits 77 without a GPU, or with several ranks that do not have a GPU each.
#include "bench_build.hpp"
#include "bench_support.hpp"
#include "raw_baselines.hpp"

#include <dtl/dtl.hpp>

#if DTL_CONTAINERS_HAS_NCCL
#include DTL_BENCH_NCCL_HEADER
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace bench;

constexpr std::size_t gib_floats = std::size_t{1} << 28;  // 1 GiB of float
constexpr double gib = 1024.0 * 1024.0 * 1024.0;

void one_gpu(const dtl::context& ctx, int runs) {
  using vector = dtl::distributed_vector<float, dtl::device_only_runtime>;
  const std::size_t n = gib_floats;
  vector x(n, 1.0f, ctx), y(n, ctx);
  hipStream_t raw = nullptr;
  check(hipStreamCreateWithFlags(&raw, hipStreamNonBlocking), "hipStreamCreate");
  float* d_sum = nullptr;
  float* h_sum = nullptr;
  check(hipMalloc(reinterpret_cast<void**>(&d_sum), sizeof(float)), "hipMalloc");
  check(hipHostMalloc(reinterpret_cast<void**>(&h_sum), sizeof(float), hipHostMallocDefault), "hipHostMalloc");
  std::size_t temp_bytes = 0;
  check(bench::raw_sum(x.local_data(), n, d_sum, nullptr, temp_bytes, raw), "raw sum (size)");
  void* temp = nullptr;
  check(hipMalloc(&temp, temp_bytes), "hipMalloc");
  const float a = 2.0f, b = 1.0f;
  std::vector<row> rows;

  const auto [fill_raw, fill_dtl] = compare(
      ctx, runs,
      [&] {
        check(bench::raw_fill(y.local_data(), n, 3.0f, raw), "raw fill");
        check(hipStreamSynchronize(raw), "sync");
      },
      [&] {
        check(dtl::fill(y, 3.0f), "dtl::fill");
        check(y.synchronize(), "dtl sync");  // fill is stream-ordered: time it to its end, as the raw side is
      });
  rows.push_back({"fill 1 GiB float", gib / fill_raw / 1e12, gib / fill_dtl / 1e12, "TB/s written",
                  "float4 grid-stride kernel", 0.95});

  const auto axpb = [a, b] __device__(float v) { return a * v + b; };
  const auto [tr_raw, tr_dtl] = compare(
      ctx, runs,
      [&] {
        check(bench::raw_transform(x.local_data(), y.local_data(), n, a, b, raw), "raw transform");
        check(hipStreamSynchronize(raw), "sync");
      },
      [&] {
        check(dtl::transform(x, y, axpb), "dtl::transform");
        check(y.synchronize(), "dtl sync");
      });
  rows.push_back({"transform x -> a*x+b, 1 GiB float", 2 * gib / tr_raw / 1e12, 2 * gib / tr_dtl / 1e12,
                  "TB/s read+write", std::string(bench::vendor_library()) + " transform", 1.0});

  float raw_value = 0.0f, dtl_value = 0.0f;
  const auto [red_raw, red_dtl] = compare(
      ctx, runs,
      [&] {
        check(bench::raw_sum(x.local_data(), n, d_sum, temp, temp_bytes, raw), "raw sum");
        check(hipMemcpyAsync(h_sum, d_sum, sizeof(float), hipMemcpyDeviceToHost, raw), "hipMemcpyAsync");
        check(hipStreamSynchronize(raw), "sync");
        raw_value = *h_sum;
      },
      [&] { dtl_value = dtl::reduce(x, 0.0f); });
  rows.push_back({"reduce (sum), 1 GiB float, value on the host", gib / red_raw / 1e12, gib / red_dtl / 1e12,
                  "TB/s read", std::string(bench::vendor_library()) + " sum + copy of the value", 1.0});
  if (raw_value != dtl_value) std::printf("note: sums differ: raw %.1f, DTL %.1f\n", raw_value, dtl_value);
  report(ctx, rows, "containers-1gpu.csv");

  check(hipFree(temp), "hipFree");
  check(hipFree(d_sum), "hipFree");
  check(hipHostFree(h_sum), "hipHostFree");
  check(hipStreamDestroy(raw), "hipStreamDestroy");
}

void several_gpus(const dtl::environment& env, const dtl::context& ctx, int runs) {
  const int p = ctx.size();
  using vector = dtl::distributed_vector<float, dtl::device_only_runtime>;
  std::vector<row> rows;
  auto stream =
      dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
          .value();
#if DTL_CONTAINERS_HAS_NCCL
  {
    // Context allreduce of a 1 GiB device buffer against raw RCCL/NCCL on the same buffer.
    vector buf(gib_floats * static_cast<std::size_t>(p), 1.0f, ctx);
    float* d = buf.local_data();
    ncclUniqueId id{};
    if (ctx.rank() == 0) ncclGetUniqueId(&id);
    check(ctx.broadcast(&id, 1, 0), "broadcast of the NCCL id");
    ncclComm_t comm = nullptr;
    {
      auto guard = dtl::hip::device_guard::enter(ctx.device()).value();
      if (ncclCommInitRank(&comm, p, id, ctx.rank()) != ncclSuccess) fail("ncclCommInitRank");
    }
    const double bus = 2.0 * (p - 1) / p * gib;
    // DTL's is waited for as the raw call is (on the stream): future::get() alone would add its polling.
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {
          if (ncclAllReduce(d, d, gib_floats, ncclFloat32, ncclSum, comm, stream.native_handle()) != ncclSuccess)
            fail("ncclAllReduce");
          check(stream.synchronize(), "sync");
        },
        [&] {
          auto done = ctx.allreduce(d, d, gib_floats, dtl::reduce_op::sum, stream);
          check(stream.synchronize(), "sync");
          check(done.get_result(), "context allreduce");
        });
    ncclCommDestroy(comm);
    rows.push_back({"context allreduce of a 1 GiB device buffer (" + std::to_string(p) + " ranks)", bus / raw_s / 1e9,
                    bus / dtl_s / 1e9, "GB/s bus bandwidth", "ncclAllReduce", 0.90});
  }
#endif
  // Weak scaling: 1 GiB per rank. One GPU alone (a context of one rank), then every rank together.
  const dtl::context alone = ctx.split(ctx.rank()).value();
  const double one_s = [&] {
    vector mine(gib_floats, 1.0f, alone);
    return seconds(ctx, runs, [&] { static_cast<void>(dtl::reduce(mine, 0.0f)); });
  }();
  const double one_rate = gib / one_s / 1e12;
  auto weak = [&](const dtl::context& c, const std::string& label) {
    vector all(gib_floats * static_cast<std::size_t>(p), 1.0f, c);
    const double s = seconds(ctx, runs, [&] { static_cast<void>(dtl::reduce(all, 0.0f)); });
    rows.push_back({"reduce, 1 GiB per rank, " + std::to_string(p) + " ranks (" + label + ") vs 1 GPU", one_rate,
                    p * gib / s / 1e12, "TB/s read (aggregate)", "the same reduce on one GPU", 1.8});
  };
  weak(ctx, std::string(dtl::collective_path_name(ctx.device_collective_path())));
  // The same over MPI (GPU-aware if the probe said so, else staged), to compare the paths.
  setenv("DTL_COLLECTIVES", "mpi_gpu_aware", 1);
  auto over_mpi = env.try_make_world_context();
  if (!over_mpi) {
    setenv("DTL_COLLECTIVES", "mpi_staged", 1);
    over_mpi = env.try_make_world_context();
  }
  unsetenv("DTL_COLLECTIVES");
  check(over_mpi, "a context on the MPI path");
  weak(*over_mpi, std::string(dtl::collective_path_name(over_mpi->device_collective_path())));
  report(ctx, rows, "containers-" + std::to_string(p) + "ranks.csv");
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the dtl-containers benchmark\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 21;
  if (ctx.rank() == 0) {
    warn_if_unoptimized_build();
    const auto props = dtl::hip::get_device_properties(ctx.device()).value();
    std::printf("dtl-containers benchmark: %d rank(s), rank 0 on %s (%s), %s build, median of %d runs\n", ctx.size(),
                props.name.c_str(), props.arch.c_str(), DTL_BENCH_BUILD, runs);
    std::printf("device collectives: %s (%s)\n",
                std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                ctx.device_collective_reason().c_str());
  }
  if (ctx.size() == 1) {
    one_gpu(ctx, runs);
    return 0;
  }
  if (ctx.device_collective_path() != dtl::collective_path::nccl && dtl::build::has_nccl) {
    if (ctx.rank() == 0)
      std::printf("SKIP: the %d-rank rows need a GPU per rank (%s)\n", ctx.size(),
                  ctx.device_collective_reason().c_str());
    return 77;
  }
  several_gpus(env, ctx, runs);
  return 0;
}
