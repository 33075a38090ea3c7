// SPDX-License-Identifier: MIT
// Programs that end an MPI job on purpose, one case per run: `fault_cases <case>` under mpiexec, checked
// by run_fault.py (how the job ended, what it printed, that it did not hang). A doctest case cannot
// check them: the job ends. To add one, write a function and give it a row in `cases` below.
#include <dtl/containers/communication/abort.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/containers/detail/grid_halo_exchange.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/grid_decomposition.hpp>
#include <dtl/communication/memory_window.hpp>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

// The rank that fails in each case; the others wait for it where a case says so.
constexpr int failing_rank = 1;

// A rank that waits for every other rank: forever, if one of them never comes.
int wait_in_barrier(const dtl::context& ctx) {
  if (auto done = ctx.barrier(); !done) {
    std::fprintf(stderr, "rank %d: barrier failed: %s\n", ctx.rank(), done.error().to_string().c_str());
    return 1;
  }
  std::printf("rank %d: the barrier returned\n", ctx.rank());
  return 0;
}

// The failing rank throws inside the environment's scope and catches only after it, so that the
// environment is destroyed during unwinding; the others wait in a barrier (unless `others_wait` is
// false). Returns 0 on the failing rank when it got its exception back (the environment finalised).
int throw_in_scope(int& argc, char**& argv, bool others_wait) {
  int rank = -1;
  try {
    dtl::environment env(argc, argv);
    rank = env.rank();
    const auto ctx = env.make_world_context();
    if (rank == failing_rank) throw std::runtime_error("the failing rank throws");
    return others_wait ? wait_in_barrier(ctx) : 0;
  } catch (const std::runtime_error& e) {
    std::printf("rank %d: caught \"%s\" after the environment ended (MPI finalised)\n", rank, e.what());
    return 0;
  }
}

int throw_one_rank(int& argc, char**& argv) { return throw_in_scope(argc, argv, true); }
int throw_opt_out(int& argc, char**& argv) { return throw_in_scope(argc, argv, false); }

// The exception leaves main(): no handler, so std::terminate (the environment's destructor never runs).
int throw_escapes_main(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (env.rank() == failing_rank) throw std::runtime_error("the failing rank throws out of main");
  return wait_in_barrier(ctx);
}

int abort_job(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (env.rank() == failing_rank) dtl::abort(dtl::status(dtl::status_code::invalid_argument, "bad input"), 3);
  return wait_in_barrier(ctx);
}

int environment_abort(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (env.rank() == failing_rank) env.abort(4);
  return wait_in_barrier(ctx);
}

// After MPI_Finalize there is no MPI_Abort: dtl::abort ends this process alone (std::_Exit), and
// mpirun reports a rank that exited non-zero.
int abort_after_finalize(int& argc, char**& argv) {
  int rank = -1;
  {
    dtl::environment env(argc, argv);
    rank = env.rank();
  }
  if (rank == failing_rank) dtl::abort(dtl::status(dtl::status_code::invalid_state, "after MPI_Finalize"), 5);
  return 0;
}

// The failing rank dies without a word (SIGKILL: no handler, no MPI_Finalize).
int rank_dies(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (env.rank() == failing_rank) {
    std::fflush(nullptr);
    std::raise(SIGKILL);
  }
  return wait_in_barrier(ctx);
}

// The failing rank skips a barrier that the others are in (it sleeps, then leaves). Run with
// DTL_COLLECTIVE_TIMEOUT: the waiting ranks end the job once it has passed, naming the collective.
int skip_collective(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (env.rank() == failing_rank) {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return 0;
  }
  return wait_in_barrier(ctx);
}

// The failing rank comes late (1 s) but comes: a timeout longer than that must not end the job.
int late_rank(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (env.rank() == failing_rank) std::this_thread::sleep_for(std::chrono::seconds(1));
  return wait_in_barrier(ctx);
}

