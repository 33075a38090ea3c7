// SPDX-License-Identifier: MIT
#pragma once
// The NVIDIA backend of the device primitives: CUB, from the CUDA toolkit (CCCL). Include
// platform.hpp, not this file. The rocPRIM backend (backend_rocprim.hpp) gives the same
// functions; every function returns the hipError_t of the library call.
// The functions that take (temp, bytes) follow CUB's convention: with temp == nullptr they only
// write the temporary storage they need into `bytes`.

#include <dtl/hip/runtime.hpp>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_transform.cuh>

#include <cuda/std/tuple>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <limits>

// nvcc checks that a __host__ __device__ function calls no __device__-only function. The wrappers of
// user operators (ops.hpp) call __device__ lambdas, and only ever run on the device.
#define DTL_DEVICE_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")

namespace dtl::detail::gpu::backend {

/// CUB scans in place for any n (DeviceScan's documentation: d_in == d_out is an in-place scan).
inline constexpr std::size_t exclusive_scan_in_place_limit = std::numeric_limits<std::size_t>::max();

/// CUB chooses its offset type from the type of num_items. Pass 32-bit counts whenever n fits, as a
/// plain DeviceReduce::Sum(..., int n) does, so that we run the same kernels; 64-bit ones only beyond.
template <class Call>
hipError_t with_unsigned_count(std::size_t n, Call&& call) {
  const cudaError_t e = n <= std::numeric_limits<std::uint32_t>::max() ? call(static_cast<std::uint32_t>(n))
                                                                       : call(static_cast<unsigned long long>(n));
  return hipCUDAErrorTohipError(e);
}

/// DeviceTransform's counterpart: it picks a signed offset, 32-bit for int.
template <class Call>
hipError_t with_signed_count(std::size_t n, Call&& call) {
  const cudaError_t e = n <= static_cast<std::size_t>(std::numeric_limits<int>::max())
                            ? call(static_cast<int>(n))
                            : call(static_cast<std::int64_t>(n));
  return hipCUDAErrorTohipError(e);
}

template <class In, class Out, class F>
hipError_t transform(const In* in, Out* out, std::size_t n, F f, hipStream_t stream) {
  return with_signed_count(n, [&](auto count) { return cub::DeviceTransform::Transform(in, out, count, f, stream); });
}

template <class A, class B, class Out, class F>
hipError_t transform(const A* a, const B* b, Out* out, std::size_t n, F f, hipStream_t stream) {
  return with_signed_count(n, [&](auto count) {
    return cub::DeviceTransform::Transform(::cuda::std::make_tuple(a, b), out, count, f, stream);
  });
}

template <class T, class Op>
hipError_t reduce(void* temp, std::size_t& bytes, const T* in, std::size_t n, const T& init, Op op, T* out,
                  hipStream_t stream) {
  return with_unsigned_count(
      n, [&](auto count) { return cub::DeviceReduce::Reduce(temp, bytes, in, out, count, op, init, stream); });
}

template <class In, class T, class ReduceOp, class TransformOp>
hipError_t transform_reduce(void* temp, std::size_t& bytes, const In* in, std::size_t n, const T& init,
                            ReduceOp reduce_op, TransformOp transform_op, T* out, hipStream_t stream) {
  return with_unsigned_count(n, [&](auto count) {
    return cub::DeviceReduce::TransformReduce(temp, bytes, in, out, count, reduce_op, transform_op, init, stream);
  });
}

template <class T, class Op>
hipError_t inclusive_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n, Op op,
                          hipStream_t stream) {
  return with_unsigned_count(
      n, [&](auto count) { return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, op, count, stream); });
}

template <class T, class Op>
hipError_t exclusive_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n, const T& init, Op op,
                          hipStream_t stream) {
  return with_unsigned_count(
      n, [&](auto count) { return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, op, init, count, stream); });
}

/// The fold of index_op(i) for i in [0, n) (one pass over whatever index_op reads: two vectors, or an
/// element with its index). CCCL 3 has no CUB counting iterator: thrust's, in the offset type of count.
template <class T, class ReduceOp, class IndexOp>
hipError_t transform_reduce_indexed(void* temp, std::size_t& bytes, std::size_t n, const T& init, ReduceOp reduce_op,
                                    IndexOp index_op, T* out, hipStream_t stream) {
  return with_unsigned_count(n, [&](auto count) {
    const thrust::counting_iterator<decltype(count)> indices(0);
    return cub::DeviceReduce::TransformReduce(temp, bytes, indices, out, count, reduce_op, index_op, init, stream);
  });
}

// --- sorting (the distributed sort) ---
// Radix sorts over a pair of buffers (CUB's DoubleBuffer): the sorted keys end in `keys` or in
// `alternate`, as `in_alternate` says after the call. Merge sorts are stable, from `in` into `out`.

template <class K>
hipError_t radix_sort_keys(void* temp, std::size_t& bytes, K* keys, K* alternate, std::size_t n, bool descending,
                           bool& in_alternate, hipStream_t stream) {
  cub::DoubleBuffer<K> k(keys, alternate);
  const hipError_t e = with_signed_count(n, [&](auto count) {
    return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, k, count, 0, int(sizeof(K) * 8), stream)
                      : cub::DeviceRadixSort::SortKeys(temp, bytes, k, count, 0, int(sizeof(K) * 8), stream);
  });
  in_alternate = k.selector != 0;
  return e;
}

template <class K, class V>
hipError_t radix_sort_pairs(void* temp, std::size_t& bytes, K* keys, K* alternate_keys, V* values, V* alternate_values,
                            std::size_t n, bool descending, bool& in_alternate, hipStream_t stream) {
  cub::DoubleBuffer<K> k(keys, alternate_keys);
  cub::DoubleBuffer<V> v(values, alternate_values);
  const hipError_t e = with_signed_count(n, [&](auto count) {
    return descending
               ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, k, v, count, 0, int(sizeof(K) * 8), stream)
               : cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, count, 0, int(sizeof(K) * 8), stream);
  });
  in_alternate = k.selector != 0;
  return e;
}

template <class K, class Comp>
hipError_t merge_sort_keys(void* temp, std::size_t& bytes, const K* in, K* out, std::size_t n, Comp comp,
                           hipStream_t stream) {
  return with_signed_count(n, [&](auto count) {
    return cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, in, out, count, comp, stream);
  });
}

/// CUB's out-of-place pair sort is not documented stable: copy, then its stable sort in place.
template <class K, class V, class Comp>
hipError_t merge_sort_pairs(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out, const V* values_in,
                            V* values_out, std::size_t n, Comp comp, hipStream_t stream) {
  if (temp != nullptr) {
    if (const cudaError_t e = cudaMemcpyAsync(keys_out, keys_in, n * sizeof(K), cudaMemcpyDeviceToDevice, stream);
        e != cudaSuccess)
      return hipCUDAErrorTohipError(e);
    if (const cudaError_t e = cudaMemcpyAsync(values_out, values_in, n * sizeof(V), cudaMemcpyDeviceToDevice, stream);
        e != cudaSuccess)
      return hipCUDAErrorTohipError(e);
  }
  return with_signed_count(n, [&](auto count) {
    return cub::DeviceMergeSort::StableSortPairs(temp, bytes, keys_out, values_out, count, comp, stream);
  });
}

}  // namespace dtl::detail::gpu::backend
