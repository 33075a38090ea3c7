#pragma once
// Private: RCCL (AMD) or NCCL (NVIDIA) for device collectives. nccl.cpp wraps the library (the one file
// that includes its header); nccl_none.cpp stands in when the build has neither.

#include "comm.hpp"

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

// Each is enqueued on `stream` (of the communicator's device, current) and returns at once.
status allreduce(communicator& comm, const void* send, void* recv, std::size_t count, datatype type, reduce_op op,
                 hipStream_t stream);
status reduce(communicator& comm, const void* send, void* recv, std::size_t count, datatype type, reduce_op op, int root,
              hipStream_t stream);
status broadcast(communicator& comm, void* data, std::size_t bytes, int root, hipStream_t stream);
status allgather(communicator& comm, const void* send, void* recv, std::size_t bytes_each, hipStream_t stream);

}  // namespace dtl::detail::nccl
