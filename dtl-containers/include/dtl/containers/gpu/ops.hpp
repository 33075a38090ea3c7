// SPDX-License-Identifier: MIT
#pragma once
// How the device primitives call user operators.
// - std::plus and std::multiplies have constexpr host call operators, which nvcc refuses in device
//   code without --expt-relaxed-constexpr: they are replaced by device-callable equivalents, so that
//   users need no such flag.
// - CUB and rocPRIM deduce the type of an operator's result in host code, where nvcc cannot see the
//   return type of a __device__ lambda: operators given to them are wrapped in returning<R, Op>, which
//   states the type.

#include <dtl/containers/gpu/platform.hpp>
#include <dtl/containers/host_device.hpp>

#include <functional>
#include <type_traits>

namespace dtl::detail::gpu {

template <class T = void>
struct plus {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <>
struct plus<void> {
  template <class A, class B>
  DTL_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const -> decltype(a + b) {
    return a + b;
  }
};

template <class T = void>
struct multiplies {
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a * b; }
};
template <>
struct multiplies<void> {
  template <class A, class B>
  DTL_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const -> decltype(a * b) {
    return a * b;
  }
};

/// Op as the device can call it: std::plus and std::multiplies become plus and multiplies; every
/// other operator stays as it is.
template <class Op>
struct device_callable {
  using type = Op;
};
template <class T>
struct device_callable<std::plus<T>> {
  using type = plus<T>;
};
template <class T>
struct device_callable<std::multiplies<T>> {
  using type = multiplies<T>;
};
template <class Op>
using device_callable_t = typename device_callable<Op>::type;

template <class Op>
device_callable_t<Op> to_device(const Op& op) {
  if constexpr (std::is_same_v<device_callable_t<Op>, Op>) {
    return op;
  } else {
    return {};
  }
}

/// Calls Op and converts its result to R.
template <class R, class Op>
struct returning {
  Op op;

  DTL_DEVICE_EXEC_CHECK_DISABLE
  template <class... Args>
  __host__ __device__ R operator()(const Args&... args) const {
    return static_cast<R>(op(args...));
  }
};

/// `op`, device-callable, with its result converted to R.
template <class R, class Op>
returning<R, device_callable_t<Op>> returns(const Op& op) {
  return {gpu::to_device(op)};
}

}  // namespace dtl::detail::gpu
