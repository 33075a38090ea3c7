// SPDX-License-Identifier: MIT
#pragma once
// The searches' fold over a block of numbers (find, min_element, max_element; algorithms/device/search.hpp
// says which): each thread reads 16 bytes at a time, several loads in flight, and turns every element x at
// index i into a candidate with of(x, i) (an element with its global index:
// algorithms/detail/indexed_fold.hpp). Over a counting iterator the vendor's reduce reads one element a
// load, and reached 0.93 of its own min over the same bytes on the H200. The fold is the single-pass
// reduction's (single_pass_reduce.hpp); its operation must be associative and commutative, and `none` must
// be its identity (the searches' folds are: ties go to the lowest index, and no_index is absent). Kernel
// compiler only.

#include <dtl/containers/gpu/kernels.hpp>
#include <dtl/containers/gpu/single_pass_reduce.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dtl::detail::gpu {

/// 16-byte loads each thread has in flight before it folds them, and the blocks launched in multiples of
/// those the device holds at once (capped by the work). Not tuned yet: on an H100 these gave 0.965 of CUB's
/// min at 1 GiB of double (docs/benchmarks.md); the other shapes have not run.
inline constexpr int element_fold_loads = 2;
inline constexpr unsigned element_fold_grid = 1;

/// Numbers: the element types whose 16-byte loads the fold splits.
template <class T>
inline constexpr bool element_foldable_v = std::is_arithmetic_v<T> && sizeof(T) <= 8;

namespace element_fold_detail {

/// One thread's part: its 16-byte vectors (`Loads` strides at a time, then one at a time), then, for
/// the first threads, the scalar head (before the first 16-byte boundary) and tail.
template <class T, class C, class ReduceOp, class Of, int Loads>
struct vector_part {
  static constexpr std::size_t per_vector = 16 / sizeof(T);
  const T* data;
  std::size_t n, head, vectors;
  C none;
  ReduceOp reduce_op;
  Of of;

  __device__ void fold_vector(C& acc, const uint4& bits, std::size_t v) const {
    T x[per_vector];
    memcpy(x, &bits, sizeof x);
    const std::size_t first = head + v * per_vector;
    for (std::size_t e = 0; e < per_vector; ++e) acc = reduce_op(acc, of.of(x[e], first + e));
  }

  __device__ bool operator()(std::size_t thread, std::size_t threads, C& acc) const {
    acc = none;
    const uint4* body = reinterpret_cast<const uint4*>(data + head);
    std::size_t v = thread;
    for (; v < vectors && vectors - v > (Loads - 1) * threads; v += Loads * threads) {
      uint4 bits[Loads];
      for (int k = 0; k < Loads; ++k) bits[k] = body[v + k * threads];
      for (int k = 0; k < Loads; ++k) fold_vector(acc, bits[k], v + k * threads);
    }
    for (; v < vectors; v += threads) fold_vector(acc, body[v], v);
    const std::size_t tail = head + vectors * per_vector;  // fewer than per_vector elements follow
    if (thread < head) acc = reduce_op(acc, of.of(data[thread], thread));
    if (thread < n - tail) acc = reduce_op(acc, of.of(data[tail + thread], tail + thread));
    return true;
  }
};

}  // namespace element_fold_detail

/// *out = the fold with reduce_op of none and of.of(data[i], i) for i in [0, n), n > 0, in one kernel on
/// `stream` (`out` as for reduce_parts). `data` needs only T's own alignment.
template <int Loads = element_fold_loads, class T, class C, class ReduceOp, class Of>
[[nodiscard]] status element_fold(const T* data, std::size_t n, const C& none, ReduceOp reduce_op, const Of& of, C* out,
                                  device_scratch& scratch, hipStream_t stream, const char* what,
                                  unsigned grid_multiple = element_fold_grid) {
  static_assert(element_foldable_v<T>);
  constexpr std::size_t per_vector = 16 / sizeof(T);
  const std::size_t to_boundary = (16 - reinterpret_cast<std::uintptr_t>(data) % 16) % 16 / sizeof(T);
  const std::size_t head = to_boundary < n ? to_boundary : n;
  const std::size_t vectors = (n - head) / per_vector;
  DTL_ASSIGN_OR_RETURN(const unsigned resident, resident_blocks());
  // Every block holds a vector, or the one block holds the scalars.
  const unsigned grid = grid_for(vectors, resident * grid_multiple);
  using part = element_fold_detail::vector_part<T, C, ReduceOp, Of, Loads>;
  return reduce_parts(grid, none, reduce_op, part{data, n, head, vectors, none, reduce_op, of}, out, scratch, stream,
                      what);
}

}  // namespace dtl::detail::gpu
