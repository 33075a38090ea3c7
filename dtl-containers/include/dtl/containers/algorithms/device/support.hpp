// SPDX-License-Identifier: MIT
#pragma once
// What the device bodies of the algorithms (algorithms/device/<algorithm>.hpp) share: whether this
// file is compiled by the kernel compiler, the partials folded on the device, and reading a result
// back. Not for users. fill and copy need no kernel of the caller's (the library has them); the other
// algorithms instantiate kernels for the user's functions, so their file must be compiled by the kernel
// compiler (dtl-hip-kc). Elsewhere they are declared only to explain that at compile time.

#include <dtl/containers/config.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/core/memory_transfer.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/containers/algorithms/device/lane_session.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#endif

#if (defined(__HIPCC__) || defined(__CUDACC__)) && DTL_CONTAINERS_HAS_HIP
#define DTL_CONTAINERS_DEVICE_ALGORITHMS 1
#include <dtl/containers/gpu/primitives.hpp>
#else
#define DTL_CONTAINERS_DEVICE_ALGORITHMS 0
#endif

namespace dtl::detail::device {

/// False for every Args: a static_assert on it fires only when a body is instantiated.
template <class...>
inline constexpr bool needs_kernel_compiler_v = false;

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

/// f(x...) as a present partial.
template <class T, class F>
struct maybe_transform {
  F f;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  template <class... X>
  __host__ __device__ maybe<T> operator()(const X&... x) const {
    return maybe<T>{static_cast<T>(f(x...)), 1};
  }
};

/// op as the device folds partials with it (maybe_op: algorithms/detail/support.hpp).
template <class T, class Op>
maybe_op<T, gpu::device_callable_t<Op>> make_maybe_op(const Op& op) {
  return {gpu::to_device(op)};
}

/// Copies `count` Ts from device memory to host memory on `stream` and waits for it.
template <class T>
status read_back(T* host, const T* device_ptr, std::size_t count, hipStream_t stream) {
  DTL_HIP_TRY(hipMemcpyAsync(host, device_ptr, count * sizeof(T), hipMemcpyDeviceToHost, stream));
  DTL_HIP_TRY(hipStreamSynchronize(stream));
  return {};
}

/// init op every present partial, folded on the device (the operator may be device-only).
template <class T, class Op>
result<T> fold_on_device(const std::vector<maybe<T>>& partials, const T& init, const Op& op,
                         gpu::device_scratch& scratch, hipStream_t stream) {
  std::vector<maybe<T>> items;
  items.reserve(partials.size() + 1);
  items.push_back(maybe<T>{init, 1});
  items.insert(items.end(), partials.begin(), partials.end());
  DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(maybe<T>) * (items.size() + 1)));
  auto* d_out = static_cast<maybe<T>*>(slot);
  maybe<T>* d_items = d_out + 1;
  DTL_HIP_TRY(hipMemcpyAsync(d_items, items.data(), items.size() * sizeof(maybe<T>), hipMemcpyHostToDevice, stream));
  DTL_TRY(gpu::reduce(d_items, items.size(), maybe<T>{T{}, 0}, make_maybe_op<T>(op), d_out, scratch, stream));
  maybe<T> out{};
  DTL_TRY(read_back(&out, d_out, 1, stream));
  return out.value;
}

#endif

}  // namespace dtl::detail::device
