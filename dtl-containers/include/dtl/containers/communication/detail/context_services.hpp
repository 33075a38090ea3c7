// SPDX-License-Identifier: MIT
#pragma once
// What containers need from a context beyond its public API. Not for users.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/window.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace dtl::detail {

/// Exposes [base, base + bytes) of this rank to one-sided access by the others (collective). When the
/// context's environment ends first, the window is freed then, and later accesses return invalid_state.
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<window>> open_window(const context& ctx, void* base,
                                                                             std::size_t bytes);

/// open_window for device memory of `device` (collective): ranks on this node reach each other's regions
/// through HIP IPC, a copy on the caller's stream; the others through an MPI window where MPI is
/// GPU-aware, else not_supported, saying why (src/gpu_comm/ipc_window.hpp).
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<window>> open_device_window(const context& ctx, int device,
                                                                                    void* base, std::size_t bytes);

/// The lowest rank of `ctx` on this rank's node: equal on the ranks that share a node, and only there (the
/// one rule for which ranks share a node: ctx.node_local(), MPI's shared-memory split). Collective over
/// ctx (makes ctx.node_local() on its first call, then one broadcast on it).
[[nodiscard]] DTL_CONTAINERS_API result<int> node_leader(const context& ctx);

/// Root receives bytes_per_rank[r] bytes from each rank r, in rank order (host buffers; collective).
/// `local` is this rank's own failure so far (the root's failed allocation, say): it takes part in the
/// agreement, so that every rank returns it instead of waiting for this one.
[[nodiscard]] DTL_CONTAINERS_API result<void> gatherv(const context& ctx, const void* send, std::size_t bytes,
                                                      void* recv, const std::vector<std::size_t>& bytes_per_rank,
                                                      int root, const status& local = {});

/// allgather on host buffers only, whatever the pointers are (for small host-side partials). `local` is
/// this rank's own failure so far (a failed local fold, say): it takes part in the call's one agreement
/// step, so that every rank returns it instead of waiting for this one.
[[nodiscard]] DTL_CONTAINERS_API result<void> allgather_host(const context& ctx, const void* send, void* recv,
                                                             std::size_t bytes_each, const status& local = {});

/// context::allreduce (root < 0) or reduce to `root` of host buffers, whatever the pointers are (a
/// device reduction's partial read back into pinned memory). `local` is this rank's own failure so far (a
/// failed local fold): it takes part in the call's one agreement step, which also carries a small
/// payload, so that a partial of a few values crosses the ranks in one MPI call.
[[nodiscard]] DTL_CONTAINERS_API result<void> reduce_host(const context& ctx, const void* send, void* recv,
                                                          std::size_t count, datatype type, reduce_op op, int root,
                                                          const status& local);

#if DTL_CONTAINERS_HAS_HIP
/// context::allreduce and reduce (to `root`) ordered on `stream`, whose one agreement step also carries
/// `local`, this rank's own failure so far (a failed local fold before the ranks combine): every rank
/// then returns a failed future with the agreed status, and no data moves.
[[nodiscard]] DTL_CONTAINERS_API hip::future<void> allreduce_on_stream(const context& ctx, const void* send, void* recv,
                                                                       std::size_t count, datatype type, reduce_op op,
                                                                       hip::stream_ref stream, const status& local);
[[nodiscard]] DTL_CONTAINERS_API hip::future<void> reduce_on_stream(const context& ctx, const void* send, void* recv,
                                                                    std::size_t count, datatype type, reduce_op op,
                                                                    int root, hip::stream_ref stream,
                                                                    const status& local);
#endif

}  // namespace dtl::detail
