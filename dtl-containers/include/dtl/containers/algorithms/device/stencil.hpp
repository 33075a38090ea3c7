// SPDX-License-Identifier: MIT
#pragma once
// The device bodies of stencil_transform (algorithms/stencil.hpp): one kernel over the range of a vector,
// or over a box of a grid_tensor (threads along the last dimension, blocks over its rows). Not for users. Kernel
// compiler only (algorithms/device/support.hpp); elsewhere it is declared only to explain that at compile time.

#include <dtl/containers/algorithms/device/support.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/containers/stencil_accessor.hpp>

#include <cstddef>
#include <cstdint>

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

/// One N-d box: out(p) = f(s) for each p of the box, where s is the stencil_accessor of in(p). `in` and `out`
/// point at the box's first element in their allocations. Threads run along the last dimension (coalesced);
/// the blocks of grid.y take the rows (the box's other dimensions), so a row's position is found once per
/// thread and row, in Idx arithmetic (32-bit where it fits: a 64-bit division costs several times more).
/// Measured at 512^3: 0.99 of a hand-written kernel (H200); a grid that follows the box (no division)
/// measured 0.81, and the same capped to a few blocks per multiprocessor 0.55 (H100).
///
/// N sizes as a kernel argument (std::array's members are host functions).
template <std::size_t N>
struct kernel_sizes {
  std::size_t v[N];
  explicit kernel_sizes(const nd_extent<N>& e) noexcept {
    for (std::size_t d = 0; d < N; ++d) v[d] = e[d];
  }
  __device__ std::size_t operator[](std::size_t d) const { return v[d]; }
};

template <class Idx, class T, class U, std::size_t N, class F>
__global__ void __launch_bounds__(gpu::block_size)
    grid_stencil_kernel(const T* in, U* out, kernel_sizes<N> box, kernel_sizes<N> in_strides,
                        kernel_sizes<N> out_strides, Idx rows, F f) {
  const std::size_t x = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= box[N - 1]) return;
  // The last stride as the literal 1 lets the compiler fold the accessor's offsets (s(0, 0, 1) is in + 1):
  // 0.92 -> 0.99 of a hand-written kernel at 512^3 on an H200.
  std::size_t strides[N];
  for (std::size_t d = 0; d + 1 < N; ++d) strides[d] = in_strides[d];
  strides[N - 1] = 1;
  for (Idx row = blockIdx.y; row < rows; row += gridDim.y) {
    std::size_t pi = x, po = x;
    Idx rest = row;
    for (std::size_t d = N - 1; d-- > 1;) {
      const Idx e = static_cast<Idx>(box[d]);
      const Idx at = rest % e;
      rest /= e;
      pi += static_cast<std::size_t>(at) * in_strides[d];
      po += static_cast<std::size_t>(at) * out_strides[d];
    }
    if constexpr (N > 1) {  // what is left is the first dimension's position (row < rows bounds it)
      pi += static_cast<std::size_t>(rest) * in_strides[0];
      po += static_cast<std::size_t>(rest) * out_strides[0];
    }
    out[po] = static_cast<U>(f(stencil_accessor<const T, N>(in + pi, strides)));
  }
}

/// `in` and `out` are row-major allocations (a grid_tensor's padded block): their last strides are 1.
template <class Policy, class T, class U, std::size_t N, class F>
auto grid_stencil(const Policy& policy, const context& ctx, int device, const T* in, const nd_extent<N>& in_strides,
                  U* out, const nd_extent<N>& out_strides, const nd_extent<N>& box, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    if (in_strides[N - 1] != 1 || out_strides[N - 1] != 1)
      return status(status_code::invalid_argument, "device stencil_transform: the last dimension is not contiguous");
    const std::size_t rows = extents_size(box) / (box[N - 1] == 0 ? 1 : box[N - 1]);
    if (extents_size(box) == 0) return {};
    const dim3 blocks(static_cast<unsigned>((box[N - 1] + gpu::block_size - 1) / gpu::block_size),
                      static_cast<unsigned>(rows < 65535 ? rows : 65535));
    const auto fd = gpu::to_device(f);
    const kernel_sizes<N> b(box), is(in_strides), os(out_strides);
    if (rows <= 0xffffffffu)
      grid_stencil_kernel<std::uint32_t, T, U, N, decltype(fd)>
          <<<blocks, gpu::block_size, 0, s>>>(in, out, b, is, os, static_cast<std::uint32_t>(rows), fd);
    else
      grid_stencil_kernel<std::size_t, T, U, N, decltype(fd)>
          <<<blocks, gpu::block_size, 0, s>>>(in, out, b, is, os, rows, fd);
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
