// SPDX-License-Identifier: MIT
// Upstream's MPI lifecycle helpers over the transport's MPI runtime (mpi.cpp, or mpi_none.cpp).
#include "transport/mpi_runtime.hpp"

#include <backends/mpi/mpi_lifecycle.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

namespace dtl::mpi {

namespace runtime = detail::mpi_runtime;

namespace {

status not_built() { return status(status_code::not_supported, "this build of DTL HIP has no MPI"); }

// Success while MPI runs, else why not.
status running(std::string_view what) {
  if (!runtime::built()) return not_built();
  const runtime::lifecycle_state now = runtime::lifecycle();
  if (now.finalised) return status(status_code::invalid_state, fmt::format("{}: MPI was finalised", what));
  if (!now.initialised) return status(status_code::invalid_state, fmt::format("{}: MPI is not initialised", what));
  return {};
}

}  // namespace

bool is_initialized() noexcept { return runtime::lifecycle().initialised; }
bool is_finalized() noexcept { return runtime::lifecycle().finalised; }

mpi_state get_state() noexcept {
  const runtime::lifecycle_state now = runtime::lifecycle();
  return now.finalised ? mpi_state::finalized : now.initialised ? mpi_state::initialized : mpi_state::not_initialized;
}

result<int> query_thread_level() {
  DTL_TRY(running("query_thread_level"));
  return runtime::granted_thread_level();
}

result<int> initialize(int* argc, char*** argv, int required_level, bool allow_fallback) {
  if (!runtime::built()) return not_built();
  if (required_level < thread_levels::single || required_level > thread_levels::multiple)
    return status(status_code::invalid_argument,
                  fmt::format("initialize: thread level {} is not an MPI_THREAD_* level (0..3)", required_level));
  if (runtime::lifecycle().finalised)
    return status(status_code::invalid_state, "initialize: MPI was finalised and cannot start again");
  DTL_ASSIGN_OR_RETURN(const runtime::start_info info,
                       runtime::start(argc, argv, from_mpi_thread_level(required_level)));
  if (allow_fallback || info.thread_level >= required_level) return info.thread_level;
  if (info.initialised_here) DTL_TRY(runtime::finish());
  return status(
      status_code::backend_init_failed,
      fmt::format("initialize: MPI grants thread level {}, below the {} required", info.thread_level, required_level));
}

result<void> verify_initialized() {
  DTL_TRY(running("verify_initialized"));
  return {};
}

result<void> finalize_mpi() {
  DTL_TRY(running("finalize_mpi"));
  if (environment::is_initialized())
    return status(status_code::invalid_state, "finalize_mpi: a dtl::environment is alive and still uses MPI");
  return runtime::finish();
}

}  // namespace dtl::mpi
