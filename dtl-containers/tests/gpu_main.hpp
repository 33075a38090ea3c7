#pragma once
// main() for the gpu tests: exits 77 (Meson's SKIP) without `min_devices` HIP devices, or when run on
// fewer than `min_ranks` MPI ranks; otherwise brings up a dtl::environment (kept for the whole run,
// reachable from the test cases) and runs the doctest cases on every rank.

#include "mpi_main.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/hip/device.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace test_support {

/// A context of every rank, on this rank's GPU.
inline dtl::context world() { return environment()->make_world_context(); }

inline bool under_sanitizer() noexcept { return std::getenv("DTL_UNDER_SANITIZER") != nullptr; }

inline int run_gpu_tests(int argc, char** argv, int min_ranks = 1, int min_devices = 1) {
  if (dtl::hip::device_count() < min_devices) {
    std::printf("SKIP: needs %d HIP device(s), this machine has %d\n", min_devices, dtl::hip::device_count());
    return 77;
  }
  // A collective path asked for with DTL_COLLECTIVES that this machine cannot take (RCCL/NCCL with ranks
  // sharing a GPU, say): skip, saying why.
  return run_on_ranks(argc, argv, min_ranks, [](int rank) -> std::optional<int> {
    auto probe = environment()->try_make_world_context();
    if (probe) return std::nullopt;
    const bool unavailable = probe.error().code() == dtl::status_code::backend_not_available;
    if (rank == 0) std::printf("%s: %s\n", unavailable ? "SKIP" : "FAILED", probe.error().to_string().c_str());
    return unavailable && std::getenv("DTL_COLLECTIVES") != nullptr ? 77 : 1;
  });
}

}  // namespace test_support
