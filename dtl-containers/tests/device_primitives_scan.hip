// SPDX-License-Identifier: MIT
// The scans (CUB or rocPRIM), behind the entry points of device_primitives_kernels.hpp.
#include "device_primitives_ops.hpp"

namespace prim_test {

template <class T>
struct inclusive_scan_call {
  const T* in;
  T* out;
  std::size_t n;
  device_scratch* scratch;
  hipStream_t stream;
  template <class Op>
  dtl::status operator()(Op op) const {
    return gpu::inclusive_scan(in, out, n, op, *scratch, stream);
  }
};

template <class T>
struct exclusive_scan_call {
  const T* in;
  T* out;
  std::size_t n;
  T init;
  device_scratch* scratch;
  hipStream_t stream;
  template <class Op>
  dtl::status operator()(Op op) const {
    return gpu::exclusive_scan(in, out, n, init, op, *scratch, stream);
  }
};

template <class T>
dtl::status inclusive_scan(const T* in, T* out, std::size_t n, op_kind op, device_scratch& scratch,
                           hipStream_t stream) {
  return with_op<T>(op, inclusive_scan_call<T>{in, out, n, &scratch, stream});
}

template <class T>
dtl::status exclusive_scan(const T* in, T* out, std::size_t n, T init, op_kind op, device_scratch& scratch,
                           hipStream_t stream) {
  return with_op<T>(op, exclusive_scan_call<T>{in, out, n, init, &scratch, stream});
}

template dtl::status inclusive_scan(const float*, float*, std::size_t, op_kind, device_scratch&, hipStream_t);
template dtl::status inclusive_scan(const double*, double*, std::size_t, op_kind, device_scratch&, hipStream_t);
template dtl::status inclusive_scan(const int*, int*, std::size_t, op_kind, device_scratch&, hipStream_t);
template dtl::status inclusive_scan(const vec3*, vec3*, std::size_t, op_kind, device_scratch&, hipStream_t);

template dtl::status exclusive_scan(const float*, float*, std::size_t, float, op_kind, device_scratch&, hipStream_t);
template dtl::status exclusive_scan(const double*, double*, std::size_t, double, op_kind, device_scratch&, hipStream_t);
template dtl::status exclusive_scan(const int*, int*, std::size_t, int, op_kind, device_scratch&, hipStream_t);
template dtl::status exclusive_scan(const vec3*, vec3*, std::size_t, vec3, op_kind, device_scratch&, hipStream_t);

}  // namespace prim_test