// Every rank reports `outcome`; 0 when it failed with `code` and its message has `text`.
int expect_failure(const dtl::context& ctx, const dtl::result<void>& outcome, dtl::status_code code,
                   std::string_view text) {
  if (outcome) {
    std::printf("rank %d: the collective returned ok\n", ctx.rank());
    return 1;
  }
  const dtl::status& s = outcome.error();
  std::printf("rank %d: %s\n", ctx.rank(), s.to_string().c_str());
  return s.code() == code && s.message().find(text) != std::string_view::npos ? 0 : 1;
}

constexpr std::string_view different_calls = "the ranks call different collectives";

// The failing rank calls a collective with a count exchange of its own (alltoallv, gatherv, scatterv);
// the others call a plain one. Every rank must get invalid_argument, before any count is exchanged.
int alltoallv_vs_allreduce(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const auto n = static_cast<std::size_t>(ctx.size());
  std::vector<int> send(n, ctx.rank()), recv(n, -1);
  std::vector<std::size_t> counts(n, 1), displs(n);
  for (std::size_t r = 0; r < n; ++r) displs[r] = r;
  int x = 1;
  const auto outcome = env.rank() == failing_rank
                           ? ctx.alltoallv(send.data(), counts, displs, recv.data(), counts, displs)
                           : ctx.allreduce(&x, &x, 1, dtl::reduce_op::sum);
  return expect_failure(ctx, outcome, dtl::status_code::invalid_argument, different_calls);
}

int gatherv_vs_barrier(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const auto n = static_cast<std::size_t>(ctx.size());
  std::vector<int> recv(n, -1);
  std::vector<std::size_t> counts(n, 1), displs(n);
  for (std::size_t r = 0; r < n; ++r) displs[r] = r;
  const int mine = ctx.rank();
  const auto outcome =
      env.rank() == failing_rank ? ctx.gatherv(&mine, 1, recv.data(), counts, displs, 0) : ctx.barrier();
  return expect_failure(ctx, outcome, dtl::status_code::invalid_argument, different_calls);
}

int scatterv_vs_broadcast(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const auto n = static_cast<std::size_t>(ctx.size());
  std::vector<int> send(n, 7);
  std::vector<std::size_t> counts(n, 1), displs(n);
  for (std::size_t r = 0; r < n; ++r) displs[r] = r;
  int x = ctx.rank();
  const auto outcome =
      env.rank() == failing_rank ? ctx.scatterv(send.data(), counts, displs, &x, 1, 0) : ctx.broadcast(&x, 1, 0);
  return expect_failure(ctx, outcome, dtl::status_code::invalid_argument, different_calls);
}

// Rank 0 says it sends SIZE_MAX chars to the failing rank, which expects 5: caught by the count check on
// every rank (the failing rank's invalid_argument, collective_failure elsewhere), before anything moves.
int alltoallv_size_max(int& argc, char**& argv) {
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const auto n = static_cast<std::size_t>(ctx.size());
  const auto me = static_cast<std::size_t>(ctx.rank());
  constexpr auto to_failing = static_cast<std::size_t>(failing_rank);
  std::vector<char> send(5, 's'), recv(5, 'r');
  std::vector<std::size_t> send_counts(n, 0), recv_counts(n, 0), displs(n, 0);
  if (me == 0) send_counts[to_failing] = std::numeric_limits<std::size_t>::max();
  if (me == to_failing) recv_counts[0] = 5;
  const auto outcome = ctx.alltoallv(send.data(), send_counts, displs, recv.data(), recv_counts, displs);
  return expect_failure(ctx, outcome, dtl::status_code::collective_failure, "whose recv_counts[0] is 5");
}

