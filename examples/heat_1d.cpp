// SPDX-License-Identifier: MIT
// A 1-D heat equation on a periodic rod, explicit in time: u[i] += r (u[i-1] - 2 u[i] + u[i+1]).
// Each step exchanges a halo of one element and runs one stencil_transform; the total heat is
// conserved, and rank 0 checks the result against a serial run of the same steps.
//
//   build/examples/example-heat-1d [cells] [steps]             # one rank
//   mpirun -n 3 build/examples/example-heat-1d 1000 500        # over MPI ranks
//
// Host placements: runs on any machine. Exits 1 when the result is wrong.
#include <dtl/dtl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

constexpr double r = 0.25;  // alpha dt / dx^2: stable below 0.5

double initial(std::size_t i, std::size_t n) { return i < n / 4 ? 1.0 : 0.0; }  // a hot quarter

double step(const double* p) { return p[0] + r * (p[-1] - 2 * p[0] + p[1]); }

std::vector<double> serial(std::size_t n, int steps) {
  std::vector<double> u(n), next(n);
  for (std::size_t i = 0; i < n; ++i) u[i] = initial(i, n);
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < n; ++i) next[i] = u[i] + r * (u[(i + n - 1) % n] - 2 * u[i] + u[(i + 1) % n]);
    std::swap(u, next);
  }
  return u;
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 1000;

  const dtl::halo one{.prev = 1, .next = 1, .periodic = true};
  dtl::distributed_vector<double> u(n, ctx, one), next(n, ctx, one);
  dtl::value_or_throw(dtl::for_each_indexed(u, [n](std::size_t i, double& x) { x = initial(i, n); }));

  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    dtl::value_or_throw(u.halo().exchange());
    dtl::value_or_throw(dtl::stencil_transform(dtl::par{}, u, next, step));
    std::swap(u, next);  // the halo plans move with the vectors
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  const double heat = dtl::reduce(u, 0.0);
  const std::vector<double> all = dtl::value_or_throw(u.gather(0));
  int ok = 1;
  if (ctx.rank() == 0) {
    const std::vector<double> expected = serial(n, steps);
    double error = 0.0, start = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      error = std::max(error, std::abs(all[i] - expected[i]));
      start += initial(i, n);
    }
    ok = error <= 1e-12 && std::abs(heat - start) <= 1e-9 * (start + 1.0) ? 1 : 0;
    std::printf("heat 1-D: %zu cells, %d steps on %d rank(s) (halo over %s): %.3f ms, %.3f us/step\n", n, steps,
                ctx.size(), u.halo().path(), ms, 1e3 * ms / steps);
    std::printf("  heat %.12f (at the start %.12f), max difference from the serial run %.3e -> %s\n", heat, start,
                error, ok ? "OK" : "WRONG");
  }
  ok = ctx.allreduce_value(ok, dtl::reduce_op::min).value();
  return ok == 1 ? 0 : 1;
}
