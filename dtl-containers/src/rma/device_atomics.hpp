// SPDX-License-Identifier: MIT
#pragma once
// Private: memory_window's atomics on device memory (device_rma_hip.cpp), as kernels on this rank's
// device over a target it reaches (its own block, or another rank's mapped through IPC). Every element
// is combined by one compare-and-swap loop on the aligned word that holds it, with system scope, so that
// ranks on other GPUs of the node that map the same block stay atomic with each other.

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/core/result.hpp>

#include <hip/hip_runtime.h>

#include <cstddef>

namespace dtl::detail::device_atomics {

/// target[i] = target[i] op origin[i] for i < count, each atomically; fetched[i] (when not null) gets
/// the element that was there. The arguments are checked by the caller (epoch_window.cpp: a bitwise op on
/// floating point never arrives here). Every pointer is device-reachable, the target aligned to its element;
/// enqueued on `stream` (the device current).
[[nodiscard]] status accumulate(void* target, const void* origin, void* fetched, std::size_t count, rma_datatype type,
                                rma_reduce_op op, hipStream_t stream);

/// fetched = *target; *target = origin if it equalled compare (bitwise), atomically. One element of
/// `type` (1, 2, 4 or 8 bytes); pointers as above.
[[nodiscard]] status compare_and_swap(void* target, const void* origin, const void* compare, void* fetched,
                                      rma_datatype type, hipStream_t stream);

}  // namespace dtl::detail::device_atomics
