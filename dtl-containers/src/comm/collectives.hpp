// SPDX-License-Identifier: MIT
#pragma once
// Private: the checks that the all-to-all collectives share between their blocking forms
// (collectives.cpp) and their stream-ordered forms (collectives_device_hip.cpp).

#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"

#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <span>
#include <utility>

namespace dtl::detail {

/// A collective as this rank sees it before communicating: the bytes it moves, its own checks of the
/// arguments, and whether the buffers are device memory.
struct prepared_exchange {
  byte_exchange x;
  status local;
  bool device = false;
  bool says = false;  // whether a buffer was given (null ones say neither host nor device)
};

/// Whether the buffers are device memory (a null one does not say); the two must be of one kind. Their
/// devices go to `devices` (send's, recv's) when asked for. Every collective's check of its buffers.
result<bool> on_device(const void* a, const void* b, std::pair<int, int>* devices = nullptr);

/// alltoall of `count_each` elements of `elem` bytes per peer, on a context of `ranks` ranks.
prepared_exchange prepare_alltoall(int ranks, const void* send, void* recv, std::size_t count_each, std::size_t elem);
/// alltoallv (counts and displacements in elements).
prepared_exchange prepare_alltoallv(int ranks, const void* send, std::span<const std::size_t> send_counts,
                                    std::span<const std::size_t> send_displs, void* recv,
                                    std::span<const std::size_t> recv_counts, std::span<const std::size_t> recv_displs,
                                    std::size_t elem);

/// What the agreement of alltoall and alltoallv compares (`count_each` 0 for alltoallv).
call_signature alltoall_signature(const char* what, std::size_t count_each, std::size_t elem, bool device);

/// alltoallv's checks across ranks, in this order: the call's agreement (every rank's local checks, and
/// which collective this is), whose failure is returned, the same on every rank; then, only once every
/// rank is known to be in this call with well-formed counts, the count exchange (one alltoall: each
/// peer's count for this rank, and the kind of its buffers). Its finding (a peer r that sends this rank
/// other than recv_counts[r], or host buffers on some ranks and device buffers on others) goes to
/// p.local, and p.device is settled as every rank sees it (a rank that gave no buffers follows the
/// others); the caller's next agreement takes p.local to every rank. Agreeing before the exchange is
/// what keeps a rank that calls another collective from pairing its agreement with this exchange. No
/// count exchange under DTL_AGREEMENT=off.
status agree_then_check_alltoallv_counts(collective_call& call, prepared_exchange& p,
                                         std::span<const std::size_t> send_counts,
                                         std::span<const std::size_t> recv_counts);

}  // namespace dtl::detail
