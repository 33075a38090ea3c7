#pragma once
// Private: the checks that the all-to-all collectives share between their blocking forms
// (collectives.cpp) and their stream-ordered forms (collectives_device_hip.cpp).

#include "device_support.hpp"
#include "state.hpp"

#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <span>

namespace dtl::detail {

/// A collective as this rank sees it before communicating: the bytes it moves, its own checks of the
/// arguments, and whether the buffers are device memory.
struct prepared_exchange {
  byte_exchange x;
  status local;
  bool device = false;
};

/// alltoall of `count_each` elements of `elem` bytes per peer, on a context of `ranks` ranks.
prepared_exchange prepare_alltoall(int ranks, const void* send, void* recv, std::size_t count_each,
                                   std::size_t elem);
/// alltoallv (counts and displacements in elements).
prepared_exchange prepare_alltoallv(int ranks, const void* send, std::span<const std::size_t> send_counts,
                                    std::span<const std::size_t> send_displs, void* recv,
                                    std::span<const std::size_t> recv_counts,
                                    std::span<const std::size_t> recv_displs, std::size_t elem);

/// What the agreement of alltoall and alltoallv compares (`count_each` 0 for alltoallv).
call_signature alltoall_signature(const char* what, std::size_t count_each, std::size_t elem, bool device);

/// Adds to `mine` the check that each peer r sends this rank what recv_counts[r] says (collective over
/// `comm`: one alltoall of the counts, every rank calls it, even one whose own checks failed). Skipped,
/// returning `mine`, under DTL_AGREEMENT=off.
status check_alltoallv_counts(comm_backend& comm, status mine, std::span<const std::size_t> send_counts,
                              std::span<const std::size_t> recv_counts);

}  // namespace dtl::detail
