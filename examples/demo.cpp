// SPDX-License-Identifier: MIT
// dtl-demo: y = a*x + y over a vector split across the ranks, then its largest error, written once: on
// the GPU when every rank has one, on the host otherwise (dtl::with_device_or_host and DTL_LAMBDA). It
// says first what it will do and last what it did.
//
//   build/examples/dtl-demo [elements]               # one rank
//   mpirun -n 3 build/examples/dtl-demo [elements]   # over MPI ranks, one GPU each where there are GPUs
//
// With HIP the kernel compiler (dtl-hip-kc) builds this file, as any file with device lambdas.
#include <dtl/dtl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/// Where placement P keeps rank 0's block, in words.
template <class P>
std::string where(const dtl::context& ctx) {
  if constexpr (P::device_accessible) return "the GPU (rank 0 on GPU " + std::to_string(ctx.device()) + ")";
  return DTL_CONTAINERS_HAS_HIP ? "the host (not every rank has a GPU)" : "the host (this build has no HIP)";
}

template <class Placement>
int saxpy(const dtl::context& ctx, std::size_t n, Placement) {
  const std::string on = where<Placement>(ctx);
  if (ctx.rank() == 0)
    std::printf("dtl-demo: y = 2x + 1 over %zu floats on %d rank(s), on %s, then its largest error\n", n, ctx.size(),
                on.c_str());
  const float a = 2.0f;
  dtl::distributed_vector<float, Placement> x(n, ctx), y(n, 1.0f, ctx);
  dtl::value_or_throw(dtl::iota(x, 0.0f));
  const auto wrap = DTL_LAMBDA(float i) { return static_cast<float>(static_cast<unsigned>(i) % 1024u); };
  dtl::value_or_throw(dtl::transform(x, x, wrap));  // small integers: every result is exact in floats

  const auto start = std::chrono::steady_clock::now();
  const auto axpy = DTL_LAMBDA(float xi, float yi) { return a * xi + yi; };
  dtl::value_or_throw(dtl::transform(x, y, y, axpy));
  dtl::value_or_throw(y.synchronize());
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  const auto error = DTL_LAMBDA(float xi, float yi) {
    const float d = yi - (a * xi + 1.0f);
    return d < 0.0f ? -d : d;
  };
  const float max_error = dtl::transform_reduce(x, y, 0.0f, dtl::reduce_max<float>{}, error);
  const bool ok = max_error == 0.0f;
  if (ctx.rank() == 0)
    std::printf("dtl-demo: saxpy over %zu floats on %d rank(s) on %s: %.3f ms, max error %g -> %s\n", n, ctx.size(),
                on.c_str(), ms, static_cast<double>(max_error), ok ? "OK" : "WRONG");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 24;
  return dtl::with_device_or_host(ctx, [&](auto placement) { return saxpy(ctx, n, placement); });
}
