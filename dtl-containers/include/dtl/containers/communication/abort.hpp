// SPDX-License-Identifier: MIT
#pragma once
// dtl::abort: ends every rank of the job, from any rank, when going on is worse than stopping.
//
//   if (!input_ok) dtl::abort(dtl::status(dtl::status_code::invalid_argument, "bad input"), 3);
//
// It prints one line to stderr, "dtl: rank R aborts the job: <the status>", flushes stdout and stderr,
// and ends the job: MPI_Abort(MPI_COMM_WORLD, exit_code) while MPI is running (mpirun ends every rank and
// exits with exit_code), else std::_Exit(exit_code) (before MPI_Init, after MPI_Finalize, in builds
// without MPI: only this process ends, and mpirun reports its exit status). _Exit rather than exit: a
// process that aborts may be half broken (another thread inside a collective or holding a lock), and
// exit would run the static destructors and atexit handlers of MPI and the GPU runtime under it;
// MPI_Abort does no such clean-up either. dtl::environment::abort() is the same with the environment's rank.
// A rank that merely throws need not call it: see dtl::environment (a failing rank ends the job).

#include <dtl/containers/export.hpp>
#include <dtl/core/status.hpp>

namespace dtl {

/// Prints why, then ends every rank of the job with `exit_code`. From any thread: it takes no lock, so
/// another thread may be inside an MPI call (MPI_Abort is the way out at any MPI thread level).
[[noreturn]] DTL_CONTAINERS_API void abort(const status& why, int exit_code = 1) noexcept;

}  // namespace dtl
