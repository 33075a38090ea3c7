// SPDX-License-Identifier: MIT
// dtl::abort and the way every failing rank ends the job (job.hpp).
#include "comm/job.hpp"
#include "transport/mpi_runtime.hpp"

#include <dtl/containers/communication/abort.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace dtl {

namespace detail {

void end_job(std::string_view line, int exit_code) noexcept {
  std::fwrite(line.data(), 1, line.size(), stderr);
  // What the rank printed before must not be lost: neither MPI_Abort nor _Exit flushes.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  mpi_runtime::abort(exit_code);  // returns only where MPI is not running
  std::_Exit(exit_code);
}

}  // namespace detail

void abort(const status& why, int exit_code) noexcept {
  detail::end_job(fmt::format("dtl: rank {} aborts the job: {}\n", detail::known_rank(), why.to_string()), exit_code);
}

}  // namespace dtl
