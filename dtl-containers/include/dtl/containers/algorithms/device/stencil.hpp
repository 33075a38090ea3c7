// SPDX-License-Identifier: MIT
#pragma once
// The device body of stencil_transform (algorithms/stencil.hpp): one kernel over the range. Not for
// users. Kernel compiler only (algorithms/device/support.hpp); elsewhere it is declared only to explain
// that at compile time.

#include <dtl/containers/algorithms/device/support.hpp>

#include <cstddef>

namespace dtl::detail::device {

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

template <class T, class U, class F>
struct stencil_body {
  const T* in;
  U* out;
  F f;
  __device__ void operator()(std::size_t i) const { out[i] = static_cast<U>(f(in + i)); }
};

template <class Policy, class T, class U, class F>
auto stencil(const Policy& policy, const context& ctx, int device, const T* in, U* out, std::size_t n, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    if (n == 0) return {};
    return gpu::launch_each(n, stencil_body<T, U, F>{in, out, f}, s, "device stencil_transform kernel launch");
  });
}

#else  // no kernel compiler: say so where it matters, at compile time

template <class... Args>
auto stencil(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::stencil_transform on a device placement launches a kernel for your function: compile this "
                "file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<void>();
}

#endif

}  // namespace dtl::detail::device
