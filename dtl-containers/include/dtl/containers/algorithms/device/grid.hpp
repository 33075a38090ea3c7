// SPDX-License-Identifier: MIT
#pragma once
// The element-wise algorithms on grid_tensors (algorithms/detail/grid_forms.hpp): the owned-elements adaptor
// (any compiler) and the device bodies, one kernel each over the owned block (kernel compiler only:
// algorithms/device/support.hpp; elsewhere they are declared only to explain that at compile time). Not for users.

#include <dtl/containers/algorithms/device/reduce.hpp>
#include <dtl/containers/algorithms/device/support.hpp>
#include <dtl/containers/detail/index_divisor.hpp>
#include <dtl/containers/host_device.hpp>

#include <cstddef>
#include <cstdint>

namespace dtl::detail {

/// A grid_tensor's owned block as a sequence: element i (row-major over `extents`) of the allocation whose
/// element (0, ..., 0) of the block is `first` and whose strides are `strides`. Trivially copyable; a
/// kernel takes it by value. Blocks of up to 2^32 elements find a position with `divisors` (a multiply
/// each, not a division: detail/index_divisor.hpp); larger ones with 64-bit division.
template <class T, std::size_t N>
struct owned_elements {
  T* first = nullptr;
  std::size_t count = 0;
  std::size_t extents[N] = {};
  std::size_t strides[N] = {};
  index_divisor divisors[N] = {};  // extents[d] (set where count fits 32 bits)

  /// The block of `first` with `extents` in an allocation with `strides`.
  void set(T* block, const std::size_t* block_extents, const std::size_t* allocation_strides) noexcept {
    first = block;
    count = 1;
    for (std::size_t d = 0; d < N; ++d) {
      extents[d] = block_extents[d];
      strides[d] = allocation_strides[d];
      count *= extents[d];
    }
    if (count <= UINT32_MAX)
      for (std::size_t d = 0; d < N; ++d) divisors[d] = index_divisor(static_cast<std::uint32_t>(extents[d]));
  }

  /// The coordinates of element i in the block (i < count).
  DTL_HOST_DEVICE void position(std::size_t i, std::size_t (&at)[N]) const noexcept {
    if (count <= UINT32_MAX) {
      auto rest = static_cast<std::uint32_t>(i);
      for (std::size_t d = N; d-- > 1;) {
        const std::uint32_t q = divisors[d].divide(rest);
        at[d] = rest - q * divisors[d].divisor();
        rest = q;
      }
      at[0] = rest;  // i < count: what is left is the first coordinate
      return;
    }
    for (std::size_t d = N; d-- > 1;) {
      at[d] = i % extents[d];
      i /= extents[d];
    }
    at[0] = i;
  }
  DTL_HOST_DEVICE T& operator[](std::size_t i) const noexcept {
    std::size_t at[N];
    position(i, at);
    std::size_t offset = 0;
    for (std::size_t d = 0; d < N; ++d) offset += at[d] * strides[d];
    return first[offset];
  }
};

}  // namespace dtl::detail

namespace dtl::detail::device {

/// The copy's function: x as it is.
struct identity_op {
  template <class X>
  DTL_HOST_DEVICE constexpr const X& operator()(const X& x) const noexcept {
    return x;
  }
};

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

template <class T, std::size_t N, class V>
struct grid_fill_body {
  owned_elements<T, N> o;
  V v;
  __device__ void operator()(std::size_t i) const { o[i] = v; }
};
template <class T, std::size_t N, class F>
struct grid_for_each_body {
  owned_elements<T, N> o;
  F f;
  __device__ void operator()(std::size_t i) const { f(o[i]); }
};
template <class A, class U, std::size_t N, class F>
struct grid_transform_body {
  owned_elements<A, N> in;
  owned_elements<U, N> out;
  F f;
  __device__ void operator()(std::size_t i) const { out[i] = static_cast<U>(f(in[i])); }
};
template <class A, class B, class U, std::size_t N, class F>
struct grid_transform2_body {
  owned_elements<A, N> a;
  owned_elements<B, N> b;
  owned_elements<U, N> out;
  F f;
  __device__ void operator()(std::size_t i) const { out[i] = static_cast<U>(f(a[i], b[i])); }
};

/// body(i) for the n owned elements, one kernel on the lane.
template <class Policy, class Body>
auto grid_each(const Policy& policy, const context& ctx, int device, std::size_t n, const Body& body) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    if (n == 0) return {};
    return gpu::launch_each(n, body, s, "device algorithm kernel launch (grid_tensor)");
  });
}

