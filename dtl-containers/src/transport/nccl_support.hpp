// SPDX-License-Identifier: MIT
#pragma once
// Private: RCCL (AMD) or NCCL (NVIDIA) for device collectives. nccl.cpp wraps the library (the one file
// that includes its header); nccl_none.cpp stands in when the build has neither.

#include "transport/backend.hpp"

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <memory>

namespace dtl::detail::nccl {

struct communicator;
struct communicator_deleter {
  void operator()(communicator* comm) const noexcept;
};
using communicator_ptr = std::unique_ptr<communicator, communicator_deleter>;

bool built() noexcept;
/// "rccl", "nccl" or "none".
const char* library_name() noexcept;
/// Makes the communicator of `comm`'s ranks on `device` (collective: rank 0's unique id goes out over MPI).
result<communicator_ptr> create(comm_backend& comm, int device);
/// Whether the library reduces this type (NCCL has no 16-bit integers).
bool supports(datatype type) noexcept;
/// Whether the library has this reduction (not the logical and bitwise ones).
bool supports(reduce_op op) noexcept;

// Each is enqueued on `stream` (of the communicator's device, current) and returns at once.
status allreduce(communicator& comm, const void* send, void* recv, std::size_t count, datatype type, reduce_op op,
                 hipStream_t stream);
status reduce(communicator& comm, const void* send, void* recv, std::size_t count, datatype type, reduce_op op,
              int root, hipStream_t stream);
status broadcast(communicator& comm, void* data, std::size_t bytes, int root, hipStream_t stream);
status allgather(communicator& comm, const void* send, void* recv, std::size_t bytes_each, hipStream_t stream);

// Point-to-point (NCCL >= 2.7). Calls between one pair of ranks pair in the order they are issued (there
// are no tags); a zero-byte transfer is never issued (NCCL 2.12's zero-count bug): these return at once.
status send(communicator& comm, const void* buf, std::size_t bytes, int peer, hipStream_t stream);
status recv(communicator& comm, void* buf, std::size_t bytes, int peer, hipStream_t stream);
/// Brackets calls that form one group (ncclGroupStart/End): a grouped exchange, issued together.
status group_start();
status group_end();
/// `issue()` (a status-returning callable of sends and receives) as one group: the group is always
/// closed, also after a failed call, and the first failure is returned.
template <class Issue>
status grouped(Issue&& issue) {
  if (status s = group_start(); !s.ok()) return s;
  status issued = issue();
  status ended = group_end();
  return issued.ok() ? ended : issued;
}
/// Whether the library has a native all-to-all with per-peer counts (RCCL's ncclAllToAllv).
bool has_native_alltoallv() noexcept;
/// All-to-all with per-peer byte counts and offsets (size() entries each): RCCL's ncclAllToAllv, or
/// one group of send/recv pairs (zero counts skipped).
status alltoallv(communicator& comm, const void* send, const std::size_t* send_bytes, const std::size_t* send_displs,
                 void* recv, const std::size_t* recv_bytes, const std::size_t* recv_displs, hipStream_t stream);
/// The communicator's ranks.
int size(const communicator& comm) noexcept;

}  // namespace dtl::detail::nccl
