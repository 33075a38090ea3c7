// SPDX-License-Identifier: MIT
// The 2-D Jacobi solver of jacobi_2d.hip on a grid_tensor: the ny x nx grid split over a 2-D grid of ranks
// (blocks of rows and columns, not rows alone, so a rank's faces shrink as ranks are added in both
// dimensions), a halo of width 1 exchanged while the interior of each block is computed, then the block's
// four edges. The top boundary (the ghost row above the ranks of the first grid row, which no exchange
// writes) is held at 1, the others at 0. Prints the residual as it converges and the time per iteration;
// exits 1 if the residual does not decrease, 77 without a GPU.
//
//   build/examples/containers/example-jacobi-2d-grid [nx] [ny] [iterations]
//   mpirun -n 4 build/examples/containers/example-jacobi-2d-grid 16384 16384 1000    # a 2 x 2 grid of ranks
#include <dtl/dtl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using grid = dtl::grid_tensor<float, 2, dtl::device_only_runtime>;

/// The 5-point update: no column test, the side boundaries are ghost columns.
struct jacobi_op {
  __host__ __device__ float operator()(dtl::stencil_accessor<const float, 2> s) const {
    return 0.25f * (s(-1, 0) + s(1, 0) + s(0, -1) + s(0, 1));
  }
};

/// One iteration from `in` to `out`: the ghosts in flight while the interior is computed, then the edges.
void iterate(grid& in, grid& out) {
  const auto n = in.local_extents();
  dtl::value_or_throw(in.halo().exchange_begin());
  if (n[0] > 2 && n[1] > 2)
    dtl::value_or_throw(dtl::stencil_transform(in, out, jacobi_op{}, dtl::nd_box<2>{{1, 1}, {n[0] - 2, n[1] - 2}}));
  dtl::value_or_throw(in.halo().exchange_end());
  if (n[0] == 0 || n[1] == 0) return;
  const std::size_t inner = n[0] > 2 ? n[0] - 2 : 0;
  // The first and last rows, then the first and last columns between them.
  dtl::value_or_throw(dtl::stencil_transform(in, out, jacobi_op{}, dtl::nd_box<2>{{0, 0}, {1, n[1]}}));
  if (n[0] > 1)
    dtl::value_or_throw(dtl::stencil_transform(in, out, jacobi_op{}, dtl::nd_box<2>{{n[0] - 1, 0}, {1, n[1]}}));
  if (inner != 0) {
    dtl::value_or_throw(dtl::stencil_transform(in, out, jacobi_op{}, dtl::nd_box<2>{{1, 0}, {inner, 1}}));
    if (n[1] > 1)
      dtl::value_or_throw(dtl::stencil_transform(in, out, jacobi_op{}, dtl::nd_box<2>{{1, n[1] - 1}, {inner, 1}}));
  }
}

/// sqrt(sum (a - b)^2) over every rank, in one pass over both.
double residual(const grid& a, const grid& b) {
  return std::sqrt(static_cast<double>(dtl::transform_reduce(
      a, b, 0.0f, std::plus<>{}, [] __host__ __device__(float x, float y) { return (x - y) * (x - y); })));
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: this example runs on GPUs\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const std::size_t nx = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4096;
  const std::size_t ny = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4096;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 1000;
  if (nx < 3 || ny < 3 || iterations < 1) {
    std::printf("usage: example-jacobi-2d-grid [nx >= 3] [ny >= 3] [iterations >= 1]\n");
    return 1;
  }
  const dtl::process_grid<2> ranks(ctx.size());  // fitted to the rank count, closed edges
  const dtl::grid_decomposition<2> dec(ranks, {ny, nx}, {1, 1});
  grid a(dec, ctx), b(dec, ctx);
  if (ranks.coords(ctx.rank())[0] == 0 && a.local_size() != 0) {
    // The top boundary: the ghost row above the block's first row, in both grids.
    const std::vector<float> hot(a.local_extents()[1], 1.0f);
    for (grid* g : {&a, &b})
      dtl::value_or_throw(dtl::hip::hip_memory_transfer::copy(
          g->data_with_ghosts() + 1, hot.data(), hot.size() * sizeof(float), dtl::transfer_kind::host_to_device));
  }

  std::vector<double> residuals;
  const int report_every = iterations >= 10 ? iterations / 10 : 1;
  double compute_ms = 0.0;
  for (int it = 0; it < iterations; it += 2) {
    const auto s = std::chrono::steady_clock::now();
    iterate(a, b);
    iterate(b, a);
    dtl::value_or_throw(a.synchronize());
    compute_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    if ((it + 2) % (2 * report_every) == 0 || it + 2 >= iterations) {
      residuals.push_back(residual(a, b));
      if (ctx.rank() == 0) std::printf("  iteration %6d  residual %.6e\n", it + 2, residuals.back());
    }
  }
  const int done = iterations + iterations % 2;
  const bool ok = residuals.size() >= 2 ? residuals.back() < residuals.front() : !residuals.empty();
  if (ctx.rank() == 0) {
    std::printf("jacobi 2-D on a grid_tensor: %zu x %zu floats on %d rank(s) as a %d x %d grid\n", nx, ny, ctx.size(),
                ranks.extent(0), ranks.extent(1));
    std::printf("  %d iterations in %.3f ms (%.3f us per iteration, %.2f Gcells/s)\n", done, compute_ms,
                1e3 * compute_ms / done, static_cast<double>(nx) * static_cast<double>(ny) * done / (compute_ms * 1e6));
    std::printf("  residual %.6e -> %.6e: %s\n", residuals.front(), residuals.back(), ok ? "decreasing, OK" : "WRONG");
  }
  return ok ? 0 : 1;
}
