// SPDX-License-Identifier: MIT
#pragma once
// The AMD backend of the device primitives: rocPRIM (Debian's librocprim-dev). Include
// platform.hpp, not this file. The CUB backend (backend_cub.hpp) gives the same
// functions; every function returns the hipError_t of the library call.
// The functions that take (temp, bytes) follow rocPRIM's convention: with temp == nullptr they only
// write the temporary storage they need into `bytes`.

#include <dtl/hip/runtime.hpp>

// The umbrella header: rocPRIM 2.10's device headers do not compile alone (they use std::cout
// without including <iostream>).
#include <rocprim/rocprim.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

// clang checks calls across host and device only in code it emits, so nothing needs silencing here.
#define DTL_DEVICE_EXEC_CHECK_DISABLE

namespace dtl::detail::gpu::backend {

/// rocPRIM (2.10, ROCm 5.3) scans more than about 2^32 elements in several launches, and its exclusive
/// scan then reads the input element before each launch's range (input[-1]), which an in-place scan has
/// already overwritten. Up to 2^31 elements it is one launch, which reads each tile before writing it.
inline constexpr std::size_t exclusive_scan_in_place_limit = std::size_t{1} << 31;

template <class In, class Out, class F>
hipError_t transform(const In* in, Out* out, std::size_t n, F f, hipStream_t stream) {
  return rocprim::transform(in, out, n, f, stream);
}

template <class A, class B, class Out, class F>
hipError_t transform(const A* a, const B* b, Out* out, std::size_t n, F f, hipStream_t stream) {
  return rocprim::transform(a, b, out, n, f, stream);
}

template <class T, class Op>
hipError_t reduce(void* temp, std::size_t& bytes, const T* in, std::size_t n, const T& init, Op op, T* out,
                  hipStream_t stream) {
  return rocprim::reduce(temp, bytes, in, out, init, n, op, stream);
}

template <class In, class T, class ReduceOp, class TransformOp>
hipError_t transform_reduce(void* temp, std::size_t& bytes, const In* in, std::size_t n, const T& init,
                            ReduceOp reduce_op, TransformOp transform_op, T* out, hipStream_t stream) {
  const rocprim::transform_iterator<const In*, TransformOp, T> transformed(in, transform_op);
  return rocprim::reduce(temp, bytes, transformed, out, init, n, reduce_op, stream);
}

template <class T, class Op>
hipError_t inclusive_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n, Op op,
                          hipStream_t stream) {
  return rocprim::inclusive_scan(temp, bytes, in, out, n, op, stream);
}

template <class T, class Op>
hipError_t exclusive_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n, const T& init, Op op,
                          hipStream_t stream) {
  return rocprim::exclusive_scan(temp, bytes, in, out, init, n, op, stream);
}

/// The fold of index_op(i) for i in [0, n) (one pass over whatever index_op reads: two vectors, or an
/// element with its index).
template <class T, class ReduceOp, class IndexOp>
hipError_t transform_reduce_indexed(void* temp, std::size_t& bytes, std::size_t n, const T& init, ReduceOp reduce_op,
                                    IndexOp index_op, T* out, hipStream_t stream) {
  using indices = rocprim::counting_iterator<std::size_t>;
  const rocprim::transform_iterator<indices, IndexOp, T> mapped(indices(0), index_op);
  return rocprim::reduce(temp, bytes, mapped, out, init, n, reduce_op, stream);
}

// --- sorting (the distributed sort) ---
// Radix sorts over a pair of buffers (rocPRIM's double_buffer): the sorted keys end in `keys` or in
// `alternate`, as `in_alternate` says after the call. Merge sorts (stable) from `in` into `out`;
// rocPRIM 2.10's merge sort counts in 32 bits, so larger ranges are refused.

template <class K>
hipError_t radix_sort_keys(void* temp, std::size_t& bytes, K* keys, K* alternate, std::size_t n, bool descending,
                           bool& in_alternate, hipStream_t stream) {
  rocprim::double_buffer<K> k(keys, alternate);
  const hipError_t e = descending ? rocprim::radix_sort_keys_desc(temp, bytes, k, n, 0, sizeof(K) * 8, stream)
                                  : rocprim::radix_sort_keys(temp, bytes, k, n, 0, sizeof(K) * 8, stream);
  in_alternate = k.current() != keys;
  return e;
}

template <class K, class V>
hipError_t radix_sort_pairs(void* temp, std::size_t& bytes, K* keys, K* alternate_keys, V* values, V* alternate_values,
                            std::size_t n, bool descending, bool& in_alternate, hipStream_t stream) {
  rocprim::double_buffer<K> k(keys, alternate_keys);
  rocprim::double_buffer<V> v(values, alternate_values);
  const hipError_t e = descending ? rocprim::radix_sort_pairs_desc(temp, bytes, k, v, n, 0, sizeof(K) * 8, stream)
                                  : rocprim::radix_sort_pairs(temp, bytes, k, v, n, 0, sizeof(K) * 8, stream);
  in_alternate = k.current() != keys;
  return e;
}

template <class K, class Comp>
hipError_t merge_sort_keys(void* temp, std::size_t& bytes, const K* in, K* out, std::size_t n, Comp comp,
                           hipStream_t stream) {
  if (n > std::numeric_limits<std::uint32_t>::max()) return hipErrorInvalidValue;
  return rocprim::merge_sort(temp, bytes, in, out, n, comp, stream);
}

template <class K, class V, class Comp>
hipError_t merge_sort_pairs(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out, const V* values_in,
                            V* values_out, std::size_t n, Comp comp, hipStream_t stream) {
  if (n > std::numeric_limits<std::uint32_t>::max()) return hipErrorInvalidValue;
  return rocprim::merge_sort(temp, bytes, keys_in, keys_out, values_in, values_out, n, comp, stream);
}

}  // namespace dtl::detail::gpu::backend
