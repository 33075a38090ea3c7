// SPDX-License-Identifier: MIT
#pragma once
// The device bodies of stencil_transform (algorithms/stencil.hpp): one kernel over the range of a vector,
// or over a box of a grid_tensor (a grid-stride loop over its cells). Not for users. Kernel compiler
// only (algorithms/device/support.hpp); elsewhere it is declared only to explain that at compile time.

#include <dtl/containers/algorithms/device/grid.hpp>
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
/// point at the box's first element in their allocations, row-major (a grid_tensor's padded blocks: the last
/// stride 1). A grid-stride loop over the box's cells, each cell's coordinates found with index_divisor
/// (owned_elements), on up to 128 blocks per resident block: a few cells per thread. Measured on an H100 in a
/// standalone run of the kernels (docs/benchmarks.md, "grid_tensor"): 0.997 of a hand-written
/// kernel at 512^3 and 1.004 of the vector's kernel at 16384^2, where one resident grid gave 0.84 and 0.86, a
/// block per piece of a row with a 32-bit division per row 0.975 and 0.83, and no index_divisor 0.93 in 2-D.
template <std::size_t N>
struct kernel_sizes {  // N sizes as a kernel argument (std::array's members are host functions)
  std::size_t v[N];
  explicit kernel_sizes(const nd_extent<N>& e) noexcept {
    for (std::size_t d = 0; d < N; ++d) v[d] = e[d];
  }
  __device__ std::size_t operator[](std::size_t d) const { return v[d]; }
};

template <class T, class U, std::size_t N, class F>
__global__ void __launch_bounds__(gpu::block_size)
    grid_stencil_kernel(owned_elements<const T, N> in, U* out, kernel_sizes<N> out_strides, F f) {
  // The last stride as the literal 1 lets the compiler fold the accessor's offsets (s(0, 0, 1) is in + 1):
  // 0.92 -> 0.99 of a hand-written 3-D kernel.
  std::size_t strides[N];
  for (std::size_t d = 0; d + 1 < N; ++d) strides[d] = in.strides[d];
  strides[N - 1] = 1;
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < in.count; i += step) {
    std::size_t at[N];
    in.position(i, at);
    std::size_t pi = at[N - 1], po = at[N - 1];
    for (std::size_t d = 0; d + 1 < N; ++d) {
      pi += at[d] * strides[d];
      po += at[d] * out_strides[d];
    }
    out[po] = static_cast<U>(f(stencil_accessor<const T, N>(in.first + pi, strides)));
  }
}

template <class Policy, class T, class U, std::size_t N, class F>
auto grid_stencil(const Policy& policy, const context& ctx, int device, const T* in, const nd_extent<N>& in_strides,
                  U* out, const nd_extent<N>& out_strides, const nd_extent<N>& box, F f) {
  return run_on_lane(policy, ctx, device, [&](hipStream_t s, gpu::device_scratch&) -> status {
    if (in_strides[N - 1] != 1 || out_strides[N - 1] != 1)
      return status(status_code::invalid_argument, "device stencil_transform: the last dimension is not contiguous");
    owned_elements<const T, N> cells;
    cells.set(in, box.data(), in_strides.data());
    if (cells.count == 0) return {};
    DTL_ASSIGN_OR_RETURN(const unsigned resident, gpu::resident_blocks());
    constexpr unsigned waves = 128;  // blocks per resident block (above)
    const unsigned most = (resident < 0x7fffffffu / waves ? resident : 0x7fffffffu / waves) * waves;  // grid.x < 2^31
    grid_stencil_kernel<T, U, N><<<gpu::grid_for(cells.count, most), gpu::block_size, 0, s>>>(
        cells, out, kernel_sizes<N>(out_strides), gpu::to_device(f));
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
