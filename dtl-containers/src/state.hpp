#pragma once
// Private: what an environment and a context are made of.

#include "comm.hpp"
#include "device_support.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace dtl::detail {

struct context_state;

struct environment_state {
  std::atomic<bool> alive{true};
  bool owns_mpi = false;
  int thread_level = 3;
  int rank = 0;
  int rank_count = 1;
  int local_rank = 0;
  int local_rank_count = 1;
  int device = no_device;

  std::mutex mutex;  // guards contexts
  std::vector<std::weak_ptr<context_state>> contexts;

  /// Ends every context made here, then finalises MPI if this environment initialised it.
  status end();
};

struct context_state {
  std::shared_ptr<environment_state> environment;  // null for make_cpu_context()
  std::unique_ptr<comm_backend> comm;
  int device = no_device;
  device_resources_ptr resources;

  std::atomic<bool> ended{false};
  std::mutex mutex;  // guards windows
  std::vector<std::weak_ptr<window>> windows;

  context_state(std::shared_ptr<environment_state> env, std::unique_ptr<comm_backend> c, int dev,
                device_resources_ptr res) noexcept
      : environment(std::move(env)), comm(std::move(c)), device(dev), resources(std::move(res)) {}
  context_state(const context_state&) = delete;
  context_state& operator=(const context_state&) = delete;
  ~context_state();

  /// ok, or invalid_state once the environment has ended.
  status check() const;
  /// Releases MPI windows, the RCCL/NCCL communicator and the MPI communicator (before MPI_Finalize).
  void end() noexcept;
  /// Keeps track of a window so that end() can free it.
  void track(const std::shared_ptr<window>& w);
};

struct context_access {
  static context make(std::shared_ptr<context_state> state) noexcept { return context(std::move(state)); }
  static context_state& state(const context& ctx) noexcept { return *ctx.state_; }
};

/// Makes a context over `comm` on `device` (collective: decides the device collective path).
result<context> make_context(std::shared_ptr<environment_state> env, std::unique_ptr<comm_backend> comm, int device);

}  // namespace dtl::detail
