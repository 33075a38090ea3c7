// SPDX-License-Identifier: MIT
// dtl-demo: uses the GPU when there is one; otherwise runs the host-only path and says so. Its first line
// says what it will do, its last what it did: where (host or which GPU), on how many ranks, how long.
#include "demo.hpp"

#include <dtl/core/format.hpp>

#include <fmt/format.h>

#include <cstdlib>

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 24;
  // One process: the demo starts no MPI ranks (examples/containers/ does, under mpirun).
  constexpr int ranks = 1;
  fmt::print(
      "dtl-demo: y = 2x + y over {} floats on {} rank, on the GPU if this build and machine have one, "
      "else on the host\n",
      n, ranks);

  auto report = run_gpu_demo(n);
  if (!report.has_value()) {
    if (report.error().code() != dtl::status_code::backend_not_available) {
      fmt::print(stderr, "dtl-demo: GPU path failed: {}\n", report.error());
      return 1;
    }
    fmt::print("dtl-demo: no GPU path ({}); running the host-only path\n", report.error().message());
    report = run_host_demo(n);
    if (!report.has_value()) {
      fmt::print(stderr, "dtl-demo: host path failed: {}\n", report.error());
      return 1;
    }
  }
  const bool ok = report->max_error == 0.0;
  fmt::print("dtl-demo: ran on {}, {} rank: {} floats in {:.3f} ms ({}), max error {} -> {}\n", report->where, ranks,
             report->elements, report->seconds * 1e3, report->timed, report->max_error, ok ? "OK" : "WRONG");
  return ok ? 0 : 1;
}
