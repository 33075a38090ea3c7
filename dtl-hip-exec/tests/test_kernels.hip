// SPDX-License-Identifier: MIT
// Kernels for the dtl-hip-exec gpu tests (see test_kernels.hpp).
#include <hip/hip_runtime.h>

#include "test_kernels.hpp"

#include <cstdint>

namespace {

__global__ void spin_kernel(const volatile int* flag, int* outcome, long long max_polls) {
  long long polls = 0;
  while (*flag == 0 && polls < max_polls) {
    ++polls;  // each poll is a read of host memory across the bus: slow enough without a sleep
  }
  *outcome = *flag != 0 ? 1 : 2;
}

__global__ void store_kernel(int* dst, int value) { *dst = value; }

__global__ void copy_kernel(const int* src, int* dst) { *dst = *src; }

__global__ void mark_kernel(int* slots, int index) { slots[index] += 1; }

__global__ void empty_kernel() {}

__global__ void fault_kernel(volatile int* bad) { *bad = 1; }

}  // namespace

hipError_t exec_test_spin(const int* flag, int* outcome, long long max_polls, hipStream_t stream) {
  hipLaunchKernelGGL(spin_kernel, dim3(1), dim3(1), 0, stream, flag, outcome, max_polls);
  return hipGetLastError();
}

hipError_t exec_test_store(int* dst, int value, hipStream_t stream) {
  hipLaunchKernelGGL(store_kernel, dim3(1), dim3(1), 0, stream, dst, value);
  return hipGetLastError();
}

hipError_t exec_test_copy(const int* src, int* dst, hipStream_t stream) {
  hipLaunchKernelGGL(copy_kernel, dim3(1), dim3(1), 0, stream, src, dst);
  return hipGetLastError();
}

hipError_t exec_test_mark(int* slots, int index, hipStream_t stream) {
  hipLaunchKernelGGL(mark_kernel, dim3(1), dim3(1), 0, stream, slots, index);
  return hipGetLastError();
}

hipError_t exec_test_empty(hipStream_t stream) {
  hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, stream);
  return hipGetLastError();
}

void exec_test_launch_invalid(hipStream_t stream) { hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(4096), 0, stream); }

void exec_test_launch_fault(hipStream_t stream) {
  // Far outside any allocation, but not null, so that it cannot be mistaken for a null check.
  auto* bad = reinterpret_cast<volatile int*>(static_cast<std::uintptr_t>(0x10000));
  hipLaunchKernelGGL(fault_kernel, dim3(1), dim3(1), 0, stream, bad);
}
