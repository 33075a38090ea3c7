// SPDX-License-Identifier: MIT
#pragma once
// dtl::environment: brings up what DTL runs on (MPI, the GPU of this rank) and makes contexts.
//
//   int main(int argc, char** argv) {
//     dtl::environment env(argc, argv);
//     auto ctx = env.make_world_context();
//     dtl::distributed_vector<float, dtl::device_only_runtime> v(1 << 20, ctx);
//   }
//
// environment_options.hpp says what the options ask for (upstream's backend ownership among them).
// MPI: the environment calls MPI_Init_thread (asking for MPI_THREAD_MULTIPLE, or the level that
// environment_options::thread_level or DTL_MPI_THREAD_LEVEL names) unless MPI is already initialised,
// and calls MPI_Finalize at its end only if it initialised MPI. Threads: at MPI_THREAD_SERIALIZED, DTL's
// own MPI calls take turns, and a collective gives the turn up while it waits, so threads with contexts
// of their own communicate at the same time; at FUNNELED and SINGLE only the thread that initialised MPI
// may communicate (other threads get invalid_state). A context serves one thread at a time
// (docs/containers.md, "Failure and threads"). Builds without MPI run as one process (rank 0 of 1).
//
// The GPU: each rank takes device (node-local rank % devices on the node), the node-local rank coming
// from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). The environment variable DTL_DEVICE, or
// environment_options::device, overrides the choice. Unless options say otherwise, the chosen device is
// made current on the constructing thread, as MPI + GPU programs expect. Without a GPU the contexts have
// no device (host placements still work).
//
// One environment at a time. When it ends, the contexts it made become unusable (their calls return
// invalid_state) and their MPI resources are released before MPI is finalised.
//
// A failing rank ends the job. When the environment is destroyed while an exception propagates (one
// thrown after it was made) and MPI runs more than one rank, finalising would leave the other ranks
// waiting in their next collective forever, so it prints one line to stderr and calls
// MPI_Abort(MPI_COMM_WORLD, 1) instead, as Boost.MPI's environment does; whether or not this
// environment initialised MPI (the other ranks wait either way). environment_options::abort_on_exception
// = false, or DTL_ABORT_ON_EXCEPTION=0, finalises instead. An exception that escapes main() never
// reaches the destructor: std::terminate aborts the process, and mpirun ends the job. abort() (and
// dtl::abort, communication/abort.hpp) end the job on purpose. docs/containers.md, "A rank that fails".

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment_options.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <memory>
#include <optional>
#include <string_view>

namespace dtl {

namespace detail {
struct environment_state;
}

class DTL_CONTAINERS_API environment {
 public:
  /// Initialises MPI with the program's arguments (unless it is initialised already). Throws
  /// dtl::status_error when that fails or another environment is alive; create() returns it instead.
  environment(int& argc, char**& argv, environment_options options = {});
  /// Same, without the argument list.
  explicit environment(environment_options options = {});

  [[nodiscard]] static result<environment> create(int& argc, char**& argv, environment_options options = {});
  [[nodiscard]] static result<environment> create(environment_options options = {});

  environment(environment&&) noexcept;
  environment& operator=(environment&&) noexcept;
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;
  /// Ends the environment (see above).
  ~environment();

  /// A context over every rank (a duplicate of MPI_COMM_WORLD), on this rank's device.
  /// try_make_world_context() is the form that returns result<context>. make_world_context() is upstream
  /// DTL's spelling, which gives the context itself (programs write `auto ctx = env.make_world_context();`
  /// and call ctx.rank() on it), so it throws dtl::status_error when it fails, as the value algorithms do.
  [[nodiscard]] context make_world_context() const;
  [[nodiscard]] result<context> try_make_world_context() const;
  /// Same, on `device` instead of the environment's choice (dtl::no_device for none).
  [[nodiscard]] context make_world_context(int device) const;
  [[nodiscard]] result<context> try_make_world_context(int device) const;

  /// This process's rank among every rank, and how many ranks there are (the world's).
  [[nodiscard]] int rank() const noexcept;
  [[nodiscard]] int rank_count() const noexcept;
  /// The device chosen for this rank, or dtl::no_device.
  [[nodiscard]] int device() const noexcept;
  /// This rank among the ranks on its node, and how many ranks the node runs.
  [[nodiscard]] int local_rank() const noexcept;
  [[nodiscard]] int local_rank_count() const noexcept;
  [[nodiscard]] bool has_mpi() const noexcept;
  [[nodiscard]] bool has_hip() const noexcept;
  [[nodiscard]] bool has_nccl() const noexcept;
  /// Upstream's: CUDA is there when HIP runs on NVIDIA (HIP builds for the nvidia platform); this
  /// backend never has OpenSHMEM.
  [[nodiscard]] bool has_cuda() const noexcept;
  [[nodiscard]] bool has_shmem() const noexcept { return false; }
  /// Whether this environment initialised MPI (and so finalises it).
  [[nodiscard]] bool owns_mpi() const noexcept;
  /// The thread support MPI granted (MPI_THREAD_SINGLE = 0 ... MPI_THREAD_MULTIPLE = 3; 3 without MPI).
  [[nodiscard]] int mpi_thread_level() const noexcept;
  /// Upstream's names of that level: "MPI_THREAD_SERIALIZED" ..., and "serialized" ...
  [[nodiscard]] const char* mpi_thread_level_name() const noexcept;
  [[nodiscard]] std::string_view thread_level_name() const noexcept;
  /// Upstream's: whether an environment is alive in this process.
  [[nodiscard]] static bool is_initialized() noexcept;

  /// Ends every rank of the job (dtl::abort): prints "dtl: rank R aborts the job: <why>" to stderr, then
  /// MPI_Abort(MPI_COMM_WORLD, exit_code), or std::_Exit(exit_code) where MPI is not running.
  [[noreturn]] void abort(int exit_code = 1) const noexcept;
  [[noreturn]] void abort(const status& why, int exit_code = 1) const noexcept;

 private:
  explicit environment(std::shared_ptr<detail::environment_state> state) noexcept;
  std::shared_ptr<detail::environment_state> state_;
};

}  // namespace dtl
