// SPDX-License-Identifier: MIT
// dtl::grid_tensor on the device against hand-written HIP in the same run (issue rows of the N-d tensor):
//   - a 3-D 7-point Jacobi step on 512^3 float (stencil_transform over the owned block) against a hand-written
//     kernel over the same padded arrays, with the D2D copy of the same bytes beside them;
//   - the halo exchange of all 6 faces of 512^3 float, one rank periodic in every dimension (one box-copy
//     kernel) against six hand-written face-copy kernels;
//   - a 5-point step on a 16384^2 grid_tensor on a 1 x 1 grid against the row-split distributed_vector's
//     stencil_transform (a halo of one row), both DTL;
//   - on 2 ranks sharing the GPU (a 2 x 1 x 1 grid, whose faces between the ranks are contiguous, and a
//     1 x 2 x 1 grid, whose are strided; staged through the host): the exchange's and the step's times,
//     reported.
// Median of `runs` (default 21) timed calls after warm-up, raw and DTL alternating; every timing waits for
// the GPU. Rates: GB/s of the bytes the stencil reads and writes once (2 x 4 bytes a cell), exchanges per
// millisecond. Writes grid-1rank.csv into $DTL_BENCH_CSV_DIR. Exits 77 without a GPU.
//
//   dtl-grid-bench [runs]                 one rank: the table
//   mpirun -n 2 dtl-grid-bench [runs]     two ranks sharing the GPU: the times
#include "bench_build.hpp"
#include "bench_support.hpp"

#include <dtl/dtl.hpp>
#include <dtl/containers/algorithms/stencil.hpp>
#include <dtl/containers/grid_tensor.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

namespace {

using namespace bench;
using tensor3 = dtl::grid_tensor<float, 3, dtl::device_only_runtime>;
using tensor2 = dtl::grid_tensor<float, 2, dtl::device_only_runtime>;

constexpr float c0 = 0.4f, c1 = 0.1f;

/// The 7-point update, as a user writes it for stencil_transform.
struct seven_point {
  __host__ __device__ float operator()(dtl::stencil_accessor<const float, 3> s) const {
    return c0 * s(0, 0, 0) + c1 * (s(-1, 0, 0) + s(1, 0, 0) + s(0, -1, 0) + s(0, 1, 0) + s(0, 0, -1) + s(0, 0, 1));
  }
};

/// The hand-written step: one thread per cell of the owned block of a padded (n + 2)^3 array, x fastest.
__global__ void hand_seven_point(const float* in, float* out, int n, std::size_t sy, std::size_t sz) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= n) return;
  const std::size_t at = (blockIdx.z + 1) * sz + (blockIdx.y + 1) * sy + static_cast<std::size_t>(x) + 1;
  out[at] = c0 * in[at] + c1 * (in[at - 1] + in[at + 1] + in[at - sy] + in[at + sy] + in[at - sz] + in[at + sz]);
}

/// One face of a periodic (n + 2)^3 block, by hand: the ghost layer at `to` (along `dim`) from the owned
/// layer at `from`, over the n x n owned cells of the other two dimensions.
__global__ void hand_face(float* a, int n, int dim, int from, int to, std::size_t sy, std::size_t sz) {
  const int u = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) + 1, v = static_cast<int>(blockIdx.y) + 1;
  if (u > n) return;
  std::size_t src = 0, dst = 0;
  if (dim == 0) {  // z
    src = from * sz + v * sy + u;
    dst = to * sz + v * sy + u;
  } else if (dim == 1) {  // y
    src = v * sz + from * sy + u;
    dst = v * sz + to * sy + u;
  } else {  // x
    src = v * sz + u * sy + from;
    dst = v * sz + u * sy + to;
  }
  a[dst] = a[src];
}

/// Element i of an allocation: a smooth pattern (no denormals, no overflow over many steps).
__global__ void pattern(float* a, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    a[i] = static_cast<float>(i % 97) * 0.01f;
}
template <class Tensor>
void fill_pattern(Tensor& t) {
  check(t.synchronize(), "synchronize");
  pattern<<<1024, 256>>>(t.data_with_ghosts(), t.local_size_with_ghosts());
  check(hipDeviceSynchronize(), "pattern");
}

/// The row-split vector's 5-point update (examples/containers/jacobi_2d.hip's): the side columns stay.
struct row_five_point {
  const float* base;
  unsigned nx;
  __host__ __device__ float operator()(const float* p) const {
    const unsigned column = static_cast<unsigned>(p - base) % nx;
    if (column == 0 || column == nx - 1) return p[0];
    const auto row = static_cast<std::ptrdiff_t>(nx);
    return 0.25f * (p[-1] + p[1] + p[-row] + p[row]);
  }
};
struct five_point {
  __host__ __device__ float operator()(dtl::stencil_accessor<const float, 2> s) const {
    return 0.25f * (s(-1, 0) + s(1, 0) + s(0, -1) + s(0, 1));
  }
};

