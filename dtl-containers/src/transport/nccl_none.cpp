// SPDX-License-Identifier: MIT
// Builds without RCCL/NCCL: the device collectives take an MPI path; these are never reached.
#include "transport/nccl_support.hpp"

namespace dtl::detail::nccl {

struct communicator {};
void communicator_deleter::operator()(communicator* comm) const noexcept { delete comm; }

namespace {
status none() { return status(status_code::backend_not_available, "this build of DTL has no RCCL/NCCL (-Drccl)"); }
}  // namespace

bool built() noexcept { return false; }
const char* library_name() noexcept { return "none"; }
result<communicator_ptr> create(comm_backend&, int) { return none(); }
bool supports(datatype) noexcept { return false; }
bool supports(reduce_op) noexcept { return false; }
status allreduce(communicator&, const void*, void*, std::size_t, datatype, reduce_op, hipStream_t) { return none(); }
status reduce(communicator&, const void*, void*, std::size_t, datatype, reduce_op, int, hipStream_t) { return none(); }
status broadcast(communicator&, void*, std::size_t, int, hipStream_t) { return none(); }
status allgather(communicator&, const void*, void*, std::size_t, hipStream_t) { return none(); }
status send(communicator&, const void*, std::size_t, int, hipStream_t) { return none(); }
status recv(communicator&, void*, std::size_t, int, hipStream_t) { return none(); }
status group_start() { return none(); }
status group_end() { return none(); }
bool has_native_alltoallv() noexcept { return false; }
status alltoallv(communicator&, const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                 const std::size_t*, hipStream_t) {
  return none();
}
int size(const communicator&) noexcept { return 0; }

}  // namespace dtl::detail::nccl
