// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's MPI lifecycle helpers: MPI's state in this process, bringing it up and down yourself
// (a dtl::environment made with environment_options::adopt_mpi() then uses it and leaves it running).
//
//   auto level = dtl::mpi::initialize(&argc, &argv, dtl::mpi::thread_levels::serialized, true);
//   { dtl::environment env(dtl::environment_options::adopt_mpi()); ... }
//   dtl::mpi::finalize_mpi();
//
// Builds without MPI: the queries say "not initialised", and the others are not_supported. Installed
// under include/dtl-hip/, as mpi_comm_adapter.hpp.

#include <dtl/containers/export.hpp>
#include <dtl/core/config.hpp>  // upstream's DTL_ENABLE_MPI, which programs test next to these
#include <dtl/core/result.hpp>

#include <string_view>

namespace dtl::mpi {

enum class mpi_state { not_initialized, initialized, finalized };

/// "not_initialized", "initialized", "finalized" ("unknown" outside the enum).
[[nodiscard]] constexpr std::string_view to_string(mpi_state state) noexcept {
  switch (state) {
    case mpi_state::not_initialized: return "not_initialized";
    case mpi_state::initialized: return "initialized";
    case mpi_state::finalized: return "finalized";
  }
  return "unknown";
}

/// MPI's MPI_THREAD_* values, without MPI's header.
struct thread_levels {
  static constexpr int single = 0;
  static constexpr int funneled = 1;
  static constexpr int serialized = 2;
  static constexpr int multiple = 3;
};

/// Whether MPI was initialised in this process (still true after it was finalised, as MPI_Initialized).
[[nodiscard]] DTL_CONTAINERS_API bool is_initialized() noexcept;
/// Whether MPI was finalised.
[[nodiscard]] DTL_CONTAINERS_API bool is_finalized() noexcept;
/// finalized once finalised, else initialized or not_initialized.
[[nodiscard]] DTL_CONTAINERS_API mpi_state get_state() noexcept;

/// The thread level MPI granted. invalid_state unless MPI runs.
[[nodiscard]] DTL_CONTAINERS_API result<int> query_thread_level();

/// Initialises MPI asking for `required_level` (0..3, else invalid_argument) and returns the level granted;
/// where MPI already runs, returns its level. A level below the one required is backend_init_failed unless
/// allow_fallback (MPI initialised here is finalised again first). invalid_state once MPI was finalised.
[[nodiscard]] DTL_CONTAINERS_API result<int> initialize(int* argc, char*** argv, int required_level,
                                                        bool allow_fallback);
/// Same, without the program's arguments.
[[nodiscard]] inline result<int> initialize(int required_level, bool allow_fallback) {
  return initialize(nullptr, nullptr, required_level, allow_fallback);
}

/// Success while MPI runs (what adopting it needs); invalid_state otherwise.
[[nodiscard]] DTL_CONTAINERS_API result<void> verify_initialized();

/// Finalises MPI. invalid_state when it is not running, or while a dtl::environment is alive (it still
/// needs MPI; one that initialised MPI finalises it when it ends).
[[nodiscard]] DTL_CONTAINERS_API result<void> finalize_mpi();

}  // namespace dtl::mpi
