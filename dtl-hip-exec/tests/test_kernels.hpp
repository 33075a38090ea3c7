// SPDX-License-Identifier: MIT
#pragma once
// Kernels for the dtl-hip-exec gpu tests, behind a plain C++ interface so that the tests themselves
// are host code. Compiled by dtl-hip-kc (hipcc on AMD, nvcc on NVIDIA).
#include <hip/hip_runtime_api.h>

#include <cstddef>

/// One thread polls *flag (a volatile read of host memory mapped for the device) until it is non-zero
/// or `max_polls` polls have passed (so it can never hang forever), then writes *outcome: 1 when
/// released, 2 when it gave up.
hipError_t exec_test_spin(const int* flag, int* outcome, long long max_polls, hipStream_t stream);

/// *dst = value.
hipError_t exec_test_store(int* dst, int value, hipStream_t stream);

/// *dst = *src.
hipError_t exec_test_copy(const int* src, int* dst, hipStream_t stream);

/// slots[index] += 1 (one thread).
hipError_t exec_test_mark(int* slots, int index, hipStream_t stream);

/// An empty kernel.
hipError_t exec_test_empty(hipStream_t stream);

/// Launches with 4096 threads per block (more than any device allows) and does not read the error:
/// the launch error is left for the caller to find, as with a plain kernel<<<...>>> launch.
void exec_test_launch_invalid(hipStream_t stream);

/// Launches a kernel that writes through an invalid device address (an asynchronous, sticky fault).
void exec_test_launch_fault(hipStream_t stream);
