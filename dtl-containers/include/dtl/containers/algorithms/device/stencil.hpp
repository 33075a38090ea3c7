// SPDX-License-Identifier: MIT
#pragma once
// The device bodies of stencil_transform (algorithms/stencil.hpp): one kernel over the range of a vector,
// or over a box of a grid_tensor (along its rows where they are long, else a grid-stride loop over its
// cells). Not for users. Kernel compiler only (algorithms/device/support.hpp); elsewhere it is declared
// only to explain that at compile time.

#include <dtl/containers/algorithms/device/grid.hpp>
#include <dtl/containers/algorithms/device/support.hpp>
#include <dtl/containers/detail/index_divisor.hpp>
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
/// stride 1). Two kernels, each where it measured best in the library on an H100 (docs/benchmarks.md,
/// "grid_tensor"):
/// - rows of at least 1024 cells: threads along the rows (coalesced), 4 cells a thread a block apart, the
///   blocks of grid.y over the rows, each row's start found once with index_divisor. 2-D 16384^2: 0.984 of
///   the vector's kernel, where the other gave 0.974;
/// - shorter rows: a grid-stride loop over the cells on up to 128 blocks per resident block (a few cells a
///   thread), each cell's position found with index_divisor (owned_elements). 3-D 512^3: 0.965 of a
///   hand-written kernel, where the rows kernel (1 cell a thread) gave 0.946.
template <std::size_t N>
struct kernel_sizes {  // N sizes as a kernel argument (std::array's members are host functions)
  std::size_t v[N];
  explicit kernel_sizes(const nd_extent<N>& e) noexcept {
    for (std::size_t d = 0; d < N; ++d) v[d] = e[d];
  }
  __device__ std::size_t operator[](std::size_t d) const { return v[d]; }
};

/// The rows kernel's cells a thread, and the shortest row it takes (above).
inline constexpr unsigned row_cells = 4;
inline constexpr std::size_t long_row = std::size_t{row_cells} * gpu::block_size;

/// The box's rows: how many (row + gridDim.y stays in 32 bits), how long, and a row's first cell in `in`
/// and `out`.
template <std::size_t N>
struct box_rows {
  std::uint32_t count = 0;
  std::size_t length = 0;      // the box's last extent
  index_divisor extents[N]{};  // the box's extents but the last (that one unused: 1)
  std::size_t in_strides[N]{}, out_strides[N]{};

  __device__ void start(std::uint32_t row, std::size_t& in_at, std::size_t& out_at) const {
    in_at = 0;
    out_at = 0;
    for (std::size_t d = N - 1; d-- > 1;) {
      const std::uint32_t q = extents[d].divide(row);
      const std::size_t at = row - q * extents[d].divisor();
      row = q;
      in_at += at * in_strides[d];
      out_at += at * out_strides[d];
    }
    if constexpr (N > 1) {  // what is left is the first coordinate (row < count bounds it)
      in_at += static_cast<std::size_t>(row) * in_strides[0];
      out_at += static_cast<std::size_t>(row) * out_strides[0];
    }
  }
};

template <class T, class U, std::size_t N, class F>
__global__ void __launch_bounds__(gpu::block_size)
    grid_stencil_rows_kernel(const T* in, U* out, box_rows<N> rows, F f) {
  // The last stride as the literal 1 lets the compiler fold the accessor's offsets (s(0, 0, 1) is in + 1):
  // 0.92 -> 0.99 of a hand-written 3-D kernel.
  std::size_t strides[N];
  for (std::size_t d = 0; d + 1 < N; ++d) strides[d] = rows.in_strides[d];
  strides[N - 1] = 1;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * long_row + threadIdx.x;
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * long_row;
  for (std::uint32_t row = blockIdx.y; row < rows.count; row += gridDim.y) {
    std::size_t pi = 0, po = 0;
    rows.start(row, pi, po);
    for (std::size_t x0 = first; x0 < rows.length; x0 += step) {
#pragma unroll
      for (unsigned k = 0; k < row_cells; ++k) {
        const std::size_t x = x0 + std::size_t{k} * gpu::block_size;
        if (x < rows.length) out[po + x] = static_cast<U>(f(stencil_accessor<const T, N>(in + pi + x, strides)));
      }
    }
  }
}

template <class T, class U, std::size_t N, class F>
status launch_grid_stencil_rows(hipStream_t s, const T* in, U* out, const box_rows<N>& rows, F f) {
  constexpr std::size_t most_x = 0x7fffffff, most_y = 65535;  // the launch's limits; the kernel strides past them
  const std::size_t x = (rows.length + long_row - 1) / long_row;
  const dim3 grid(static_cast<unsigned>(x < most_x ? x : most_x),
                  static_cast<unsigned>(rows.count < most_y ? rows.count : most_y));
  grid_stencil_rows_kernel<<<grid, gpu::block_size, 0, s>>>(in, out, rows, f);
  return gpu::launch_status("device stencil_transform kernel launch (grid_tensor)");
}

template <class T, class U, std::size_t N, class F>
__global__ void __launch_bounds__(gpu::block_size)
    grid_stencil_kernel(owned_elements<const T, N> in, U* out, kernel_sizes<N> out_strides, F f) {
  // The literal last stride, as in the rows kernel.
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
    std::size_t rows = 1;
    for (std::size_t d = 0; d + 1 < N; ++d) rows *= box[d];
    if (rows == 0 || box[N - 1] == 0) return {};
    if (box[N - 1] >= long_row && rows <= INT32_MAX) {
      box_rows<N> r;
      r.count = static_cast<std::uint32_t>(rows);
      r.length = box[N - 1];
      for (std::size_t d = 0; d < N; ++d) {
        r.extents[d] = index_divisor(d + 1 < N ? static_cast<std::uint32_t>(box[d]) : 1);  // box[d] <= rows
        r.in_strides[d] = in_strides[d];
        r.out_strides[d] = out_strides[d];
      }
      return launch_grid_stencil_rows(s, in, out, r, gpu::to_device(f));
    }
    owned_elements<const T, N> cells;  // short rows (or over 2^31 of them: owned_elements' 64-bit positions)
    cells.set(in, box.data(), in_strides.data());
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
