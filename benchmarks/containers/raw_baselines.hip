// Raw baselines: what a careful user writes by hand with the vendor libraries.
#include "raw_baselines.hpp"

#include <hip/hip_runtime.h>

#if defined(__CUDACC__)  // nvcc: CUB; hipcc: rocPRIM
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/tuple>
#else
#include <rocprim/rocprim.hpp>
#endif

namespace bench {

namespace {

__global__ void fill4(float4* data, std::size_t n4, float value) {
  const float4 v{value, value, value, value};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) data[i] = v;
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
  if (hipError_t e = hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device); e != hipSuccess) return e;
  const std::size_t n4 = n / 4;
  hipLaunchKernelGGL(fill4, dim3(static_cast<unsigned>(sms) * 8), dim3(256), 0, stream, reinterpret_cast<float4*>(data), n4,
                     value);
  if (n % 4 != 0) hipLaunchKernelGGL(fill_tail, dim3(1), dim3(4), 0, stream, data, n4 * 4, n, value);
  return hipGetLastError();
}

#if defined(__CUDACC__)  // nvcc: CUB; hipcc: rocPRIM
hipError_t raw_transform(const float* in, float* out, std::size_t n, float a, float b, hipStream_t stream) {
  return hipCUDAErrorTohipError(cub::DeviceTransform::Transform(in, out, static_cast<std::int64_t>(n), axpb{a, b}, stream));
}
hipError_t raw_sum(const float* in, std::size_t n, float* d_out, void* temp, std::size_t& temp_bytes, hipStream_t stream) {
  return hipCUDAErrorTohipError(cub::DeviceReduce::Sum(temp, temp_bytes, in, d_out, static_cast<std::int64_t>(n), stream));
}
const char* vendor_library() { return "CUB"; }
#else
hipError_t raw_transform(const float* in, float* out, std::size_t n, float a, float b, hipStream_t stream) {
  return rocprim::transform(in, out, n, axpb{a, b}, stream);
}
hipError_t raw_sum(const float* in, std::size_t n, float* d_out, void* temp, std::size_t& temp_bytes, hipStream_t stream) {
  return rocprim::reduce(temp, temp_bytes, in, d_out, 0.0f, n, rocprim::plus<float>(), stream);
}
const char* vendor_library() { return "rocPRIM"; }
#endif

}  // namespace bench
