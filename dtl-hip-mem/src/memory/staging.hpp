// SPDX-License-Identifier: MIT
#pragma once
// Private: copies between pageable host memory and device memory through reused pinned chunks.
//
// The runtime stages a pageable copy through its own pinned buffer with one core, at 9-17 GB/s on a
// PCIe 5 link that moves 55 GB/s from pinned memory. Here each chunk is copied by several cores
// (parallel_copy) into a pinned chunk while the DMA of the previous chunk runs:
//
//   host to device:  memcpy src -> chunk k (host)    | DMA chunk k-1 -> dst (copy engine)
//   device to host:  DMA src -> chunk k+1, k+2 ...   | memcpy chunk k -> dst (host)
//
// A chunk is written by the host only after the event recorded behind its last DMA has completed, so a
// chunk still being read or written by the device is never touched. The chunks (a "slot": `chunks`
// buffers of `chunk_bytes` and their events) are allocated once per device and reused by every copy; a
// copy holds a slot for its duration, and concurrent copies take further slots.

#include <dtl/core/result.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>

namespace dtl::hip::detail {

/// Whether a copy of `bytes` from `src` to `dst` memory is staged: one side pageable host memory, the
/// other device or managed memory, and at least staging_options::min_bytes (staging enabled).
[[nodiscard]] bool should_stage(memory_kind src, memory_kind dst, std::size_t bytes) noexcept;

/// Whether copies of `bytes` may be staged at all (cheap: the transfer checks ask it before they classify
/// the pointers of an `automatic` copy).
[[nodiscard]] bool may_stage(std::size_t bytes) noexcept;

/// Copies through the pinned chunks, ordered on `stream`. Host to device returns once src is consumed
/// (or, with `wait`, once the data has arrived); device to host returns once dst holds the data.
[[nodiscard]] status staged_copy(void* dst, const void* src, std::size_t bytes, bool to_device, hipStream_t stream,
                                 bool wait);

[[nodiscard]] staging_options current_staging() noexcept;
[[nodiscard]] status configure_staging(const staging_options& options);

}  // namespace dtl::hip::detail
