#pragma once
// The raw baselines the container benchmark compares DTL with, measured in the same run: a float4
// grid-stride fill kernel, the vendor library's transform and sum (CUB on NVIDIA, rocPRIM on AMD),
// and RCCL/NCCL allreduce. raw_baselines.hip picks the library by the kernel compiler (nvcc or hipcc).

#include <hip/hip_runtime_api.h>

#include <cstddef>

namespace bench {

/// data[i] = value, 16-byte stores, grid sized from the device; enqueued on `stream`.
hipError_t raw_fill(float* data, std::size_t n, float value, hipStream_t stream);
/// out[i] = a * in[i] + b with cub::DeviceTransform / rocprim::transform.
hipError_t raw_transform(const float* in, float* out, std::size_t n, float a, float b, hipStream_t stream);
/// *d_out = sum of in (cub::DeviceReduce::Sum / rocprim::reduce); temp storage given by the caller.
hipError_t raw_sum(const float* in, std::size_t n, float* d_out, void* temp, std::size_t& temp_bytes, hipStream_t stream);
/// "CUB" or "rocPRIM".
const char* vendor_library();

}  // namespace bench
