#pragma once
// hip_memory_transfer: copies between host and device memory (hipMemcpy / hipMemcpyAsync).
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
//                 reuse or free src, only after the stream has reached the copy (stream.wait(), an event).
//                 With PINNED host memory (hip_pinned_memory_space) the copy is truly asynchronous.
//                 With PAGEABLE host memory the runtime stages the data through its own pinned buffers,
//                 and the call may block the host: host_to_device may return only after src has been
//                 consumed into the staging buffer (possibly after waiting for earlier work on the stream),
//                 and device_to_host usually returns only after the copy completed. Both CUDA and ROCm do
//                 this, in platform- and size-dependent ways, so never rely on a pageable copy overlapping
//                 with host work, and never on it being finished without waiting on the stream.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/memory_transfer.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <cstddef>

namespace dtl::hip {

/// dtl::hip::transfer_kind::host_to_device etc., as the HIP guide spells them.
using transfer_kind = dtl::transfer_kind;

struct DTL_HIP_MEM_API hip_memory_transfer {
  /// Copies `bytes` from src to dst and returns when they have arrived.
  [[nodiscard]] static result<void> copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind);

  /// Enqueues the copy on `stream` (a hipStream_t or an owning hip_stream converts to stream_ref).
  [[nodiscard]] static result<void> copy_async(void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                                               stream_ref stream);

  /// The first checks of copy() and copy_async(), on the arguments alone (no device needed): a null dst
  /// or src, 0 bytes, overlapping ranges or an unknown kind is invalid_argument. For callers that must
  /// judge a copy's arguments before their own, as dtl::hip::copy_async does before its stream.
  [[nodiscard]] static status check_arguments(const void* dst, const void* src, std::size_t bytes,
                                              transfer_kind kind);
};

static_assert(MemoryTransfer<hip_memory_transfer>);
static_assert(AsyncMemoryTransfer<hip_memory_transfer, stream_ref>);
static_assert(AsyncMemoryTransfer<hip_memory_transfer, hipStream_t>);

}  // namespace dtl::hip
