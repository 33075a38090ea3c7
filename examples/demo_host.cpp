// SPDX-License-Identifier: MIT
#include "demo.hpp"

#include <dtl/containers/block_partition.hpp>
#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/try.hpp>

#include <chrono>
#include <cmath>

dtl::result<demo_report> run_host_demo(std::size_t n) {
  dtl::host_memory_space space;
  DTL_ASSIGN_OR_RETURN(void* xp, space.allocate(n * sizeof(float)));
  DTL_ASSIGN_OR_RETURN(void* yp, space.allocate(n * sizeof(float)));
  auto* x = static_cast<float*>(xp);
  auto* y = static_cast<float*>(yp);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1024);
    y[i] = 1.0f;
  }
  const float a = 2.0f;
  DTL_ASSIGN_OR_RETURN(const auto blocks, dtl::block_partition::create(n, 4));
  const auto start = std::chrono::steady_clock::now();
  for (int rank = 0; rank < blocks.ranks(); ++rank) {
    DTL_ASSIGN_OR_RETURN(const auto range, blocks.local_range(rank));
    for (std::size_t i = range.begin; i < range.end; ++i) y[i] = a * x[i] + y[i];
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double max_error = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    max_error = std::fmax(max_error, std::fabs(y[i] - (a * static_cast<float>(i % 1024) + 1.0f)));
  space.deallocate(xp, n * sizeof(float));
  space.deallocate(yp, n * sizeof(float));
  return demo_report{"the host (4 blocks, one thread)", "the loop", n, max_error, seconds};
}
