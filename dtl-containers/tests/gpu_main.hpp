#pragma once
// main() for the gpu tests: exits 77 (Meson's SKIP) without `min_devices` HIP devices, or when run on
// fewer than `min_ranks` MPI ranks; otherwise brings up a dtl::environment (kept for the whole run,
// reachable from the test cases) and runs the doctest cases on every rank.

#include "doctest.hpp"

#include <dtl/containers/context.hpp>
#include <dtl/containers/environment.hpp>
#include <dtl/hip/device.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace test_support {

inline std::optional<dtl::environment>& environment() {
  static std::optional<dtl::environment> env;
  return env;
}

/// A context of every rank, on this rank's GPU.
inline dtl::context world() { return environment()->make_world_context(); }

inline bool under_sanitizer() noexcept { return std::getenv("DTL_UNDER_SANITIZER") != nullptr; }

inline int run_gpu_tests(int argc, char** argv, int min_ranks = 1, int min_devices = 1) {
  if (dtl::hip::device_count() < min_devices) {
    std::printf("SKIP: needs %d HIP device(s), this machine has %d\n", min_devices, dtl::hip::device_count());
    return 77;
  }
  auto made = dtl::environment::create(argc, argv);
  if (!made) {
    std::fprintf(stderr, "dtl::environment failed: %s\n", made.error().to_string().c_str());
    return 1;
  }
  environment().emplace(std::move(made).value());
  const int rank = environment()->rank(), size = environment()->size();
  if (size < min_ranks) {
    if (rank == 0) std::printf("SKIP: needs %d ranks, started with %d\n", min_ranks, size);
    environment().reset();
    return 77;
  }
  // A collective path asked for with DTL_COLLECTIVES that this machine cannot take (RCCL/NCCL with ranks
  // sharing a GPU, say): skip, saying why.
  if (auto probe = environment()->try_make_world_context(); !probe) {
    const bool unavailable = probe.error().code() == dtl::status_code::backend_not_available;
    if (rank == 0) std::printf("%s: %s\n", unavailable ? "SKIP" : "FAILED", probe.error().to_string().c_str());
    environment().reset();
    return unavailable && std::getenv("DTL_COLLECTIVES") != nullptr ? 77 : 1;
  }
  doctest::Context context(argc, argv);
  context.setOption("no-version", true);
  if (rank != 0) context.setOption("minimal", true);
  const int failed = context.run() != 0 ? 1 : 0;
  int total = failed;
  if (size > 1) total = environment()->make_world_context().allreduce_value(failed, dtl::reduce_op::sum).value_or(1);
  if (rank == 0 && size > 1) std::printf("%d ranks: %d failed\n", size, total);
  environment().reset();
  return total == 0 ? 0 : 1;
}

}  // namespace test_support
