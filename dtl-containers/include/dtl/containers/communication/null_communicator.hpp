// SPDX-License-Identifier: MIT
#pragma once
// dtl::null_communicator: upstream DTL's communicator of one rank, for programs (and upstream's tests)
// that run without MPI. Its collectives are real, run by a one-rank CPU context (make_cpu_context()), so
// they copy the send data to the receive data (a reduction of one value is that value, an exclusive scan
// gives the operation's identity) and take upstream's free functions (<dtl/communication/...>).
// Point to point has no peer on one rank: as upstream's, sends and receives move nothing, requests are
// empty and complete, and waitany returns 0.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/message.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/types.hpp>

#include <utility>

namespace dtl {

class null_communicator : public mpi::mpi_comm_adapter {
 public:
  null_communicator() : mpi_comm_adapter(make_cpu_context()) {}

  /// Receives take any_source and any_tag as rank 0 and tag 0 (point_to_point.hpp).
  static constexpr bool resolves_wildcards = true;

  [[nodiscard]] static constexpr rank_t rank() noexcept { return 0; }
  [[nodiscard]] static constexpr rank_t size() noexcept { return 1; }
  [[nodiscard]] static constexpr bool is_root() noexcept { return true; }

  void send(const void*, size_type, rank_t, int) noexcept {}
  void recv(void*, size_type, rank_t, int) noexcept {}
  void ssend(const void*, size_type, rank_t, int) noexcept {}
  void rsend(const void*, size_type, rank_t, int) noexcept {}
  [[nodiscard]] request_handle isend(const void*, size_type, rank_t, int) noexcept { return {}; }
  [[nodiscard]] request_handle irecv(void*, size_type, rank_t, int) noexcept { return {}; }
  [[nodiscard]] request_handle issend(const void*, size_type, rank_t, int) noexcept { return {}; }
  [[nodiscard]] request_handle irsend(const void*, size_type, rank_t, int) noexcept { return {}; }
  void wait(request_handle&) noexcept {}
  [[nodiscard]] static bool test(request_handle&) noexcept { return true; }
  size_type waitany(request_handle*, size_type) noexcept { return 0; }
  /// The buffer keeps its data: what this rank would send to itself.
  void sendrecv_replace(void*, size_type, rank_t, int, rank_t, int) noexcept {}

  /// A message from this rank, empty: there is never one pending.
  [[nodiscard]] message_status probe(rank_t, int) noexcept {
    message_status from_self;
    from_self.source = 0;
    return from_self;
  }
  [[nodiscard]] std::pair<bool, message_status> iprobe(rank_t, int) noexcept { return {false, message_status{}}; }
};

}  // namespace dtl
