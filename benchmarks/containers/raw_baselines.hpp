// SPDX-License-Identifier: MIT
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
hipError_t raw_sum(const float* in, std::size_t n, float* d_out, void* temp, std::size_t& temp_bytes,
                   hipStream_t stream);
/// "CUB" or "rocPRIM".
const char* vendor_library();

// --- dot and searches (search_bench.hip) ---

/// Blocks of BabelStream's dot kernel: 4 per multiprocessor (of 1024 threads).
int raw_dot_blocks();
/// BabelStream's dot: each of `blocks` blocks sums its grid-stride share of a[i] * b[i] in shared memory
/// and writes one partial into d_partials; the partials come back into h_partials (pinned) and are summed
/// on the host. Waits for `stream`; the value in `out`.
hipError_t raw_dot_babelstream(const double* a, const double* b, std::size_t n, int blocks, double* d_partials,
                               double* h_partials, double& out, hipStream_t stream);
/// *d_out = sum of a[i] * b[i]: cub::DeviceReduce::TransformReduce over a zip iterator (rocPRIM: reduce
/// over a transform of a zip iterator); temp storage given by the caller.
hipError_t raw_dot_transform_reduce(const double* a, const double* b, std::size_t n, double* d_out, void* temp,
                                    std::size_t& temp_bytes, hipStream_t stream);
/// *d_out = the smallest of in (cub::DeviceReduce::Min / rocprim::reduce with minimum); temp storage given
/// by the caller.
hipError_t raw_min(const double* in, std::size_t n, double* d_out, void* temp, std::size_t& temp_bytes,
                   hipStream_t stream);

}  // namespace bench
