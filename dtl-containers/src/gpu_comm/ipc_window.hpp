// SPDX-License-Identifier: MIT
#pragma once
// Private: the window of a device block (global_view on device placements). Ranks on this node reach
// each other's blocks through HIP IPC: a copy on the caller's stream, without the owner taking part.
// Ranks elsewhere go through `remote`, an MPI window on the device blocks (GPU-aware MPI only), or are
// refused. ipc_window_hip.cpp implements it; ipc_window_none.cpp (builds without HIP) refuses.

#include "gpu_comm/device_support.hpp"
#include "transport/backend.hpp"

#include <dtl/containers/communication/detail/window.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dtl::detail::ipc_window {

/// The window of device blocks: get/put (window), and the device address of a rank's bytes for work
/// this rank runs on its own device (memory_window's atomics on device memory).
class block_window : public window {
 public:
  /// Where this rank's device reaches bytes [offset, offset + bytes) of `owner`'s block (mapped through
  /// IPC, or its own block); invalid_rank, out_of_range, or not_supported saying why it is out of reach.
  [[nodiscard]] virtual result<std::byte*> reach(int owner, std::size_t offset, std::size_t bytes) = 0;
  /// The bytes each rank exposes, by rank, as gathered when the window was opened.
  [[nodiscard]] virtual std::vector<std::uint64_t> extents() const = 0;
};

/// Exposes device memory [base, base + bytes) of `device` (collective over `comm`: one allgather of each
/// rank's IPC handle and GPU). `node_leader` is this rank's (context_services.hpp: equal on the ranks of a
/// node), so that the ranks this one reaches are those of its node. Only
/// the allgather can fail it; what keeps one rank's block out of IPC's reach (another node, memory IPC
/// cannot share, GPUs that are not peers) becomes that rank's route: `remote` when there is one, else
/// not_supported saying why (`no_remote` says why there is no `remote`). The window is released
/// collectively, before any rank's block is freed.
[[nodiscard]] result<std::shared_ptr<block_window>> open(comm_backend& comm, device_resources& resources, int device,
                                                         void* base, std::size_t bytes, int node_leader,
                                                         std::shared_ptr<window> remote, std::string no_remote);

}  // namespace dtl::detail::ipc_window
