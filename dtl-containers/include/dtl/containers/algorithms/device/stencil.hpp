// SPDX-License-Identifier: MIT
#pragma once
// The device bodies of stencil_transform (algorithms/stencil.hpp): one kernel over the range of a vector,
// or over a box of a grid_tensor (threads along the last dimension, blocks over its rows). Not for users. Kernel
// compiler only (algorithms/device/support.hpp); elsewhere it is declared only to explain that at compile time.

#include <dtl/containers/algorithms/device/support.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/containers/stencil_accessor.hpp>

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

/// N sizes as a kernel argument (std::array's members are host functions).
template <std::size_t N>
struct kernel_sizes {
  std::size_t v[N];
  explicit kernel_sizes(const nd_extent<N>& e) noexcept {
    for (std::size_t d = 0; d < N; ++d) v[d] = e[d];
  }
  __device__ std::size_t operator[](std::size_t d) const { return v[d]; }
};

/// One N-d box: out(p) = f(s) for each p of the box, where s is the stencil_accessor of in(p). `in` and `out`
/// point at the box's first element in their allocations. Threads run along the last dimension (coalesced),
/// grid.y along the one before it and grid.z over the rest (`outer` planes), each striding where the box is
/// larger than the grid may be: no division for N <= 3 (a plane's position is found once per plane for N > 3).
template <class T, class U, std::size_t N, class F>
__global__ void __launch_bounds__(gpu::block_size)
    grid_stencil_kernel(const T* in, U* out, kernel_sizes<N> box, kernel_sizes<N> in_strides,
                        kernel_sizes<N> out_strides, std::size_t outer, F f) {
  const std::size_t x = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= box[N - 1]) return;
  const std::size_t rows = N >= 2 ? box[N >= 2 ? N - 2 : 0] : 1;
  for (std::size_t plane = blockIdx.z; plane < outer; plane += gridDim.z) {
    std::size_t pi = x * in_strides[N - 1], po = x * out_strides[N - 1];
    if constexpr (N >= 3) {
      std::size_t rest = plane;  // over dimensions 0 .. N-3
      for (std::size_t d = N - 2; d-- > 0;) {
        const std::size_t at = d == 0 ? rest : rest % box[d];
        rest = d == 0 ? 0 : rest / box[d];
        pi += at * in_strides[d];
        po += at * out_strides[d];
      }
    }
    for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
      std::size_t ri = pi, ro = po;
      if constexpr (N >= 2) {
        ri += row * in_strides[N - 2];
        ro += row * out_strides[N - 2];
      }
      out[ro] = static_cast<U>(f(stencil_accessor<const T, N>(in + ri, in_strides.v)));
    }
  }
}

template <class Policy, class T, class U, std::size_t N, class F>
auto grid_stencil(const Policy& policy, const context& ctx, int device, const T* in, const nd_extent<N>& in_strides,
                  U* out, const nd_extent<N>& out_strides, const nd_extent<N>& box, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    if (extents_size(box) == 0) return {};
    const std::size_t columns = (box[N - 1] + gpu::block_size - 1) / gpu::block_size;
    const std::size_t rows = N >= 2 ? box[N >= 2 ? N - 2 : 0] : 1;
    std::size_t outer = 1;
    for (std::size_t d = 0; d + 2 < N; ++d) outer *= box[d];
    // One thread a cell, as a hand-written kernel launches (fewer blocks, each thread taking several rows,
    // measured 0.55 of that on an H100: too few loads in flight); the grid's limits stride the rest.
    const std::size_t y = rows < 65535 ? rows : 65535, z = outer < 65535 ? outer : 65535;
    const dim3 blocks(static_cast<unsigned>(columns), static_cast<unsigned>(y), static_cast<unsigned>(z));
    const auto fd = gpu::to_device(f);
    grid_stencil_kernel<T, U, N, decltype(fd)><<<blocks, gpu::block_size, 0, s>>>(
        in, out, kernel_sizes<N>(box), kernel_sizes<N>(in_strides), kernel_sizes<N>(out_strides), outer, fd);
    return gpu::launch_status("device stencil_transform kernel launch (grid_tensor)");
  });
}

#else  // no kernel compiler: say so where it matters, at compile time

template <class... Args>
auto grid_stencil(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::stencil_transform on a device grid_tensor launches a kernel for your function: compile this "
                "file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<void>();
}

template <class... Args>
auto stencil(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::stencil_transform on a device placement launches a kernel for your function: compile this "
                "file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<void>();
}

#endif

}  // namespace dtl::detail::device
