// SPDX-License-Identifier: MIT
#pragma once
// One thread's part of a grid-stride reduction (single_pass_reduce.hpp): the fold of index_op(i),
// index_op(i + stride), ... below n, in that order. Small values are read four strides at a time before
// they are folded, so that each thread has four loads in flight: with one, a reduction of 4-byte values
// reached 0.75 of CUB's bandwidth at 1 GiB (H100). The order of the fold, and so every bit of the result,
// is the same as the one-at-a-time loop's. Plain C++ as well, so the host tests check the loop.

#include <dtl/containers/host_device.hpp>

#include <cstddef>

namespace dtl::detail::gpu {

/// Values up to this size are read four at a time (larger ones would take too many registers).
inline constexpr std::size_t strided_fold_batch_max_bytes = 16;

/// index_op(i) folded with reduce_op over i, i + stride, ... < n. Requires i < n and stride > 0.
template <class T, class ReduceOp, class IndexOp>
DTL_HOST_DEVICE T strided_fold(std::size_t i, std::size_t n, std::size_t stride, ReduceOp reduce_op, IndexOp index_op) {
  T acc = index_op(i);
  if constexpr (sizeof(T) <= strided_fold_batch_max_bytes) {
    // While the next four indices (i + stride ... i + 4 * stride) are all below n; i < n, so no overflow.
    while (n - i > 4 * stride) {
      const T a = index_op(i + stride);
      const T b = index_op(i + 2 * stride);
      const T c = index_op(i + 3 * stride);
      const T d = index_op(i + 4 * stride);
      acc = reduce_op(acc, a);  // one at a time, as below: each result becomes a T
      acc = reduce_op(acc, b);
      acc = reduce_op(acc, c);
      acc = reduce_op(acc, d);
      i += 4 * stride;
    }
  }
  while (n - i > stride) {  // i + stride < n, without i + stride wrapping past the top of size_t
    i += stride;
    acc = reduce_op(acc, index_op(i));
  }
  return acc;
}

}  // namespace dtl::detail::gpu
