// SPDX-License-Identifier: MIT
// 3-D heat diffusion on an n^3 grid split over a 3-D grid of ranks (dtl::grid_tensor): a 7-point stencil,
// the 6 faces exchanged every step (one kernel where a rank is its own neighbour, MPI between ranks), the
// outer boundary held at 0 (the ghosts past a closed edge, never written by an exchange). The initial
// state is a hot cube in the middle. Prints the total heat and the largest change per step as it runs,
// and the time per step; exits 1 if the heat grows or the change does not shrink, 77 without a GPU.
//
//   build/examples/containers/example-heat-3d [n] [steps]
//   mpirun -n 8 build/examples/containers/example-heat-3d 512 200     # a 2 x 2 x 2 grid of ranks
#include <dtl/dtl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using field = dtl::grid_tensor<float, 3, dtl::device_only_runtime>;

/// One explicit step of du/dt = laplacian(u) with dt * alpha / h^2 = 1/8 (stable below 1/6).
struct heat_step {
  __host__ __device__ float operator()(dtl::stencil_accessor<const float, 3> s) const {
    const float laplacian =
        s(-1, 0, 0) + s(1, 0, 0) + s(0, -1, 0) + s(0, 1, 0) + s(0, 0, -1) + s(0, 0, 1) - 6.0f * s(0, 0, 0);
    return s(0, 0, 0) + 0.125f * laplacian;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: this example runs on GPUs\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n < 4 || steps < 1) {
    std::printf("usage: example-heat-3d [n >= 4] [steps >= 1]\n");
    return 1;
  }
  // The ranks as a 3-D grid fitted to their count (MPI_Dims_create's rule), closed in every dimension.
  const dtl::process_grid<3> ranks(ctx.size());
  const dtl::grid_decomposition<3> dec(ranks, {n, n, n}, {1, 1, 1});
  field u(dec, ctx), next(dec, ctx);

  // A hot cube (1.0) in the middle third of the domain, 0 elsewhere: written on the host, block by block.
  {
    const auto box = u.owned_box();
    std::vector<float> block(u.local_size());
    std::size_t i = 0;
    for (std::size_t z = 0; z < box.extents[0]; ++z)
      for (std::size_t y = 0; y < box.extents[1]; ++y)
        for (std::size_t x = 0; x < box.extents[2]; ++x) {
          const std::size_t g[3] = {box.offset[0] + z, box.offset[1] + y, box.offset[2] + x};
          bool hot = true;
          for (const std::size_t c : g) hot = hot && c >= n / 3 && c < 2 * n / 3;
          block[i++] = hot ? 1.0f : 0.0f;
        }
    dtl::value_or_throw(u.copy_from_host(block.data(), block.size()));
  }
  const double heat0 = static_cast<double>(dtl::reduce(u, 0.0f));

  const int report_every = steps >= 10 ? steps / 10 : 1;
  double first_change = -1.0, last_change = -1.0, heat = heat0, step_ms = 0.0;
  for (int step = 1; step <= steps; ++step) {
    const auto t0 = std::chrono::steady_clock::now();
    dtl::value_or_throw(u.halo().exchange());
    dtl::value_or_throw(dtl::stencil_transform(u, next, heat_step{}));
    std::swap(u, next);
    dtl::value_or_throw(u.synchronize());
    step_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (step % report_every == 0 || step == steps) {
      // The largest change of this step, and the total heat (which only leaves through the cold boundary).
      last_change = static_cast<double>(dtl::transform_reduce(
          u, next, 0.0f, dtl::reduce_max<float>{}, [] __host__ __device__(float a, float b) { return fabsf(a - b); }));
      if (first_change < 0.0) first_change = last_change;
      heat = static_cast<double>(dtl::reduce(u, 0.0f));
      if (ctx.rank() == 0) std::printf("  step %5d  heat %.6e  largest change %.6e\n", step, heat, last_change);
    }
  }
  const bool ok = heat <= heat0 * (1.0 + 1e-5) && last_change <= first_change;
  if (ctx.rank() == 0) {
    std::printf("heat 3-D: %zu^3 floats on %d rank(s) as a %d x %d x %d grid\n", n, ctx.size(), ranks.extent(0),
                ranks.extent(1), ranks.extent(2));
    std::printf("  %d steps, %.3f us per step (exchange + stencil), %.2f Gcells/s\n", steps, 1e3 * step_ms / steps,
                static_cast<double>(n) * n * n * steps / (step_ms * 1e6));
    std::printf("  heat %.6e -> %.6e, largest change %.3e -> %.3e: %s\n", heat0, heat, first_change, last_change,
                ok ? "OK" : "WRONG");
  }
  return ok ? 0 : 1;
}
