// SPDX-License-Identifier: MIT
// Collectives without the agreement step (detail/unchecked_collectives.hpp): the context's communicator
// directly, under the context's collective turn (collective_call), which still refuses an ended context.
#include "comm/state.hpp"
#include "transport/backend.hpp"

#include <dtl/containers/communication/detail/unchecked_collectives.hpp>

namespace dtl::detail {

namespace {

/// Runs `move(comm)` on the context's communicator when the context is usable; `what` names the call.
template <class Move>
status on_communicator(const context& ctx, const char* what, Move move) {
  collective_call call(context_access::state(ctx), call_signature{what});
  if (!call.usable().ok()) return call.usable();
  return move(*call.state().comm);
}

}  // namespace

status unchecked_allgather(const context& ctx, const void* send, void* recv, std::size_t bytes_each) {
  return on_communicator(ctx, "allgather", [&](comm_backend& comm) { return comm.allgather(send, recv, bytes_each); });
}

status unchecked_alltoall(const context& ctx, const void* send, void* recv, std::size_t bytes_each) {
  return on_communicator(ctx, "alltoall", [&](comm_backend& comm) { return comm.alltoall(send, recv, bytes_each); });
}

status unchecked_alltoallv(const context& ctx, const void* send, std::span<const std::size_t> send_bytes,
                           std::span<const std::size_t> send_displs, void* recv,
                           std::span<const std::size_t> recv_bytes, std::span<const std::size_t> recv_displs,
                           std::size_t most, exchange_shape shape) {
  return on_communicator(ctx, "alltoallv", [&](comm_backend& comm) -> status {
    const auto n = static_cast<std::size_t>(comm.size());
    if (send_bytes.size() != n || send_displs.size() != n || recv_bytes.size() != n || recv_displs.size() != n)
      return status(status_code::invalid_argument, "alltoallv: count and displacement arrays of one entry per rank");
    if (shape == exchange_shape::neighbours)
      return comm.exchange_with_peers(send, send_bytes.data(), send_displs.data(), recv, recv_bytes.data(),
                                      recv_displs.data(), most);
    return comm.alltoallv_known(send, send_bytes.data(), send_displs.data(), recv, recv_bytes.data(),
                                recv_displs.data(), most);
  });
}

}  // namespace dtl::detail
