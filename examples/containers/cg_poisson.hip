// SPDX-License-Identifier: MIT
// Conjugate gradients on the 2-D Poisson equation, written with DTL as a user would (cg_poisson.hpp):
// the grid's rows split over the ranks, one halo exchange, one stencil, two dots and three axpys per
// iteration. Prints the residual as it converges and the time per iteration; exits 1 unless the
// residual has dropped by 10^3 (or below 1e-10), 77 without a GPU.
//
//   build/examples/containers/example-cg-poisson [nx] [ny] [iterations]
//   mpirun -n 2 build/examples/containers/example-cg-poisson 1024 1024 2000
#include "cg_poisson.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: this example runs on GPUs\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const std::size_t nx = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256;
  const std::size_t ny = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 500;
  if (nx < 2 || ny < 2 || iterations < 1 || nx * ny >= (std::size_t{1} << 32)) {
    std::printf("usage: example-cg-poisson [nx >= 2] [ny >= 2] [iterations >= 1], nx * ny < 2^32\n");
    return 1;
  }

  cg::solver cg(ctx, nx, ny);
  const double initial = cg.residual();
  const int report_every = iterations >= 10 ? iterations / 10 : 1;
  if (ctx.rank() == 0) std::printf("  iteration %6d  residual %.6e\n", 0, initial);
  double solve_ms = 0.0;
  int done = 0;
  for (int it = 1; it <= iterations; ++it, ++done) {
    const auto t0 = std::chrono::steady_clock::now();
    cg.iterate();
    solve_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (ctx.rank() == 0 && (it % report_every == 0 || it == iterations))
      std::printf("  iteration %6d  residual %.6e\n", it, cg.residual());
    if (cg.residual() < 1e-10) {
      ++done;
      break;
    }
  }
  const double final_residual = cg.residual();
  const bool ok = final_residual < 1e-3 * initial || final_residual < 1e-10;
  if (ctx.rank() == 0) {
    std::printf("CG Poisson 2-D: %zu x %zu doubles on %d rank(s), halo over %s\n", nx, ny, ctx.size(), cg.halo_path());
    std::printf("  %d iterations in %.3f ms, %.3f us per iteration\n", done, solve_ms, 1e3 * solve_ms / done);
    std::printf("  residual %.6e -> %.6e: %s\n", initial, final_residual, ok ? "converging, OK" : "WRONG");
  }
  return ok ? 0 : 1;
}
