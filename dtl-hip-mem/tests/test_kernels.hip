// SPDX-License-Identifier: MIT
// Kernels for the gpu tests, compiled by dtl-hip-kc (hipcc on AMD, nvcc on NVIDIA).
#include <hip/hip_runtime.h>

#include "test_kernels.hpp"

namespace {

__global__ void fill_index_kernel(unsigned* out, std::size_t n, unsigned seed) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned>(i) * 2654435761u ^ seed;
}

__global__ void add_kernel(unsigned* data, std::size_t n, unsigned delta) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) data[i] += delta;
}

// Holds its stream for about `cycles` clock ticks, then writes `value` everywhere: work that is still
// writing a buffer when the host frees it.
__global__ void slow_fill_kernel(unsigned* out, std::size_t n, unsigned value, long long cycles) {
  if (threadIdx.x == 0) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
  }
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = value;
}

unsigned blocks_for(std::size_t n, unsigned block) { return static_cast<unsigned>((n + block - 1) / block); }

unsigned capped_blocks_for(std::size_t n, unsigned block) {
  const unsigned blocks = blocks_for(n, block);
  return blocks < 1024 ? (blocks == 0 ? 1 : blocks) : 1024;
}

}  // namespace

hipError_t dtl_test_fill_index(unsigned* out, std::size_t n, unsigned seed, hipStream_t stream) {
  const unsigned block = 256;
  hipLaunchKernelGGL(fill_index_kernel, dim3(blocks_for(n, block)), dim3(block), 0, stream, out, n, seed);
  return hipGetLastError();
}

hipError_t dtl_test_add(unsigned* data, std::size_t n, unsigned delta, hipStream_t stream) {
  const unsigned block = 256;
  hipLaunchKernelGGL(add_kernel, dim3(blocks_for(n, block)), dim3(block), 0, stream, data, n, delta);
  return hipGetLastError();
}

hipError_t dtl_test_slow_fill(unsigned* out, std::size_t n, unsigned value, long long cycles, hipStream_t stream) {
  const unsigned block = 256;
  hipLaunchKernelGGL(slow_fill_kernel, dim3(capped_blocks_for(n, block)), dim3(block), 0, stream, out, n, value,
                     cycles);
  return hipGetLastError();
}
