// SPDX-License-Identifier: MIT
#pragma once
// The device bodies of the element-wise algorithms (algorithms/modify.hpp): fill, copy, iota, for_each,
// for_each_indexed, transform. Not for users. fill and copy run under any compiler (the library has
// their kernels); the others need the kernel compiler (algorithms/device/support.hpp).

#include <dtl/containers/algorithms/device/support.hpp>

#include <cstddef>

namespace dtl::detail::device {

#if DTL_CONTAINERS_HAS_HIP
// --- any compiler ---

template <class Policy, class T>
auto fill(const Policy& policy, const context& ctx, int device, T* data, std::size_t n, const T& value) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    return fill_pattern(data, n, &value, sizeof(T), s);
  });
}

/// `one_device`: both vectors are memory of `device` (a small copy then runs as a kernel).
template <class Policy, class T>
auto copy(const Policy& policy, const context& ctx, int device, const T* in, T* out, std::size_t n, transfer_kind kind,
          bool one_device) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    if (n == 0) return {};
    if (one_device && kind == transfer_kind::device_to_device && n * sizeof(T) < small_copy_bytes)
      return copy_device_bytes(out, in, n * sizeof(T), s);
    return hip::hip_memory_transfer::copy_async(out, in, n * sizeof(T), kind, hip::stream_ref(s)).error();
  });
}
#endif

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

template <class Policy, class T>
auto iota(const Policy& policy, const context& ctx, int device, T* data, std::size_t n, const T& first) {
  return run_on_lane(policy, ctx, device,
                     [&](hipStream_t s, gpu::device_scratch&) { return gpu::iota(data, n, first, s); });
}

template <class Policy, class T, class F>
auto for_each(const Policy& policy, const context& ctx, int device, T* data, std::size_t n, F f) {
  return run_on_lane(policy, ctx, device,
                     [&](hipStream_t s, gpu::device_scratch&) { return gpu::for_each(data, n, f, s); });
}

template <class Policy, class T, class F>
auto for_each_indexed(const Policy& policy, const context& ctx, int device, T* data, std::size_t n,
                      std::size_t first_index, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) {
    return gpu::for_each_indexed(data, n, first_index, f, s);
  });
}

template <class Policy, class In, class Out, class F>
auto transform(const Policy& policy, const context& ctx, int device, const In* in, Out* out, std::size_t n, F f) {
  return run_on_lane(policy, ctx, device,
                     [&](hipStream_t s, gpu::device_scratch&) { return gpu::transform(in, out, n, f, s); });
}

template <class Policy, class A, class B, class Out, class F>
auto transform2(const Policy& policy, const context& ctx, int device, const A* a, const B* b, Out* out, std::size_t n,
                F f) {
  return run_on_lane(policy, ctx, device,
                     [&](hipStream_t s, gpu::device_scratch&) { return gpu::transform(a, b, out, n, f, s); });
}

#else  // no kernel compiler: say so where it matters, at compile time

#define DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(name)                                                         \
  template <class... Args>                                                                                 \
  auto name(Args&&...) {                                                                                   \
    static_assert(needs_kernel_compiler_v<Args...>,                                                        \
                  "dtl::" #name                                                                            \
                  " on a device placement launches kernels for your function: compile this file "          \
                  "with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)"); \
    return result<void>();                                                                                 \
  }
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(iota)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(for_each)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(for_each_indexed)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(transform)
DTL_CONTAINERS_NEEDS_KERNEL_COMPILER(transform2)
#undef DTL_CONTAINERS_NEEDS_KERNEL_COMPILER

#if !DTL_CONTAINERS_HAS_HIP
template <class... Args>
auto fill(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>, "device placements need DTL built with HIP");
  return result<void>();
}
template <class... Args>
auto copy(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>, "device placements need DTL built with HIP");
  return result<void>();
}
#endif

#endif

}  // namespace dtl::detail::device
