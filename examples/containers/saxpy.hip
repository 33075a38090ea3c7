// SPDX-License-Identifier: MIT
// End to end: fill, transform and reduce a device vector over every rank, and time each step.
//
//   mpirun -n 2 build/examples/containers/example-saxpy [elements]     # one GPU per rank
//   build/examples/containers/example-saxpy                            # one rank, no mpirun needed
//
// A .hip file, compiled by the kernel compiler (dtl-hip-kc: hipcc on AMD, nvcc on NVIDIA), because the
// transform's function is a device lambda. Exits 77 without a GPU.
#include <dtl/dtl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: this example runs on GPUs\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 26;
  const float a = 2.0f;

  // device_only_runtime: each rank's block on the GPU its context chose (device_only<0> would put every
  // rank's block on GPU 0).
  using vector = dtl::distributed_vector<float, dtl::device_only_runtime>;
  auto t0 = std::chrono::steady_clock::now();
  vector x(n, ctx), y(n, ctx);
  const double make_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  dtl::value_or_throw(dtl::fill(x, 1.0f));
  dtl::value_or_throw(dtl::iota(y, 0));  // y[i] = i, i the global index
  const double fill_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  dtl::value_or_throw(dtl::transform(x, y, y, [a] __device__(float xi, float yi) { return a * xi + yi; }));
  const double transform_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  const double sum = dtl::reduce(y, 0.0f);  // every rank gets it
  const double reduce_ms = ms_since(t0);

  // sum of (2 + i) for i < n, with the rounding of float accumulation allowed for.
  const double expected = 2.0 * static_cast<double>(n) + static_cast<double>(n) * (static_cast<double>(n) - 1) / 2;
  const bool ok = std::abs(sum - expected) <= 1e-3 * expected + 1.0;
  if (ctx.rank() == 0) {
    std::printf("saxpy over %zu floats on %d rank(s), rank 0 on GPU %d, device collectives: %s\n", n, ctx.size(),
                ctx.device(), std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str());
    std::printf("  construct %.3f ms, fill+iota %.3f ms, transform %.3f ms, reduce %.3f ms\n", make_ms, fill_ms,
                transform_ms, reduce_ms);
    std::printf("  sum %.6e (expected %.6e) -> %s\n", sum, expected, ok ? "OK" : "WRONG");
  }
  return ok ? 0 : 1;
}
