// SPDX-License-Identifier: MIT
// The elementwise device primitives (grid-stride kernels and transform), behind the entry points of
// device_primitives_kernels.hpp.
#include "device_primitives_ops.hpp"

namespace prim_test {

/// x += T(i), a function object with a __host__ __device__ call operator.
template <class T>
struct add_index {
  __host__ __device__ void operator()(std::size_t i, T& x) const { x += static_cast<T>(i); }
};

template <class T>
dtl::status fill(T* data, std::size_t n, T value, hipStream_t stream) {
  return gpu::fill(data, n, value, stream);
}

template <class T>
dtl::status iota(T* data, std::size_t n, T first, hipStream_t stream) {
  return gpu::iota(data, n, first, stream);
}

template <class T>
dtl::status for_each_affine(T* data, std::size_t n, hipStream_t stream) {
  return gpu::for_each(
      data, n, [] __device__(T & x) { x = T(2) * x + T(1); }, stream);
}

template <class T>
dtl::status for_each_indexed_add(T* data, std::size_t n, std::size_t first_index, hipStream_t stream) {
  return gpu::for_each_indexed(data, n, first_index, add_index<T>{}, stream);
}

template <class T>
dtl::status transform_affine(const T* in, T* out, std::size_t n, hipStream_t stream) {
  return gpu::transform(
      in, out, n, [] __device__(T x) { return T(2) * x + T(1); }, stream);
}

template <class T>
dtl::status transform_add(const T* a, const T* b, T* out, std::size_t n, hipStream_t stream) {
  return gpu::transform(a, b, out, n, std::plus<>{}, stream);
}

template <class T>
struct apply_prefix_call {
  T* data;
  std::size_t n;
  T prefix;
  hipStream_t stream;
  template <class Op>
  dtl::status operator()(Op op) const {
    return gpu::apply_prefix(data, n, prefix, op, stream);
  }
};

template <class T>
dtl::status apply_prefix(T* data, std::size_t n, T prefix, op_kind op, hipStream_t stream) {
  return with_op<T>(op, apply_prefix_call<T>{data, n, prefix, stream});
}

template dtl::status fill(float*, std::size_t, float, hipStream_t);
template dtl::status fill(double*, std::size_t, double, hipStream_t);
template dtl::status fill(int*, std::size_t, int, hipStream_t);
template dtl::status fill(vec3*, std::size_t, vec3, hipStream_t);
template dtl::status fill(std::uint8_t*, std::size_t, std::uint8_t, hipStream_t);

template dtl::status iota(float*, std::size_t, float, hipStream_t);
template dtl::status iota(double*, std::size_t, double, hipStream_t);
template dtl::status iota(int*, std::size_t, int, hipStream_t);

template dtl::status for_each_affine(float*, std::size_t, hipStream_t);
template dtl::status for_each_affine(double*, std::size_t, hipStream_t);
template dtl::status for_each_affine(int*, std::size_t, hipStream_t);

template dtl::status for_each_indexed_add(float*, std::size_t, std::size_t, hipStream_t);
template dtl::status for_each_indexed_add(double*, std::size_t, std::size_t, hipStream_t);
template dtl::status for_each_indexed_add(int*, std::size_t, std::size_t, hipStream_t);

template dtl::status transform_affine(const float*, float*, std::size_t, hipStream_t);
template dtl::status transform_affine(const double*, double*, std::size_t, hipStream_t);
template dtl::status transform_affine(const int*, int*, std::size_t, hipStream_t);

template dtl::status transform_add(const float*, const float*, float*, std::size_t, hipStream_t);
template dtl::status transform_add(const double*, const double*, double*, std::size_t, hipStream_t);
template dtl::status transform_add(const int*, const int*, int*, std::size_t, hipStream_t);
template dtl::status transform_add(const vec3*, const vec3*, vec3*, std::size_t, hipStream_t);

template dtl::status apply_prefix(float*, std::size_t, float, op_kind, hipStream_t);
template dtl::status apply_prefix(double*, std::size_t, double, op_kind, hipStream_t);
template dtl::status apply_prefix(int*, std::size_t, int, op_kind, hipStream_t);
template dtl::status apply_prefix(vec3*, std::size_t, vec3, op_kind, hipStream_t);

}  // namespace prim_test
