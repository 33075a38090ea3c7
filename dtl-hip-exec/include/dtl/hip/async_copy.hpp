// SPDX-License-Identifier: MIT
#pragma once
// copy_async with a future: hip_memory_transfer::copy_async on a stream, plus a future that completes
// when the copy has finished (or fails with the device's error).
//
//   auto done = dtl::hip::copy_async(h_ptr, d_ptr, n, dtl::hip::transfer_kind::device_to_host, stream);
//   DTL_TRY(done.get_result(std::chrono::seconds(10)));   // h_ptr now holds the data
//
// The argument checks and the pageable/pinned caveats are hip_memory_transfer's: with pageable host
// memory the call may block, and dst may be read (src reused) only once the future has completed.

#include <dtl/hip/export_exec.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/event_poller.hpp>

#include <cstddef>

namespace dtl::hip {

/// The copy, ordered on `stream` (with the stream's device current), and its completion as a future.
/// A rejected copy or a moved-from stream gives a future failed with that status; the copy's arguments
/// are judged first (hip_memory_transfer::check_arguments), so a bad argument reads the same with or
/// without a device.
[[nodiscard]] DTL_HIP_EXEC_API future<void> copy_async(void* dst, const void* src, std::size_t bytes,
                                                       transfer_kind kind, const hip_stream& stream,
                                                       event_poller& engine = event_poller::global());

}  // namespace dtl::hip
