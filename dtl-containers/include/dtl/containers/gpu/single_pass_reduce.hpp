// SPDX-License-Identifier: MIT
#pragma once
// A reduction in one kernel, for the reductions whose value the host waits for (dot, reduce, count,
// ...): at 2^16 elements, a vendor reduce's two kernels and the copy of its result cost more than the
// reduction. Each block folds its part (a grid-stride loop, then a tree in shared memory) and leaves a
// partial; the last block to finish (a ticket from the scratch's counter) folds the partials in block
// order and writes the result wherever `out` points: device memory, or pinned host memory the device
// can write (then no copy follows). The order of the fold is fixed by n and the grid, so the same call
// gives the same bits every time. For trivially copyable values of up to 64 bytes; others take the
// vendor reduce (primitives.hpp). Kernel compiler only.

#include <dtl/containers/gpu/kernels.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#include <dtl/containers/gpu/strided_fold.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <cstddef>
#include <type_traits>

namespace dtl::detail::gpu {

template <class T>
inline constexpr bool single_pass_reducible_v = std::is_trivially_copyable_v<T> && sizeof(T) <= 64;

namespace single_pass_detail {

/// Room for one T, without constructing it (shared memory takes no constructors).
template <class T>
struct alignas(T) storage_for {
  unsigned char bytes[sizeof(T)];
};

/// A partial another block wrote, read past this multiprocessor's cache.
template <class T>
__device__ T load_published(const T* p) {
  T value;
  const volatile unsigned char* from = reinterpret_cast<const volatile unsigned char*>(p);
  unsigned char* to = reinterpret_cast<unsigned char*>(&value);
  for (std::size_t b = 0; b < sizeof(T); ++b) to[b] = from[b];
  return value;
}

/// The fold of the block's (value, present) pairs, in thread order pairwise; thread 0 gets the result.
template <class T, class Op>
__device__ bool fold_block(T& value, bool present, Op op, T* values, bool* presents) {
  const unsigned t = threadIdx.x;
  values[t] = value;
  presents[t] = present;
  __syncthreads();
  for (unsigned half = block_size / 2; half > 0; half /= 2) {
    if (t < half && presents[t + half]) {
      values[t] = presents[t] ? op(values[t], values[t + half]) : values[t + half];
      presents[t] = true;
    }
    __syncthreads();
  }
  value = values[0];
  return presents[0];
}

/// One thread's part of a reduction over indices: strided_fold of index_op from its first index. A
/// part returns whether the thread had any element.
template <class T, class ReduceOp, class IndexOp>
struct strided_part {
  std::size_t n;
  ReduceOp reduce_op;
  IndexOp index_op;
  __device__ bool operator()(std::size_t thread, std::size_t threads, T& acc) const {
    if (thread >= n) return false;
    acc = strided_fold<T>(thread, n, threads, reduce_op, index_op);
    return true;
  }
};

/// Every thread's part(thread, threads, acc), folded per block, then by the last block to finish.
/// Every block must hold an element (the launch's grid says so).
template <class T, class ReduceOp, class Part>
__global__ void __launch_bounds__(block_size)
    reduce_kernel(T init, ReduceOp reduce_op, Part part, T* partials, unsigned* tickets, T* out) {
  __shared__ storage_for<T> value_storage[block_size];  // raw: T may have a constructor
  __shared__ bool presents[block_size];
  __shared__ bool last;
  T* values = reinterpret_cast<T*>(value_storage);
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  T acc{};
  const bool present = part(thread, threads, acc);
  fold_block(acc, present, reduce_op, values, presents);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = acc;
    __threadfence();  // the partial is visible before the ticket says so
    last = atomicAdd(tickets, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  T mine{};
  bool has = false;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
    const T p = load_published(partials + b);
    mine = has ? reduce_op(mine, p) : p;
    has = true;
  }
  fold_block(mine, has, reduce_op, values, presents);
  if (threadIdx.x == 0) {
    *out = reduce_op(init, mine);
    *tickets = 0;  // for the next reduction on this scratch's stream
  }
}

}  // namespace single_pass_detail

/// The reduction of every thread's part on `grid` blocks, in one kernel on `stream`, into `out`: device
/// memory, or host memory the device can write (pinned, through its device address). The partials take
/// the scratch's temporary storage.
template <class T, class ReduceOp, class Part>
[[nodiscard]] status reduce_parts(unsigned grid, const T& init, ReduceOp reduce_op, const Part& part, T* out,
                                  device_scratch& scratch, hipStream_t stream, const char* what) {
  static_assert(single_pass_reducible_v<T>);
  DTL_ASSIGN_OR_RETURN(unsigned* tickets, scratch.ticket_counter());
  DTL_ASSIGN_OR_RETURN(void* partials, scratch.reserve(grid * sizeof(T)));
  single_pass_detail::reduce_kernel<T, ReduceOp, Part>
      <<<grid, block_size, 0, stream>>>(init, reduce_op, part, static_cast<T*>(partials), tickets, out);
  return launch_status(what);
}

/// *out = reduce_op-fold of init and index_op(i) for i in [0, n), n > 0, in one kernel on `stream`.
template <class T, class ReduceOp, class IndexOp>
[[nodiscard]] status single_pass_reduce(std::size_t n, const T& init, ReduceOp reduce_op, IndexOp index_op, T* out,
                                        device_scratch& scratch, hipStream_t stream, const char* what) {
  DTL_ASSIGN_OR_RETURN(const unsigned resident, resident_blocks());
  return reduce_parts(grid_for(n, resident), init, reduce_op,
                      single_pass_detail::strided_part<T, ReduceOp, IndexOp>{n, reduce_op, index_op}, out, scratch,
                      stream, what);
}

}  // namespace dtl::detail::gpu
