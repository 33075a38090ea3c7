// SPDX-License-Identifier: MIT
#pragma once
// Host entry points into the device primitives for the tests, so that the tests themselves are plain
// C++. Defined (and instantiated for the types below) in device_primitives_*.hip, compiled by
// dtl-hip-kc: that is where the operators, device lambdas among them, meet the kernels.

#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace prim_test {

using dtl::detail::gpu::device_scratch;

/// A 12-byte value type: no vectorised path, a user-defined operator+.
struct vec3 {
  float x;
  float y;
  float z;
  friend bool operator==(const vec3&, const vec3&) = default;
};

DTL_HOST_DEVICE inline vec3 operator+(const vec3& a, const vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

/// The operators the reduce, scan and apply_prefix entry points take.
enum class op_kind {
  std_plus,            // std::plus<T>
  std_plus_any,        // std::plus<>
  std_multiplies,      // std::multiplies<T>
  min,                 // dtl::reduce_min<T>
  max,                 // dtl::reduce_max<T>
  functor,             // a function object with a templated __host__ __device__ call operator (adds)
  device_lambda,       // [] __device__ (T, T) (adds)
  host_device_lambda,  // [] __host__ __device__ (T, T) (the larger)
};

inline constexpr op_kind all_op_kinds[] = {
    op_kind::std_plus, op_kind::std_plus_any, op_kind::std_multiplies, op_kind::min,
    op_kind::max,      op_kind::functor,      op_kind::device_lambda,  op_kind::host_device_lambda};

/// The kinds each type is instantiated with: every kind is covered by some type, and all of them for
/// every type would cost minutes of nvcc time for little more coverage. Others give not_supported.
template <class T>
constexpr bool supported(op_kind kind) {
  if constexpr (std::is_same_v<T, float>) {
    return kind == op_kind::std_plus || kind == op_kind::max || kind == op_kind::device_lambda;
  } else if constexpr (std::is_same_v<T, double>) {
    return kind == op_kind::std_plus_any || kind == op_kind::min || kind == op_kind::host_device_lambda;
  } else if constexpr (std::is_same_v<T, int>) {
    return kind == op_kind::std_plus || kind == op_kind::std_multiplies || kind == op_kind::min ||
           kind == op_kind::max || kind == op_kind::functor;
  } else {
    return kind == op_kind::functor;
  }
}

/// What the operator of `kind` gives on the host (the reference).
template <class T>
T apply(op_kind kind, const T& a, const T& b) {
  if constexpr (std::is_arithmetic_v<T>) {
    switch (kind) {
      case op_kind::std_multiplies: return a * b;
      case op_kind::min: return std::min(a, b);
      case op_kind::max:
      case op_kind::host_device_lambda: return std::max(a, b);
      default: break;
    }
  }
  return a + b;
}

/// data[i] = value.
template <class T>
dtl::status fill(T* data, std::size_t n, T value, hipStream_t stream);
/// data[i] = first + T(i).
template <class T>
dtl::status iota(T* data, std::size_t n, T first, hipStream_t stream);
/// x = 2x + 1 for every element, with a __device__ lambda taking T&.
template <class T>
dtl::status for_each_affine(T* data, std::size_t n, hipStream_t stream);
/// x += T(first_index + i), with a function object.
template <class T>
dtl::status for_each_indexed_add(T* data, std::size_t n, std::size_t first_index, hipStream_t stream);
/// out[i] = 2 in[i] + 1, with a __device__ lambda; in == out allowed.
template <class T>
dtl::status transform_affine(const T* in, T* out, std::size_t n, hipStream_t stream);
/// out[i] = a[i] + b[i], with std::plus<>; out may be a.
template <class T>
dtl::status transform_add(const T* a, const T* b, T* out, std::size_t n, hipStream_t stream);
/// data[i] = op(prefix, data[i]).
template <class T>
dtl::status apply_prefix(T* data, std::size_t n, T prefix, op_kind op, hipStream_t stream);

/// *d_result = op-fold of init and in[0..n).
template <class T>
dtl::status reduce(const T* in, std::size_t n, T init, op_kind op, T* d_result, device_scratch& scratch,
                   hipStream_t stream);
/// *d_result = init + sum of in[i]^2 (transform_reduce: std::plus<T> and a __device__ lambda).
template <class T>
dtl::status sum_of_squares(const T* in, std::size_t n, T init, T* d_result, device_scratch& scratch,
                           hipStream_t stream);
/// *d_result = the number of non-zero bytes (transform_reduce into another type).
dtl::status count_nonzero(const std::uint8_t* in, std::size_t n, unsigned long long* d_result, device_scratch& scratch,
                          hipStream_t stream);

/// out[i] = in[0] op ... op in[i]; in == out allowed.
template <class T>
dtl::status inclusive_scan(const T* in, T* out, std::size_t n, op_kind op, device_scratch& scratch, hipStream_t stream);
/// out[i] = init op in[0] op ... op in[i - 1]; in == out allowed.
template <class T>
dtl::status exclusive_scan(const T* in, T* out, std::size_t n, T init, op_kind op, device_scratch& scratch,
                           hipStream_t stream);

}  // namespace prim_test
