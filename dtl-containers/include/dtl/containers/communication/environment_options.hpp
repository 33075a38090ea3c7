// SPDX-License-Identifier: MIT
#pragma once
// What a dtl::environment is asked to do (environment.hpp): which GPU, which MPI thread level, and
// upstream DTL's per-backend options, each with who owns the backend:
//
//   dtl::environment env(argc, argv, dtl::environment_options::adopt_mpi());  // MPI is the caller's
//
// mpi.ownership: dtl_owns and optional initialise MPI unless it already is, and finalise it at the end
// only if they initialised it; adopt_external requires MPI to be initialised already (invalid_state
// otherwise) and never finalises it; disabled leaves MPI alone: the environment runs as one process
// (rank 0 of 1) even where MPI runs. mpi.thread_level is the least level the program needs: the
// environment asks for the larger of it and thread_level (below); when MPI grants less, the environment
// fails with backend_init_failed unless mpi.allow_thread_fallback. mpi.custom_comm (an MPI_Comm*) is
// refused with not_supported: the world of DTL HIP is MPI_COMM_WORLD (split a context for fewer ranks).
//
// cuda: the GPU on HIP's NVIDIA platform, where HIP's devices are CUDA's. disabled: no GPU; device_id
// (>= 0): the device, as `device`; dtl_owns and adopt_external require a device (backend_not_available
// without one); eager_context makes the device current even when make_device_current is false. Elsewhere
// there is no CUDA: dtl_owns, adopt_external or a device_id are backend_not_available, optional and
// disabled change nothing. shmem: DTL HIP has no OpenSHMEM: dtl_owns and adopt_external are
// backend_not_available. verbose: rank 0 prints what the environment set up, one line on stderr.

#include <dtl/core/types.hpp>

#include <optional>
#include <string_view>

namespace dtl {

/// The MPI_THREAD_* levels, in MPI's order (MPI_THREAD_SINGLE = 0 ... MPI_THREAD_MULTIPLE = 3).
enum class thread_support_level { single = 0, funneled = 1, serialized = 2, multiple = 3 };
/// DTL HIP's earlier name of it.
using mpi_threads = thread_support_level;

/// "single", "funneled", "serialized", "multiple" ("unknown" outside the enum).
[[nodiscard]] constexpr std::string_view to_string(thread_support_level level) noexcept {
  switch (level) {
    case thread_support_level::single: return "single";
    case thread_support_level::funneled: return "funneled";
    case thread_support_level::serialized: return "serialized";
    case thread_support_level::multiple: return "multiple";
  }
  return "unknown";
}

/// MPI's number of a level, and back (a number outside 0..3 reads as single, the safe assumption).
[[nodiscard]] constexpr thread_support_level from_mpi_thread_level(int level) noexcept {
  return level >= 0 && level <= 3 ? static_cast<thread_support_level>(level) : thread_support_level::single;
}
[[nodiscard]] constexpr int to_mpi_thread_level(thread_support_level level) noexcept { return static_cast<int>(level); }

/// Who brings a backend up and down (see above).
enum class backend_ownership { dtl_owns, adopt_external, optional, disabled };

/// "dtl_owns", "adopt_external", "optional", "disabled" ("unknown" outside the enum).
[[nodiscard]] constexpr std::string_view to_string(backend_ownership ownership) noexcept {
  switch (ownership) {
    case backend_ownership::dtl_owns: return "dtl_owns";
    case backend_ownership::adopt_external: return "adopt_external";
    case backend_ownership::optional: return "optional";
    case backend_ownership::disabled: return "disabled";
  }
  return "unknown";
}

struct mpi_options {
  backend_ownership ownership = backend_ownership::dtl_owns;
  /// The least MPI_THREAD_* level the program needs (MPI_THREAD_FUNNELED).
  int thread_level = 1;
  /// Accept a granted level below thread_level.
  bool allow_thread_fallback = true;
  /// Upstream's communicator to run on instead of MPI_COMM_WORLD: refused (see above).
  void* custom_comm = nullptr;
};

struct cuda_options {
  backend_ownership ownership = backend_ownership::optional;
  /// The CUDA device; -1: the environment's choice.
  int device_id = -1;
  bool eager_context = false;
};

struct shmem_options {
  backend_ownership ownership = backend_ownership::disabled;
  size_type heap_size = 0;
};

struct environment_options {
  /// The GPU for this rank; default: DTL_DEVICE, else node-local rank % devices on the node.
  std::optional<int> device;
  /// Make the chosen device current on the constructing thread.
  bool make_device_current = true;
  /// Use no GPU at all, even when one is present.
  bool disable_gpu = false;
  /// The thread level to ask for when the environment initialises MPI; default: DTL_MPI_THREAD_LEVEL
  /// (single, funneled, serialized or multiple), else multiple. Some one-sided MPI components refuse
  /// MPI_THREAD_MULTIPLE (Open MPI 4.1's osc/pt2pt), and some MPIs are slower with it.
  std::optional<mpi_threads> thread_level;
  /// Abort the job when the environment is destroyed by an exception and there are several ranks
  /// (environment.hpp); default: DTL_ABORT_ON_EXCEPTION (0 or 1), else true.
  std::optional<bool> abort_on_exception;

  // Upstream DTL's options (see above).
  mpi_options mpi{};
  cuda_options cuda{};
  shmem_options shmem{};
  bool verbose = false;

  /// Every default: DTL initialises MPI (unless it is), the GPU is used when there is one.
  [[nodiscard]] static environment_options defaults() { return {}; }
  /// MPI is initialised by the caller, who also finalises it.
  [[nodiscard]] static environment_options adopt_mpi() {
    environment_options options;
    options.mpi.ownership = backend_ownership::adopt_external;
    return options;
  }
  /// MPI, and no CUDA.
  [[nodiscard]] static environment_options mpi_only() {
    environment_options options;
    options.cuda.ownership = backend_ownership::disabled;
    return options;
  }
  /// Neither MPI nor CUDA: one process (a HIP GPU on AMD is still used).
  [[nodiscard]] static environment_options minimal() {
    environment_options options = mpi_only();
    options.mpi.ownership = backend_ownership::disabled;
    return options;
  }
};

}  // namespace dtl
