// SPDX-License-Identifier: MIT
// Raw baselines: what a careful user writes by hand with the vendor libraries.
#include "raw_baselines.hpp"

#include <hip/hip_runtime.h>

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)  // nvcc: CUB; hipcc: rocPRIM
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/tuple>
#include <cuda/std/functional>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#else
#include <rocprim/rocprim.hpp>
#endif

namespace bench {

namespace {

__global__ void fill4(float4* data, std::size_t n4, float value) {
  const float4 v{value, value, value, value};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride)
    data[i] = v;
}

__global__ void fill_tail(float* data, std::size_t begin, std::size_t n, float value) {
  const std::size_t i = begin + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

struct axpb {
  float a, b;
  __host__ __device__ float operator()(float x) const { return a * x + b; }
};

}  // namespace

hipError_t raw_fill(float* data, std::size_t n, float value, hipStream_t stream) {
  int device = 0, sms = 0;
  if (hipError_t e = hipGetDevice(&device); e != hipSuccess) return e;
  if (hipError_t e = hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device); e != hipSuccess)
    return e;
  const std::size_t n4 = n / 4;
  hipLaunchKernelGGL(fill4, dim3(static_cast<unsigned>(sms) * 8), dim3(256), 0, stream, reinterpret_cast<float4*>(data),
                     n4, value);
  if (n % 4 != 0) hipLaunchKernelGGL(fill_tail, dim3(1), dim3(4), 0, stream, data, n4 * 4, n, value);
  return hipGetLastError();
}

#if defined(__CUDACC__)  // nvcc: CUB; hipcc: rocPRIM
hipError_t raw_transform(const float* in, float* out, std::size_t n, float a, float b, hipStream_t stream) {
  return hipCUDAErrorTohipError(
      cub::DeviceTransform::Transform(in, out, static_cast<std::int64_t>(n), axpb{a, b}, stream));
}
hipError_t raw_sum(const float* in, std::size_t n, float* d_out, void* temp, std::size_t& temp_bytes,
                   hipStream_t stream) {
  return hipCUDAErrorTohipError(
      cub::DeviceReduce::Sum(temp, temp_bytes, in, d_out, static_cast<std::int64_t>(n), stream));
}
const char* vendor_library() { return "CUB"; }
#else
hipError_t raw_transform(const float* in, float* out, std::size_t n, float a, float b, hipStream_t stream) {
  return rocprim::transform(in, out, n, axpb{a, b}, stream);
}
hipError_t raw_sum(const float* in, std::size_t n, float* d_out, void* temp, std::size_t& temp_bytes,
                   hipStream_t stream) {
  return rocprim::reduce(temp, temp_bytes, in, d_out, 0.0f, n, rocprim::plus<float>(), stream);
}
const char* vendor_library() { return "rocPRIM"; }
#endif

// --- dot and searches ---

namespace {

constexpr int dot_threads = 1024;

// BabelStream's dot kernel: a grid-stride sum per thread, a shared-memory tree per block, one partial each.
__global__ void dot_partials(const double* a, const double* b, double* partials, std::size_t n) {
  __shared__ double sums[dot_threads];
  double sum = 0.0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    sum += a[i] * b[i];
  sums[threadIdx.x] = sum;
  for (unsigned offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (threadIdx.x < offset) sums[threadIdx.x] += sums[threadIdx.x + offset];
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = sums[0];
}

struct product_of_pair {
  template <class Pair>
  __host__ __device__ double operator()(const Pair& p) const {
#if defined(__CUDACC__)
    return thrust::get<0>(p) * thrust::get<1>(p);
#else
    return rocprim::get<0>(p) * rocprim::get<1>(p);
#endif
  }
};

struct smaller {
  __host__ __device__ double operator()(double x, double y) const { return y < x ? y : x; }
};

}  // namespace

int raw_dot_blocks() {
  int device = 0, sms = 0;
  if (hipGetDevice(&device) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device) != hipSuccess) return 1;
  return 4 * sms;
}

hipError_t raw_dot_babelstream(const double* a, const double* b, std::size_t n, int blocks, double* d_partials,
                               double* h_partials, double& out, hipStream_t stream) {
  hipLaunchKernelGGL(dot_partials, dim3(static_cast<unsigned>(blocks)), dim3(dot_threads), 0, stream, a, b, d_partials,
                     n);
  if (hipError_t e = hipGetLastError(); e != hipSuccess) return e;
  const std::size_t bytes = static_cast<std::size_t>(blocks) * sizeof(double);
  if (hipError_t e = hipMemcpyAsync(h_partials, d_partials, bytes, hipMemcpyDeviceToHost, stream); e != hipSuccess)
    return e;
  if (hipError_t e = hipStreamSynchronize(stream); e != hipSuccess) return e;
  double sum = 0.0;
  for (int i = 0; i < blocks; ++i) sum += h_partials[i];
  out = sum;
  return hipSuccess;
}

#if defined(__CUDACC__)
hipError_t raw_dot_transform_reduce(const double* a, const double* b, std::size_t n, double* d_out, void* temp,
                                    std::size_t& temp_bytes, hipStream_t stream) {
  return hipCUDAErrorTohipError(cub::DeviceReduce::TransformReduce(
      temp, temp_bytes, thrust::make_zip_iterator(a, b), d_out, static_cast<std::uint32_t>(n), ::cuda::std::plus<>{},
      product_of_pair{}, 0.0, stream));
}
hipError_t raw_min(const double* in, std::size_t n, double* d_out, void* temp, std::size_t& temp_bytes,
                   hipStream_t stream) {
  return hipCUDAErrorTohipError(cub::DeviceReduce::Reduce(temp, temp_bytes, in, d_out, static_cast<std::uint32_t>(n),
                                                          smaller{}, std::numeric_limits<double>::infinity(), stream));
}
#else
hipError_t raw_dot_transform_reduce(const double* a, const double* b, std::size_t n, double* d_out, void* temp,
                                    std::size_t& temp_bytes, hipStream_t stream) {
  auto pairs = rocprim::make_zip_iterator(rocprim::make_tuple(a, b));
  const rocprim::transform_iterator<decltype(pairs), product_of_pair, double> products(pairs, product_of_pair{});
  return rocprim::reduce(temp, temp_bytes, products, d_out, 0.0, n, rocprim::plus<double>(), stream);
}
hipError_t raw_min(const double* in, std::size_t n, double* d_out, void* temp, std::size_t& temp_bytes,
                   hipStream_t stream) {
  return rocprim::reduce(temp, temp_bytes, in, d_out, std::numeric_limits<double>::infinity(), n, smaller{}, stream);
}
#endif

}  // namespace bench
