// SPDX-License-Identifier: MIT
#pragma once
// Private: what an environment and a context are made of.

#include "gpu_comm/device_support.hpp"
#include "transport/backend.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace dtl::detail {

struct context_state;
struct p2p_transfer;  // p2p.hpp

/// Work that spans calls and must finish while MPI runs: a halo exchange begun and not yet ended. A
/// context's end() finishes what is registered with it (context_state::add_exchange) before it releases
/// the communicator, so that the work calls no MPI after MPI_Finalize.
class in_flight_exchange {
 public:
  /// Completes the work (every rank ends its environment, so what every rank began completes).
  virtual void finish_at_end() noexcept = 0;

 protected:
  in_flight_exchange() = default;
  in_flight_exchange(const in_flight_exchange&) = default;
  in_flight_exchange& operator=(const in_flight_exchange&) = default;
  ~in_flight_exchange() = default;
};

struct environment_state {
  std::atomic<bool> alive{true};
  bool owns_mpi = false;
  bool uses_mpi = true;  // false: MPI left alone (environment_options::mpi disabled), one process
  int thread_level = 3;
  int rank = 0;
  int rank_count = 1;
  int local_rank = 0;
  int local_rank_count = 1;
  int device = no_device;
  bool abort_on_exception = true;
  int uncaught_at_start = 0;  // std::uncaught_exceptions() when the environment was made

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
  std::mutex mutex;  // guards windows and exchanges
  std::vector<std::weak_ptr<window>> windows;
  std::vector<in_flight_exchange*> exchanges;  // begun and not ended

  // One thread at a time in this context's collectives (collective_call takes the turn). A second
  // thread arriving while one is inside marks the context shared_by_threads for good: its collectives
  // pair with the other thread's calls on other ranks, so every later collective fails, on every rank
  // (the mark travels in the agreement step).
  std::mutex collective_mutex;
  std::atomic<std::thread::id> collective_thread{};
  std::atomic<bool> shared_by_threads{false};

  // Point-to-point transfers in flight (p2p.cpp), stepped together; the context's thread only.
  std::vector<p2p_transfer*> p2p_pending;

  // The node-local context (context::node_local()), once made; under the collective turn.
  std::shared_ptr<context_state> node_local;

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
  /// Keeps track of an exchange in flight so that end() can finish it (until remove_exchange).
  status add_exchange(in_flight_exchange& e);
  void remove_exchange(const in_flight_exchange& e) noexcept;
};

struct context_access {
  static context make(std::shared_ptr<context_state> state) noexcept { return context(std::move(state)); }
  /// The context's state, or nullptr for an empty context (moved from, or left out by split()).
  static context_state* state(const context& ctx) noexcept { return ctx.state_.get(); }
  static std::weak_ptr<context_state> weak_state(const context& ctx) noexcept { return ctx.state_; }
  static std::shared_ptr<context_state> shared_state(const context& ctx) noexcept { return ctx.state_; }
};

/// The collective this thread is in ("barrier", "allreduce", ...), or nullptr: for the timeout's message.
const char* current_collective() noexcept;

/// invalid_state: what every call on an empty context gives.
status empty_context();

/// false when DTL_AGREEMENT=off: then agree_on() returns each rank's own status without communicating
/// (a local failure leaves the other ranks waiting again; for measuring, or latency-bound code).
bool agreement_enabled() noexcept;

/// FNV-1a of `bytes` bytes at `data`, continuing from `hash`: what the agreement compares arguments by.
std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash = 1469598103934665603ull) noexcept;

/// The agreement step on a communicator (agreement.cpp): see detail::agree.
status agree_on(comm_backend& comm, const status& local, const call_signature& call);

/// One collective of a context, from its start to its end: checks that the context is usable, takes
/// its collective turn (held until destruction), and runs the agreement step when asked.
///
///   collective_call call(state, {"allreduce", {count, type, op}, {"count", "type", "operation"}});
///   DTL_TRY(call.agree(local_checks));   // every rank gets the same outcome
///   ... move the data ...
class collective_call {
 public:
  collective_call(context_state* state, const call_signature& signature);
  collective_call(const collective_call&) = delete;
  collective_call& operator=(const collective_call&) = delete;
  ~collective_call();

  /// Failures found without communicating (an empty or ended context): return them at once.
  [[nodiscard]] const status& usable() const noexcept { return usable_; }
  /// The agreement step with this rank's `local` status (collective), after usable(): before the ranks
  /// communicate, and again after a collective's own count exchange (alltoallv, gatherv, scatterv).
  [[nodiscard]] status agree(const status& local);
  [[nodiscard]] context_state& state() const noexcept { return *state_; }

 private:
  context_state* state_;
  call_signature signature_;
  const char* outer_;  // the collective this thread was in before (nested calls)
  status usable_;
  status shared_;  // set when another thread was inside a collective on this context
  std::unique_lock<std::mutex> turn_;
};

/// Makes a context over `comm` on `device` (collective: decides the device collective path).
result<context> make_context(std::shared_ptr<environment_state> env, std::unique_ptr<comm_backend> comm, int device);

/// The environment alive in this process, or null (environment.cpp).
std::shared_ptr<environment_state> live_environment() noexcept;

}  // namespace dtl::detail
