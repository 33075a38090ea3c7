// SPDX-License-Identifier: MIT
// The demo's kernel, compiled by dtl-hip-kc for the configured platform.
#include <hip/hip_runtime.h>

#include "demo_kernels.hpp"

namespace {

__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

}  // namespace

void demo_saxpy(float a, const float* x, float* y, std::size_t n, hipStream_t stream) {
  const unsigned block = 256;
  const std::size_t blocks = (n + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(blocks < 65535 ? blocks : 65535);
  hipLaunchKernelGGL(saxpy_kernel, dim3(grid), dim3(block), 0, stream, a, x, y, n);
}
