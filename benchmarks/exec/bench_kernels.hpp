// SPDX-License-Identifier: MIT
#pragma once
// Kernels for the dtl-hip-exec benchmark, behind a plain C++ interface (compiled by dtl-hip-kc).
#include <hip/hip_runtime_api.h>

/// Launches an empty kernel (1 block of 1 thread); does not read the launch error.
void bench_launch_empty(hipStream_t stream);

/// One thread polls *flag (host memory mapped for the device) until it is non-zero, or gives up
/// after `max_polls` polls (so a benchmark can never hang); then writes *outcome (1 released, 2 gave up).
hipError_t bench_launch_gate(const int* flag, int* outcome, long long max_polls, hipStream_t stream);
