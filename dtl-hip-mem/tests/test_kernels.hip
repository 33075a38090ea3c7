// Kernels for the gpu tests, compiled by dtl-hip-kc (hipcc on AMD, nvcc on NVIDIA).
#include <hip/hip_runtime.h>

#include "test_kernels.hpp"

namespace {

__global__ void fill_index_kernel(unsigned* out, std::size_t n, unsigned seed) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<unsigned>(i) * 2654435761u ^ seed;
}

}  // namespace

hipError_t dtl_test_fill_index(unsigned* out, std::size_t n, unsigned seed, hipStream_t stream) {
  const unsigned block = 256;
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  hipLaunchKernelGGL(fill_index_kernel, dim3(grid), dim3(block), 0, stream, out, n, seed);
  return hipGetLastError();
}
