// SPDX-License-Identifier: MIT
// Programs that end an MPI job on purpose, one case per run: `fault_cases <case>` under mpiexec, checked
// by run_fault.py (how the job ended, what it printed, that it did not hang). A doctest case cannot
// check them: the job ends. To add one, write a function and give it a row in `cases` below.
#include <dtl/containers/communication/abort.hpp>
#include <dtl/containers/communication/environment.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <thread>

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
