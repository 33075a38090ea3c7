// SPDX-License-Identifier: MIT
// A 2-D Jacobi solver of the Laplace equation on an nx x ny grid whose rows are split over the ranks,
// as NVIDIA's multi-GPU Jacobi does: a halo of one row (dtl::halo with a granularity of nx), the edge
// rows exchanged on the halo's high-priority stream while the interior rows are computed, then the
// edge rows. The top boundary (the ghost row above rank 0, which no exchange writes) is held at 1, the
// others at 0. Prints the residual as it converges and the time per iteration; exits 1 if the residual
// does not decrease, 77 without a GPU.
//
//   build/examples/containers/example-jacobi-2d [nx] [ny] [iterations]
//   mpirun -n 2 build/examples/containers/example-jacobi-2d 16384 16384 1000
#include <dtl/dtl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using grid = dtl::distributed_vector<float, dtl::device_only_runtime>;

/// The 5-point update of the element p points at; the left and right columns stay as they are.
struct jacobi_op {
  const float* base;  // the first owned element of the vector the stencil reads
  unsigned nx;        // 32-bit: a block holds fewer than 2^32 elements (checked in main)
  __host__ __device__ float operator()(const float* p) const {
    const unsigned column = static_cast<unsigned>(p - base) % nx;
    if (column == 0 || column == nx - 1) return p[0];
    const auto row = static_cast<std::ptrdiff_t>(nx);
    return 0.25f * (p[-1] + p[1] + p[-row] + p[row]);
  }
};

/// One iteration from `in` to `out`: edges in flight while the interior is computed.
void iterate(grid& in, grid& out, std::size_t nx) {
  const jacobi_op op{in.local_data(), static_cast<unsigned>(nx)};
  const std::size_t m = in.local_size();
  dtl::value_or_throw(in.halo().exchange_begin());
  auto interior = m > 2 * nx ? dtl::stencil_transform(dtl::async{}, in, out, op, dtl::index_range{nx, m - nx})
                             : dtl::hip::make_ready_future();
  dtl::value_or_throw(in.halo().exchange_end());
  if (m != 0) dtl::value_or_throw(dtl::stencil_transform(in, out, op, dtl::index_range{0, nx}));
  if (m > nx) dtl::value_or_throw(dtl::stencil_transform(in, out, op, dtl::index_range{m - nx, m}));
  interior.get();  // a failure throws dtl::status_error
}

/// sqrt(sum (a - b)^2) over every rank.
double residual(const grid& a, const grid& b, grid& scratch) {
  dtl::value_or_throw(
      dtl::transform(a, b, scratch, [] __host__ __device__(float x, float y) { return (x - y) * (x - y); }));
  return std::sqrt(static_cast<double>(dtl::reduce(scratch, 0.0f)));
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
  if (nx < 3 || ny < 3 || iterations < 1 || nx * ny >= (std::size_t{1} << 32)) {
    std::printf("usage: example-jacobi-2d [nx >= 3] [ny >= 3] [iterations >= 1], nx * ny < 2^32\n");
    return 1;
  }

  const dtl::halo row{.prev = nx, .next = nx, .periodic = false, .granularity = nx};
  grid a(nx * ny, ctx, row), b(nx * ny, ctx, row), scratch(nx * ny, ctx, dtl::halo{.granularity = nx});
  if (ctx.rank() == 0 && a.local_size() != 0) {
    // The top boundary: the ghost row above the first row, in both grids.
    const std::vector<float> hot(nx, 1.0f);
    for (grid* g : {&a, &b})
      dtl::value_or_throw(dtl::hip::hip_memory_transfer::copy(g->local_data_with_ghosts(), hot.data(),
                                                              nx * sizeof(float), dtl::transfer_kind::host_to_device));
  }

  std::vector<double> residuals;
  const int report_every = iterations >= 10 ? iterations / 10 : 1;
  const auto t0 = std::chrono::steady_clock::now();
  double compute_ms = 0.0;
  for (int it = 0; it < iterations; it += 2) {
    const auto s = std::chrono::steady_clock::now();
    iterate(a, b, nx);
    iterate(b, a, nx);
    compute_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    if ((it + 2) % (2 * report_every) == 0 || it + 2 >= iterations) {
      residuals.push_back(residual(a, b, scratch));
      if (ctx.rank() == 0) std::printf("  iteration %6d  residual %.6e\n", it + 2, residuals.back());
    }
  }
  const double total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const int done = iterations + iterations % 2;
  const bool ok = residuals.size() >= 2 ? residuals.back() < residuals.front() : !residuals.empty();
  if (ctx.rank() == 0) {
    std::printf("jacobi 2-D: %zu x %zu floats on %d rank(s), halo over %s\n", nx, ny, ctx.size(), a.halo().path());
    std::printf("  %d iterations in %.3f ms (%.3f us per iteration, %.2f Gcells/s); with the residuals %.3f ms\n", done,
                compute_ms, 1e3 * compute_ms / done,
                static_cast<double>(nx) * static_cast<double>(ny) * done / (compute_ms * 1e6), total_ms);
    std::printf("  residual %.6e -> %.6e: %s\n", residuals.front(), residuals.back(), ok ? "decreasing, OK" : "WRONG");
  }
  return ok ? 0 : 1;
}
