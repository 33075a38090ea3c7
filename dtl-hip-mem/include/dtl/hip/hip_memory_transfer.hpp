// SPDX-License-Identifier: MIT
#pragma once
// hip_memory_transfer: copies between host and device memory (hipMemcpy / hipMemcpyAsync, and staged
// copies for pageable host memory).
//
//   using dtl::hip::hip_memory_transfer;
//   DTL_TRY(hip_memory_transfer::copy(d_ptr, h_ptr, n, dtl::hip::transfer_kind::host_to_device));
//   DTL_TRY(hip_memory_transfer::copy_async(h_ptr, d_ptr, n, dtl::hip::transfer_kind::device_to_host, stream));
//
// Checks, before HIP sees anything (each is a status, never a crash):
//   - a null dst or src, 0 bytes, overlapping ranges, or an unknown kind: invalid_argument;
//   - a kind that contradicts the pointers: invalid_pointer. Host sides take pageable, pinned or
//     managed memory; device sides take device or managed memory. `automatic` (hipMemcpyDefault)
//     lets the runtime decide and accepts any pair;
//   - no device: backend_not_available.
// Neither call changes the current device.
//
// Synchronisation:
//   copy()        returns when the data is in dst, for every kind. hipMemcpy alone may return while a
//                 copy into device memory is still in flight (host_to_device from pageable memory,
//                 device_to_device), so for those kinds and for automatic copy() also waits for the null
//                 stream. It runs on the null stream, after earlier work there.
//   copy_async()  is ordered on `stream` and returns without waiting in the normal case. Read dst, and
//                 reuse or free src, only after the stream has reached the copy (stream.synchronize(), an event).
//                 With PINNED host memory (hip_pinned_memory_space) the copy is truly asynchronous.
//                 With PAGEABLE host memory the call blocks the host, as the runtime's own pageable copies
//                 do: see "Staged copies". Never rely on a pageable copy overlapping with host work.
//
// Staged copies. A copy between PAGEABLE host memory and device (or managed) memory of at least
// staging().min_bytes goes through pinned chunks that are reused from copy to copy, never allocated per
// call: several host threads copy one chunk while the DMA of the previous one runs (staging_options).
//   host_to_device  copy_async() returns once src has been consumed into the chunks, which may mean
//                   waiting for earlier work on the stream (a chunk is refilled only after its previous
//                   DMA has completed); the last DMAs may still be in flight, ordered on the stream. src
//                   may then be reused; dst is ready once the stream reaches the copy. copy() returns
//                   once the data is in dst.
//   device_to_host  both calls return once dst holds the data (after earlier work on the stream).
// Smaller pageable copies, and copies with staging off, go to the runtime, which stages them itself and
// may block in the same ways. The stream of a staged copy must belong to the current device (or, on
// NVIDIA with CUDA 12.8 or later, to any device): its events are recorded there.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/memory_transfer.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <cstddef>

namespace dtl::hip {

/// dtl::hip::transfer_kind::host_to_device etc., as the HIP guide spells them.
using transfer_kind = dtl::transfer_kind;

/// How copies between pageable host memory and device memory are staged (see "Staged copies" above).
/// The environment variables in parentheses set the values a process starts with.
struct staging_options {
  /// Stage at all; off sends such copies to the runtime as they are (DTL_HIP_STAGING=off).
  bool enabled = true;
  /// Smaller copies go to the runtime as they are (DTL_HIP_STAGING_MIN_BYTES).
  std::size_t min_bytes = std::size_t{1} << 20;
  /// Bytes per pinned chunk, 4 KiB to 1 GiB (DTL_HIP_STAGING_CHUNK_BYTES; sizes may end in K, M or G).
  std::size_t chunk_bytes = std::size_t{16} << 20;
  /// Chunks in flight per copy, 2 to 16: 2 double-buffers, 3 triple-buffers (DTL_HIP_STAGING_CHUNKS).
  unsigned chunks = 4;
  /// Host threads that fill or empty a chunk, the caller included, 1 to 64 (DTL_HIP_STAGING_THREADS;
  /// the default is the hardware threads, at most 16).
  unsigned threads = 1;
};

struct DTL_HIP_MEM_API hip_memory_transfer {
  /// Copies `bytes` from src to dst and returns when they have arrived.
  [[nodiscard]] static result<void> copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind);

  /// Enqueues the copy on `stream` (a hipStream_t or an owning hip_stream converts to stream_ref).
  [[nodiscard]] static result<void> copy_async(void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                                               stream_ref stream);

  /// The staging in force: read from the environment at first use, or set by set_staging().
  [[nodiscard]] static staging_options staging() noexcept;
  /// Sets the staging of later copies (copies in progress finish with the old one). invalid_argument
  /// for a value out of range.
  [[nodiscard]] static status set_staging(const staging_options& options);

  /// The first checks of copy() and copy_async(), on the arguments alone (no device needed): a null dst
  /// or src, 0 bytes, overlapping ranges or an unknown kind is invalid_argument. For callers that must
  /// judge a copy's arguments before their own, as dtl::hip::copy_async does before its stream.
  [[nodiscard]] static status check_arguments(const void* dst, const void* src, std::size_t bytes, transfer_kind kind);
};

static_assert(MemoryTransfer<hip_memory_transfer>);
static_assert(AsyncMemoryTransfer<hip_memory_transfer, stream_ref>);
static_assert(AsyncMemoryTransfer<hip_memory_transfer, hipStream_t>);

}  // namespace dtl::hip