// DTL_FAULT_SETTING=NAME=VALUE is set on the failing rank alone, before its environment starts (the
// rank from Open MPI's OMPI_COMM_WORLD_RANK or PMI's PMI_RANK, as MPI is not running yet): every rank's
// environment must fail with invalid_argument naming NAME and each rank's value, not start and then
// hang or overrun a buffer in its first message.
int setting_one_rank(int& argc, char**& argv) {
  const char* rank_text = std::getenv("OMPI_COMM_WORLD_RANK");
  if (rank_text == nullptr) rank_text = std::getenv("PMI_RANK");
  const char* setting = std::getenv("DTL_FAULT_SETTING");
  if (rank_text == nullptr || setting == nullptr) {
    std::fprintf(stderr, "setting-one-rank: needs DTL_FAULT_SETTING and mpiexec's rank variable\n");
    return 2;
  }
  const std::string_view name_value(setting);
  const std::size_t equals = name_value.find('=');
  const std::string name(name_value.substr(0, equals));
  if (std::atoi(rank_text) == failing_rank) setenv(name.c_str(), std::string(name_value.substr(equals + 1)).c_str(), 1);
  auto env = dtl::environment::create(argc, argv);
  if (env) {
    std::printf("rank %d: the environment started, with %s on rank %d only\n", env->rank(), setting, failing_rank);
    return 1;
  }
  const dtl::status& s = env.error();
  std::printf("rank %s: %s\n", rank_text, s.to_string().c_str());
  const bool named = std::string_view(s.message()).find(name) != std::string_view::npos;
  return s.code() == dtl::status_code::invalid_argument && named ? 0 : 1;
}

// A halo exchange begun on every rank and not ended when the environment ends: the end completes it
// (the ghosts hold the neighbours' edges); afterwards exchange_end() (when `end_it`) gives invalid_state
// and the vector's destructor calls no MPI (MPI is finalised).
int halo_in_flight_at_end(int& argc, char**& argv, bool end_it) {
  std::optional<dtl::distributed_vector<double>> v;
  int rank = -1, ranks = 0;
  {
    dtl::environment env(argc, argv);
    rank = env.rank();
    const auto ctx = env.make_world_context();
    ranks = ctx.size();
    v.emplace(4 * static_cast<std::size_t>(ranks), static_cast<double>(rank), ctx,
              dtl::halo{.prev = 1, .next = 1, .periodic = true});
    if (auto begun = v->halo().exchange_begin(); !begun) {
      std::fprintf(stderr, "rank %d: exchange_begin failed: %s\n", rank, begun.error().to_string().c_str());
      return 1;
    }
  }  // the environment ends here, the exchange in flight
  const double* all = v->local_data_with_ghosts();
  const double expect_prev = (rank + ranks - 1) % ranks, expect_next = (rank + 1) % ranks;
  if (all[0] != expect_prev || all[v->local_size_with_ghosts() - 1] != expect_next) {
    std::fprintf(stderr, "rank %d: the ghosts hold %g and %g, not the neighbours' %g and %g\n", rank, all[0],
                 all[v->local_size_with_ghosts() - 1], expect_prev, expect_next);
    return 1;
  }
  if (end_it) {
    const auto late = v->halo().exchange_end();
    if (late || late.error().code() != dtl::status_code::invalid_state) {
      std::fprintf(stderr, "rank %d: exchange_end after the environment ended did not give invalid_state\n", rank);
      return 1;
    }
    std::printf("rank %d: exchange_end after the environment ended: %s\n", rank, late.error().to_string().c_str());
  }
  v.reset();
  std::printf("rank %d: the vector is gone\n", rank);
  return 0;
}

// The same for the N-d halo exchange: a grid plan's exchange begun on every rank (a periodic ring of 4
// elements each) and not ended when the environment ends.
int grid_halo_in_flight_at_end(int& argc, char**& argv) {
  std::vector<double> padded;
  dtl::detail::grid_halo_plan_ptr plan;
  int rank = -1, ranks = 0;
  {
    dtl::environment env(argc, argv);
    rank = env.rank();
    const auto ctx = env.make_world_context();
    ranks = ctx.size();
    const dtl::grid_decomposition<1> dec(dtl::process_grid<1>(ranks, {}, {true}), {4 * static_cast<std::size_t>(ranks)},
                                         {1});
    padded.assign(dec.padded_size(rank), static_cast<double>(rank));
    auto made = dtl::detail::make_grid_halo_plan(ctx, dec, sizeof(double));
    if (!made || !dtl::detail::grid_halo_exchange_begin(**made, padded.data()).ok()) {
      std::fprintf(stderr, "rank %d: the plan or its exchange_begin failed\n", rank);
      return 1;
    }
    plan = std::move(*made);
  }  // the environment ends here, the exchange in flight
  const double expect_prev = (rank + ranks - 1) % ranks, expect_next = (rank + 1) % ranks;
  if (padded.front() != expect_prev || padded.back() != expect_next) {
    std::fprintf(stderr, "rank %d: the ghosts hold %g and %g, not the neighbours' %g and %g\n", rank, padded.front(),
                 padded.back(), expect_prev, expect_next);
    return 1;
  }
  const dtl::status late = dtl::detail::grid_halo_exchange_end(*plan);
  if (late.code() != dtl::status_code::invalid_state) {
    std::fprintf(stderr, "rank %d: exchange_end after the environment ended did not give invalid_state\n", rank);
    return 1;
  }
  std::printf("rank %d: exchange_end after the environment ended: %s\n", rank, late.to_string().c_str());
  plan.reset();
  std::printf("rank %d: the plan is gone\n", rank);
  return 0;
}

