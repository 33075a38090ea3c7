// SPDX-License-Identifier: MIT
#pragma once
// An N-d stencil over a box, on the host (grid_tensor's stencil_transform calls it with its allocations).
// Not for users.

#include <dtl/containers/grid_decomposition.hpp>
#include <dtl/containers/stencil_accessor.hpp>

#include <cstddef>

namespace dtl::detail {

/// out(p) = op(s) for every p of a box of `extents`, where s is the stencil_accessor of in(p); `in` and `out`
/// point at the box's first element in row-major allocations of `in_strides` and `out_strides`, and the box
/// with its stencil's reach lies inside them (unchecked). `out` must not overlap `in`: the neighbours are
/// read while the box is written.
template <class T, class U, std::size_t N, class Op>
void nd_stencil_host(const T* in, const nd_extent<N>& in_strides, U* out, const nd_extent<N>& out_strides,
                     const nd_extent<N>& extents, Op& op) {
  for_each_row(extents, [&](const nd_extent<N>& at, std::size_t run) {
    std::size_t from = 0, to = 0;
    for (std::size_t d = 0; d + 1 < N; ++d) {
      from += at[d] * in_strides[d];
      to += at[d] * out_strides[d];
    }
    for (std::size_t i = 0; i < run; ++i)
      out[to + i * out_strides[N - 1]] =
          static_cast<U>(op(stencil_accessor<const T, N>(in + from + i * in_strides[N - 1], in_strides)));
  });
}

/// The same over a box of one padded allocation layout, shared by `in` and `out` (allocations of `padded`).
template <class T, class U, std::size_t N, class Op>
void nd_stencil_host(const nd_extent<N>& padded, const nd_box<N>& box, const T* in, U* out, Op& op) {
  const nd_extent<N> strides = row_major_strides(padded);
  std::size_t first = 0;
  for (std::size_t d = 0; d < N; ++d) first += box.offset[d] * strides[d];
  nd_stencil_host(in + first, strides, out + first, strides, box.extents, op);
}

}  // namespace dtl::detail
