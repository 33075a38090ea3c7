// SPDX-License-Identifier: MIT
#pragma once
#include <hip/hip_runtime_api.h>

#include <cstddef>

/// Launches y = a*x + y on `stream` (launch errors are picked up by the executor).
void demo_saxpy(float a, const float* x, float* y, std::size_t n, hipStream_t stream);