template <class Policy, class T, std::size_t N, class V>
auto grid_fill(const Policy& policy, const context& ctx, int device, const owned_elements<T, N>& o, const V& v) {
  return grid_each(policy, ctx, device, o.count, grid_fill_body<T, N, V>{o, v});
}
template <class Policy, class T, std::size_t N, class F>
auto grid_for_each(const Policy& policy, const context& ctx, int device, const owned_elements<T, N>& o, F f) {
  return grid_each(policy, ctx, device, o.count,
                   grid_for_each_body<T, N, gpu::device_callable_t<F>>{o, gpu::to_device(f)});
}
template <class Policy, class A, class U, std::size_t N, class F>
auto grid_transform(const Policy& policy, const context& ctx, int device, const owned_elements<A, N>& in,
                    const owned_elements<U, N>& out, F f) {
  return grid_each(policy, ctx, device, in.count,
                   grid_transform_body<A, U, N, gpu::device_callable_t<F>>{in, out, gpu::to_device(f)});
}
template <class Policy, class A, class B, class U, std::size_t N, class F>
auto grid_transform2(const Policy& policy, const context& ctx, int device, const owned_elements<A, N>& a,
                     const owned_elements<B, N>& b, const owned_elements<U, N>& out, F f) {
  return grid_each(policy, ctx, device, a.count,
                   grid_transform2_body<A, B, U, N, gpu::device_callable_t<F>>{a, b, out, gpu::to_device(f)});
}

/// f(o[i]) in R, and f(a[i], b[i]).
template <class R, class T, std::size_t N, class F>
struct grid_at {
  owned_elements<T, N> o;
  F f;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __host__ __device__ R operator()(std::size_t i) const { return static_cast<R>(f(o[i])); }
};
template <class R, class A, class B, std::size_t N, class F>
struct grid_pair_at {
  owned_elements<A, N> a;
  owned_elements<B, N> b;
  F f;
  DTL_DEVICE_EXEC_CHECK_DISABLE
  __host__ __device__ R operator()(std::size_t i) const { return static_cast<R>(f(a[i], b[i])); }
};

/// A reduction's source (reduce_source, device/reduce.hpp): one tensor's owned elements, or two tensors'.
template <class T, std::size_t N>
struct grid_source {
  owned_elements<T, N> o;
  template <class R, class Op, class F>
  status fold(const R& init, Op op, F f, R* d_out, gpu::device_scratch& scratch, hipStream_t stream) const {
    using at = grid_at<R, T, N, gpu::device_callable_t<F>>;
    return gpu::transform_reduce_indexed(o.count, init, op, at{o, gpu::to_device(f)}, d_out, scratch, stream);
  }
};
template <class A, class B, std::size_t N>
struct grid_pair_source {
  owned_elements<A, N> a;
  owned_elements<B, N> b;
  template <class R, class Op, class F>
  status fold(const R& init, Op op, F f, R* d_out, gpu::device_scratch& scratch, hipStream_t stream) const {
    using at = grid_pair_at<R, A, B, N, gpu::device_callable_t<F>>;
    return gpu::transform_reduce_indexed(a.count, init, op, at{a, b, gpu::to_device(f)}, d_out, scratch, stream);
  }
};

template <class Policy, class T, std::size_t N, class R, class Op, class F>
auto grid_reduce(const Policy& policy, const context& ctx, int device, const owned_elements<T, N>& o, const R& init,
                 Op op, F f) {
  return reduce_source(policy, ctx, device, grid_source<T, N>{o}, init, op, f, reduce_scope::all, 0);
}
template <class Policy, class A, class B, std::size_t N, class R, class Op, class F>
auto grid_reduce_pairs(const Policy& policy, const context& ctx, int device, const owned_elements<A, N>& a,
                       const owned_elements<B, N>& b, const R& init, Op op, F f) {
  return reduce_source(policy, ctx, device, grid_pair_source<A, B, N>{a, b}, init, op, f, reduce_scope::all, 0);
}

#else  // no kernel compiler: say so where it matters, at compile time

#define DTL_GRID_NEEDS_KERNEL_COMPILER(name)                                                                      \
  template <class... Args>                                                                                        \
  auto name(Args&&...) {                                                                                          \
    static_assert(needs_kernel_compiler_v<Args...>,                                                               \
                  "a dtl algorithm on a device grid_tensor launches a kernel for it: compile this file with the " \
                  "kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");                 \
    return result<void>();                                                                                        \
  }
DTL_GRID_NEEDS_KERNEL_COMPILER(grid_fill)
DTL_GRID_NEEDS_KERNEL_COMPILER(grid_for_each)
DTL_GRID_NEEDS_KERNEL_COMPILER(grid_transform)
DTL_GRID_NEEDS_KERNEL_COMPILER(grid_transform2)
DTL_GRID_NEEDS_KERNEL_COMPILER(grid_reduce)
DTL_GRID_NEEDS_KERNEL_COMPILER(grid_reduce_pairs)
#undef DTL_GRID_NEEDS_KERNEL_COMPILER

#endif

}  // namespace dtl::detail::device
