// SPDX-License-Identifier: MIT
#pragma once
// An N-d stencil over a box of a padded allocation, on the host (the N-d containers' stencil_transform
// calls it with their own allocations). Not for users.

#include <dtl/containers/grid_decomposition.hpp>
#include <dtl/containers/stencil_accessor.hpp>

#include <cstddef>

namespace dtl::detail {

/// out(p) = op(s) for every p of `box`, where s is the stencil_accessor of in(p); `in` and `out` are
/// row-major allocations of `padded` extents (the same layout), and the box with its stencil's reach lies
/// inside them (unchecked). `out` must not be `in`: the neighbours are read while the box is written.
template <class T, class U, std::size_t N, class Op>
void nd_stencil_host(const nd_extent<N>& padded, const nd_box<N>& box, const T* in, U* out, Op& op) {
  if (box.size() == 0) return;
  const nd_extent<N> strides = row_major_strides(padded);
  nd_extent<N> at{};  // the position over dimensions 0 .. N-2; the last one is the inner loop
  for (;;) {
    std::size_t row = box.offset[N - 1];
    for (std::size_t d = 0; d + 1 < N; ++d) row += (box.offset[d] + at[d]) * strides[d];
    for (std::size_t i = 0; i < box.extents[N - 1]; ++i)
      out[row + i] = static_cast<U>(op(stencil_accessor<const T, N>(in + row + i, strides)));
    std::size_t d = N - 1;
    while (d-- > 0) {
      if (++at[d] < box.extents[d]) break;
      at[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) return;
  }
}

}  // namespace dtl::detail