int halo_end_after_environment(int& argc, char**& argv) { return halo_in_flight_at_end(argc, argv, true); }
int halo_destroyed_after_environment(int& argc, char**& argv) { return halo_in_flight_at_end(argc, argv, false); }

// A one-sided window that outlives its environment while it holds a lock_all epoch: its destructor
// releases the epoch and frees the window without calling MPI after MPI_Finalize.
int rma_window_after_environment(int& argc, char**& argv) {
  std::vector<std::int64_t> region(4, 0);
  std::optional<dtl::memory_window> window;
  int rank = -1;
  {
    dtl::environment env(argc, argv);
    rank = env.rank();
    const auto ctx = env.make_world_context();
    auto made = dtl::memory_window::create(ctx, region.data(), region.size() * sizeof(std::int64_t));
    if (!made || !made->lock_all()) {
      std::fprintf(stderr, "rank %d: the window or its lock_all failed\n", rank);
      return 1;
    }
    window.emplace(std::move(*made));
  }  // the environment ends here, the epoch open
  if (auto late = window->unlock_all(); late) {
    std::fprintf(stderr, "rank %d: unlock_all after the environment ended succeeded\n", rank);
    return 1;
  }
  window.reset();
  std::printf("rank %d: the window is gone\n", rank);
  return 0;
}

struct fault_case {
  std::string_view name;
  int (*run)(int& argc, char**& argv);
};

constexpr fault_case cases[] = {
    {"throw-one-rank", throw_one_rank},
    {"throw-opt-out", throw_opt_out},
    {"throw-escapes-main", throw_escapes_main},
    {"abort", abort_job},
    {"env-abort", environment_abort},
    {"abort-after-finalize", abort_after_finalize},
    {"rank-dies", rank_dies},
    {"skip-collective", skip_collective},
    {"late-rank", late_rank},
    {"alltoallv-vs-allreduce", alltoallv_vs_allreduce},
    {"gatherv-vs-barrier", gatherv_vs_barrier},
    {"scatterv-vs-broadcast", scatterv_vs_broadcast},
    {"alltoallv-size-max", alltoallv_size_max},
    {"setting-one-rank-message-limit", setting_one_rank},
    {"setting-one-rank-unreadable", setting_one_rank},
    {"setting-one-rank-agreement", setting_one_rank},
    {"setting-one-rank-timeout", setting_one_rank},
    {"halo-end-after-environment", halo_end_after_environment},
    {"halo-destroyed-after-environment", halo_destroyed_after_environment},
    {"grid-halo-end-after-environment", grid_halo_in_flight_at_end},
    {"rma-window-after-environment", rma_window_after_environment},
};

}  // namespace

int main(int argc, char** argv) {
  const std::string_view wanted = argc > 1 ? argv[1] : "";
  for (const fault_case& c : cases)
    if (c.name == wanted) return c.run(argc, argv);
  std::fprintf(stderr, "usage: fault_cases <case>, one of:");
  for (const fault_case& c : cases) std::fprintf(stderr, " %.*s", static_cast<int>(c.name.size()), c.name.data());
  std::fprintf(stderr, "\n");
  return 2;
}
