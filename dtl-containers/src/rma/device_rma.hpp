// SPDX-License-Identifier: MIT
#pragma once
// Private: memory_window over device memory (memory_window.cpp makes it for a context whose ranks all
// pass device memory). The data moves through the IPC window of device blocks (gpu_comm/ipc_window.hpp):
// a put or get is a copy on this rank's stream, finished before it returns, and an accumulate a kernel of
// atomics on the mapped target (device_atomics.hpp). The epochs (fence, locks, flushes) are those of a
// small MPI window beside it, so that MPI's rules order the accesses: an exclusive lock excludes, a
// fence separates. Ranks this rank cannot reach through IPC (another node) are refused, saying why.
// device_rma_hip.cpp implements it; device_rma_none.cpp (builds without HIP) refuses.

#include "transport/rma_window.hpp"

#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>

namespace dtl::detail {

struct context_state;
struct device_lane;

namespace device_rma {

/// This rank's part before the ranks agree to open: its lane of `device` (whose stream and scratch run
/// the atomics), or why it has none.
[[nodiscard]] result<std::shared_ptr<device_lane>> prepare(context_state& state, int device);

/// Exposes device memory [base, base + bytes) of `device` (collective over the context's ranks, once they
/// agreed; `node_leader` is this rank's, context_services.hpp). The context keeps track of the mappings: its
/// end closes them.
[[nodiscard]] result<std::unique_ptr<rma_window>> open(context_state& state, int node_leader, int device, void* base,
                                                       std::size_t bytes, std::shared_ptr<device_lane> lane);

}  // namespace device_rma
}  // namespace dtl::detail