void one_rank(const dtl::context& ctx, int runs) {
  std::vector<row> rows;
  auto stream =
      dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
          .value();
  const hipStream_t raw_stream = stream.native_handle();
  constexpr int n = 512;
  const double cells = double(n) * n * n, bytes = 2.0 * cells * sizeof(float);
  const dtl::grid_decomposition<3> dec(dtl::process_grid<3>(1, {}, {true, true, true}), {n, n, n}, {1, 1, 1});
  tensor3 u(dec, ctx), next(dec, ctx);
  fill_pattern(u);
  fill_pattern(next);
  const std::size_t sy = n + 2, sz = sy * sy;
  const dim3 cell_blocks((n + 255) / 256, n, n);

  // The step.
  auto [raw_s, dtl_s] = compare(
      ctx, runs,
      [&] {
        hand_seven_point<<<cell_blocks, 256, 0, raw_stream>>>(u.data_with_ghosts(), next.data_with_ghosts(), n, sy, sz);
        check(hipStreamSynchronize(raw_stream), "hand step");
      },
      [&] {
        check(dtl::stencil_transform(u, next, seven_point{}), "stencil_transform");
        check(next.synchronize(), "synchronize");
      });
  const double step_raw = raw_s, step_dtl = dtl_s;
  rows.push_back({"3-D 7-point step, 512^3 float, 1 GPU", bytes / raw_s / 1e9, bytes / dtl_s / 1e9, "GB/s",
                  "hand-written kernel, same padded arrays", 0.95});
  const auto copy_s = seconds(ctx, runs, [&] {
    check(hipMemcpyAsync(next.data_with_ghosts(), u.data_with_ghosts(), cells * sizeof(float), hipMemcpyDeviceToDevice,
                         raw_stream),
          "D2D copy");
    check(hipStreamSynchronize(raw_stream), "D2D copy");
  });
  rows.push_back({"  the step beside a D2D copy of the same bytes (reported)", bytes / copy_s / 1e9,
                  bytes / dtl_s / 1e9, "GB/s", "hipMemcpy D2D, read + write", 0.0});

  // The exchange of the 6 faces.
  std::tie(raw_s, dtl_s) = compare(
      ctx, runs,
      [&] {
        const dim3 face_blocks((n + 255) / 256, n);
        for (int dim = 0; dim < 3; ++dim) {
          hand_face<<<face_blocks, 256, 0, raw_stream>>>(u.data_with_ghosts(), n, dim, n, 0, sy, sz);
          hand_face<<<face_blocks, 256, 0, raw_stream>>>(u.data_with_ghosts(), n, dim, 1, n + 1, sy, sz);
        }
        check(hipStreamSynchronize(raw_stream), "hand faces");
      },
      [&] {
        check(u.halo().exchange(), "exchange");
        check(u.synchronize(), "synchronize");
      });
  rows.push_back({"halo exchange, 6 faces of 512^3 float, 1 rank periodic", 1e-3 / raw_s, 1e-3 / dtl_s, "exchanges/ms",
                  "six hand-written face-copy kernels", 1.0});
  std::printf("3-D: step raw %.1f us, DTL %.1f us; exchange raw %.1f us, DTL %.1f us\n", step_raw * 1e6, step_dtl * 1e6,
              raw_s * 1e6, dtl_s * 1e6);

  // A 2-D step: grid_tensor on a 1 x 1 grid against the row-split vector.
  constexpr std::size_t nx = 16384, ny = 16384;
  const double bytes2 = 2.0 * double(nx) * ny * sizeof(float);
  {
    const dtl::grid_decomposition<2> dec2(dtl::process_grid<2>(1), {ny, nx}, {1, 1});
    tensor2 a(dec2, ctx), b(dec2, ctx);
    fill_pattern(a);
    using vec = dtl::distributed_vector<float, dtl::device_only_runtime>;
    const dtl::halo rows_halo{.prev = nx, .next = nx, .periodic = false, .granularity = nx};
    vec va(nx * ny, 1.0f, ctx, rows_halo), vb(nx * ny, ctx, rows_halo);
    const row_five_point vop{va.local_data(), static_cast<unsigned>(nx)};
    std::tie(raw_s, dtl_s) = compare(
        ctx, runs,
        [&] {
          check(dtl::stencil_transform(va, vb, vop), "vector stencil_transform");
          check(vb.synchronize(), "synchronize");
        },
        [&] {
          check(dtl::stencil_transform(a, b, five_point{}), "tensor stencil_transform");
          check(b.synchronize(), "synchronize");
        });
    rows.push_back({"2-D 5-point step, 16384^2 float, 1 x 1 grid", bytes2 / raw_s / 1e9, bytes2 / dtl_s / 1e9, "GB/s",
                    "DTL row-split distributed_vector", 0.98});
  }
  report(ctx, rows, "grid-1rank.csv");
}

/// Two ranks sharing the GPU on a grid of 512^3, periodic, split as `extents` says (0: fitted); the
/// exchange goes through the host.
void two_ranks(const dtl::context& ctx, int runs, const std::array<int, 3>& extents) {
  constexpr int n = 512;
  const dtl::grid_decomposition<3> dec(dtl::process_grid<3>(ctx.size(), extents, {true, true, true}), {n, n, n},
                                       {1, 1, 1});
  tensor3 u(dec, ctx), next(dec, ctx);
  fill_pattern(u);
  const double exchange_s = seconds(ctx, runs, [&] {
    check(u.halo().exchange(), "exchange");
    check(u.synchronize(), "synchronize");
  });
  const double step_s = seconds(ctx, runs, [&] {
    check(dtl::stencil_transform(u, next, seven_point{}), "stencil_transform");
    check(next.synchronize(), "synchronize");
  });
  if (ctx.rank() == 0)
    std::printf(
        "%d ranks sharing the GPU, %d x %d x %d grid of 512^3 float: exchange %.1f us (staged), step %.1f us "
        "(%.1f GB/s per rank)\n",
        ctx.size(), dec.grid().extent(0), dec.grid().extent(1), dec.grid().extent(2), exchange_s * 1e6, step_s * 1e6,
        2.0 * double(n) * n * n / ctx.size() * sizeof(float) / step_s / 1e9);
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
  else {
    two_ranks(ctx, runs, {});         // split along the first dimension (2 x 1 x 1): contiguous faces
    two_ranks(ctx, runs, {1, 0, 1});  // along the second (1 x 2 x 1): strided faces
  }
  return 0;
}
