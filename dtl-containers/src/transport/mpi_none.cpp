// SPDX-License-Identifier: MIT
// Builds without MPI: one process, rank 0 of 1.
#include "transport/mpi_runtime.hpp"

namespace dtl::detail::mpi_runtime {

bool built() noexcept { return false; }
result<start_info> start(int*, char***, mpi_threads) { return start_info{}; }
status agree_settings(std::span<const wire_setting>) { return {}; }  // one process agrees with itself
lifecycle_state lifecycle() noexcept { return {}; }
result<int> granted_thread_level() { return status(status_code::not_supported, "this build has no MPI"); }
status finish() { return {}; }
result<std::unique_ptr<comm_backend>> world() { return make_self_comm(); }
result<node_info> node() { return node_info{}; }
gpu_awareness query_gpu_awareness() { return {false, false, "this build has no MPI"}; }
std::string library_version() { return "none"; }
int world_rank() noexcept { return -1; }
void abort(int) noexcept {}

}  // namespace dtl::detail::mpi_runtime
