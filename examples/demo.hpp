// SPDX-License-Identifier: MIT
#pragma once
// The demo computes y = a*x + y over a vector split into blocks (as ranks would hold it), then checks
// every element against a host reference.

#include <dtl/core/result.hpp>

#include <cstddef>
#include <string>

struct demo_report {
  std::string where;  // "GPU 0: NVIDIA H200 (sm_90)" or "the host (4 blocks)"
  std::string timed;  // what `seconds` covers
  std::size_t elements = 0;
  double max_error = 0.0;
  double seconds = 0.0;
};

/// The host path: dtl::host_memory_space, plain loops.
dtl::result<demo_report> run_host_demo(std::size_t n);

/// The GPU path: device memory, transfers and the executor. backend_not_available when this build has
/// no HIP or the machine has no device (the message says which).
dtl::result<demo_report> run_gpu_demo(std::size_t n);
