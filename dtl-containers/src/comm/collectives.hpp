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

/// Adds to p.local the check that each peer r sends this rank what recv_counts[r] says, and settles
/// p.device as every rank sees it (a rank that gave no buffers follows the others). Collective over
/// `comm`: one alltoall of the counts, every rank calls it, even one whose own checks failed. Skipped
/// under DTL_AGREEMENT=off.
void check_alltoallv_counts(comm_backend& comm, prepared_exchange& p, std::span<const std::size_t> send_counts,
                            std::span<const std::size_t> recv_counts);

}  // namespace dtl::detail
