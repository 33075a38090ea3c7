// SPDX-License-Identifier: MIT
#pragma once
// Private: bringing MPI up and down, and the world communicator. mpi.cpp implements it with MPI;
// mpi_none.cpp (builds without MPI) gives one process.

#include "transport/backend.hpp"

#include <dtl/containers/communication/environment.hpp>
#include <dtl/core/result.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace dtl::detail::mpi_runtime {

struct start_info {
  bool initialised_here = false;  // we called MPI_Init_thread, so we call MPI_Finalize
  int thread_level = 3;           // MPI_THREAD_MULTIPLE without MPI
};

/// Whether this build has MPI.
bool built() noexcept;
/// Initialises MPI, asking for `threads`, unless it already is. argc/argv may be null.
result<start_info> start(int* argc, char*** argv, mpi_threads threads);
/// A setting that changes how ranks communicate, as a number every rank must hold alike.
struct wire_setting {
  const char* name;  // the variable, and what its numbers mean
  std::int64_t value;
};
/// Compares every rank's wire settings once, right after start() and before any other collective:
/// the transport's own (DTL_MPI_MESSAGE_LIMIT, DTL_COLLECTIVE_TIMEOUT, the thread level) and `more`.
/// One blocking allgather that no setting changes, so that ranks which disagree still meet in it. When
/// they differ: invalid_argument on every rank, naming each setting that differs and every rank's
/// value. A setting of this rank that start() could not read fails here too (on every rank).
status agree_settings(std::span<const wire_setting> more);
/// MPI's state in this process (MPI_Initialized, MPI_Finalized): both false without MPI.
struct lifecycle_state {
  bool initialised = false;  // stays true after MPI_Finalize
  bool finalised = false;
};
lifecycle_state lifecycle() noexcept;
/// The thread level MPI granted (MPI_Query_thread); call only while MPI runs.
result<int> granted_thread_level();
/// Finalises MPI (only call when start() initialised it).
status finish();
/// A duplicate of MPI_COMM_WORLD (a self communicator without MPI).
result<std::unique_ptr<comm_backend>> world();

struct node_info {
  int local_rank = 0;
  int local_rank_count = 1;
};
/// This rank among the ranks sharing its node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED).
result<node_info> node();

/// What the MPI library says about device pointers (Open MPI's MPIX_Query_cuda_support and
/// MPIX_Query_rocm_support). A claim only: the context confirms it with a functional probe.
struct gpu_awareness {
  bool cuda = false;
  bool rocm = false;
  std::string detail;  // what was asked and answered, for messages
};
gpu_awareness query_gpu_awareness();

/// "Open MPI v4.1.6, ..." (MPI_Get_library_version), or "none".
std::string library_version();

/// This process's rank in MPI_COMM_WORLD while MPI is running (initialised, not finalised); -1 otherwise.
int world_rank() noexcept;
/// Ends every rank: MPI_Abort(MPI_COMM_WORLD, code) while MPI is running; returns (doing nothing)
/// otherwise. Takes no lock: the rank that aborts may have another thread inside an MPI call.
void abort(int code) noexcept;

}  // namespace dtl::detail::mpi_runtime
