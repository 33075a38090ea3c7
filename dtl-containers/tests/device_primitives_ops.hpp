// SPDX-License-Identifier: MIT
#pragma once
// For the device_primitives_*.hip files: the operator of each op_kind, handed to a callable.

#include "device_primitives_kernels.hpp"

#include <dtl/containers/gpu/primitives.hpp>
#include <dtl/containers/algorithms/ops.hpp>

#include <functional>

namespace prim_test {

namespace gpu = dtl::detail::gpu;

/// Adds, with a templated call operator.
struct add_functor {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

/// run(the operator of `kind` for T); not_supported for kinds T is not instantiated with. Run is a
/// class at namespace scope: nvcc refuses extended lambdas in a function template instantiated with
/// a local type (such as a lambda's).
template <class T, class Run>
dtl::status with_op(op_kind kind, const Run& run) {
  switch (kind) {
    case op_kind::std_plus:
      if constexpr (supported<T>(op_kind::std_plus)) return run(std::plus<T>{});
      break;
    case op_kind::std_plus_any:
      if constexpr (supported<T>(op_kind::std_plus_any)) return run(std::plus<>{});
      break;
    case op_kind::std_multiplies:
      if constexpr (supported<T>(op_kind::std_multiplies)) return run(std::multiplies<T>{});
      break;
    case op_kind::min:
      if constexpr (supported<T>(op_kind::min)) return run(dtl::reduce_min<T>{});
      break;
    case op_kind::max:
      if constexpr (supported<T>(op_kind::max)) return run(dtl::reduce_max<T>{});
      break;
    case op_kind::functor:
      if constexpr (supported<T>(op_kind::functor)) return run(add_functor{});
      break;
    case op_kind::device_lambda:
      if constexpr (supported<T>(op_kind::device_lambda)) return run([] __device__(T a, T b) { return a + b; });
      break;
    case op_kind::host_device_lambda:
      if constexpr (supported<T>(op_kind::host_device_lambda)) {
        return run([] __host__ __device__(const T& a, const T& b) { return a < b ? b : a; });
      }
      break;
  }
  return dtl::status(dtl::status_code::not_supported, "this op_kind is not instantiated for this type");
}

}  // namespace prim_test
