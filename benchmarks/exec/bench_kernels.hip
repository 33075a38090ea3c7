// SPDX-License-Identifier: MIT
// Kernels for the dtl-hip-exec benchmark (see bench_kernels.hpp).
#include <hip/hip_runtime.h>

#include "bench_kernels.hpp"

namespace {

__global__ void empty_kernel() {}

__global__ void gate_kernel(const volatile int* flag, int* outcome, long long max_polls) {
  long long polls = 0;
  while (*flag == 0 && polls < max_polls) {
    ++polls;  // each poll is a read of host memory across the bus: slow enough without a sleep
  }
  *outcome = *flag != 0 ? 1 : 2;
}

}  // namespace

void bench_launch_empty(hipStream_t stream) { hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, stream); }

hipError_t bench_launch_gate(const int* flag, int* outcome, long long max_polls, hipStream_t stream) {
  hipLaunchKernelGGL(gate_kernel, dim3(1), dim3(1), 0, stream, flag, outcome, max_polls);
  return hipGetLastError();
}
