// SPDX-License-Identifier: MIT
#pragma once
// Collectives without the agreement step, for DTL's own algorithms (the sort's steps between its checked
// ones). Not for users.
//
// A context's collectives start with an agreement step, so that a rank's local failure or a mismatched
// call becomes one status on every rank. Inside one algorithm, the ranks call these in the same order with
// arguments that agree by construction (computed from data every rank holds alike), and the algorithm has
// agreed on every local failure before it calls one: the step would only add a round of latency. Host
// buffers only; the context must be usable (an ended or empty context fails here, alike on every rank).

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <span>

namespace dtl::detail {

/// Every rank's bytes_each bytes at send, to every rank at recv + rank * bytes_each.
[[nodiscard]] DTL_CONTAINERS_API status unchecked_allgather(const context& ctx, const void* send, void* recv,
                                                            std::size_t bytes_each);

/// Block r of bytes_each bytes at send + r * bytes_each to rank r, which receives it at recv + rank *
/// bytes_each.
[[nodiscard]] DTL_CONTAINERS_API status unchecked_alltoall(const context& ctx, const void* send, void* recv,
                                                           std::size_t bytes_each);

/// How an unchecked alltoallv moves its blocks.
enum class exchange_shape {
  dense,      // most pairs exchange bytes: MPI's alltoallv
  neighbours  // few blocks are not empty: messages between those pairs only
};

/// An alltoallv in bytes (arrays of ctx.size() entries). `most`: at least every rank's largest block and
/// offset in bytes, the same on every rank (no allreduce to find it). Under neighbours, the two ranks of
/// each pair agree on whether its block is empty.
[[nodiscard]] DTL_CONTAINERS_API status unchecked_alltoallv(const context& ctx, const void* send,
                                                            std::span<const std::size_t> send_bytes,
                                                            std::span<const std::size_t> send_displs, void* recv,
                                                            std::span<const std::size_t> recv_bytes,
                                                            std::span<const std::size_t> recv_displs, std::size_t most,
                                                            exchange_shape shape);

}  // namespace dtl::detail
