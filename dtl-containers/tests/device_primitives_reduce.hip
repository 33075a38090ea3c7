// SPDX-License-Identifier: MIT
// The reductions (CUB or rocPRIM), behind the entry points of device_primitives_kernels.hpp.
#include "device_primitives_ops.hpp"

namespace prim_test {

template <class T>
struct reduce_call {
  const T* in;
  std::size_t n;
  T init;
  T* d_result;
  device_scratch* scratch;
  hipStream_t stream;
  template <class Op>
  dtl::status operator()(Op op) const {
    return gpu::reduce(in, n, init, op, d_result, *scratch, stream);
  }
};

template <class T>
dtl::status reduce(const T* in, std::size_t n, T init, op_kind op, T* d_result, device_scratch& scratch,
                   hipStream_t stream) {
  return with_op<T>(op, reduce_call<T>{in, n, init, d_result, &scratch, stream});
}

template <class T>
dtl::status sum_of_squares(const T* in, std::size_t n, T init, T* d_result, device_scratch& scratch,
                           hipStream_t stream) {
  return gpu::transform_reduce(
      in, n, init, std::plus<T>{}, [] __device__(T x) { return x * x; }, d_result, scratch, stream);
}

dtl::status count_nonzero(const std::uint8_t* in, std::size_t n, unsigned long long* d_result, device_scratch& scratch,
                          hipStream_t stream) {
  return gpu::transform_reduce(
      in, n, 0ull, std::plus<>{}, [] __device__(std::uint8_t x) { return x != 0 ? 1ull : 0ull; }, d_result, scratch,
      stream);
}

template dtl::status reduce(const float*, std::size_t, float, op_kind, float*, device_scratch&, hipStream_t);
template dtl::status reduce(const double*, std::size_t, double, op_kind, double*, device_scratch&, hipStream_t);
template dtl::status reduce(const int*, std::size_t, int, op_kind, int*, device_scratch&, hipStream_t);
template dtl::status reduce(const vec3*, std::size_t, vec3, op_kind, vec3*, device_scratch&, hipStream_t);

template dtl::status sum_of_squares(const float*, std::size_t, float, float*, device_scratch&, hipStream_t);
template dtl::status sum_of_squares(const double*, std::size_t, double, double*, device_scratch&, hipStream_t);
template dtl::status sum_of_squares(const int*, std::size_t, int, int*, device_scratch&, hipStream_t);

}  // namespace prim_test
