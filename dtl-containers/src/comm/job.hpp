// SPDX-License-Identifier: MIT
#pragma once
// Private: ending the whole job (dtl::abort, environment::abort, an environment ended by an exception).

#include <string_view>

namespace dtl::detail {

/// Writes `line` to stderr, flushes the C and C++ streams, then MPI_Abort(MPI_COMM_WORLD, exit_code)
/// while MPI is running, else std::_Exit(exit_code).
[[noreturn]] void end_job(std::string_view line, int exit_code) noexcept;

/// This process's rank in MPI_COMM_WORLD, else the rank the last environment had (MPI finalised), else 0.
int known_rank() noexcept;

}  // namespace dtl::detail
