#pragma once
// main() for tests that run on several MPI ranks: every rank runs the doctest cases (only rank 0
// prints more than failures), the environment lives for the whole run, and the process exits 77
// (Meson's SKIP) when it was started with fewer ranks than `min_ranks`.

#include "doctest.hpp"

#include <dtl/containers/communication/environment.hpp>

#include <cstdio>
#include <optional>

namespace test_support {

/// The environment of this run (valid inside test cases).
inline std::optional<dtl::environment>& environment() {
  static std::optional<dtl::environment> env;
  return env;
}

/// Brings up the environment (exit 1 if it fails), skips (77) below `min_ranks`, then asks
/// `ready(rank)` for an exit code to stop with (std::nullopt: go on) and runs the doctest cases on every
/// rank. Fails when any rank failed.
template <class Ready>
int run_on_ranks(int argc, char** argv, int min_ranks, Ready ready) {
  auto made = dtl::environment::create(argc, argv);
  if (!made) {
    std::fprintf(stderr, "dtl::environment failed: %s\n", made.error().to_string().c_str());
    return 1;
  }
  environment().emplace(std::move(made).value());
  const int rank = environment()->rank(), size = environment()->rank_count();
  if (size < min_ranks) {
    if (rank == 0) std::printf("SKIP: needs %d ranks, started with %d\n", min_ranks, size);
    environment().reset();
    return 77;
  }
  if (const std::optional<int> stop = ready(rank)) {
    environment().reset();
    return *stop;
  }
  doctest::Context context(argc, argv);
  context.setOption("no-version", true);
  if (rank != 0) context.setOption("minimal", true);
  const int failed = context.run() != 0 ? 1 : 0;
  // Every rank reports; the run fails when any rank failed.
  int total = failed;
  if (size > 1) total = environment()->make_world_context().allreduce_value(failed, dtl::reduce_op::sum).value_or(1);
  if (rank == 0 && size > 1) std::printf("%d ranks: %d failed\n", size, total);
  environment().reset();
  return total == 0 ? 0 : 1;
}

inline int run_on_ranks(int argc, char** argv, int min_ranks) {
  return run_on_ranks(argc, argv, min_ranks, [](int) { return std::optional<int>(); });
}

}  // namespace test_support
