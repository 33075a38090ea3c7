// SPDX-License-Identifier: MIT
// Collectives from several threads, at the MPI thread level DTL_MPI_THREAD_LEVEL asks for (meson.build
// runs each suite under mpiexec with 2 and 3 ranks, at the levels where it means something):
//   threads.own_contexts    serialized, multiple: two threads, each on its own context, finish with
//                           every result right (no thread may hold the others up across a blocking call)
//   threads.shared_context  serialized, multiple: two threads on ONE context at once. DTL refuses the
//                           overlapping call ("another thread") and the context fails on every rank from
//                           then on; nothing hangs, nothing crashes
//   threads.funneled        funneled, single: a collective from a thread other than the main one returns
//                           invalid_state while the main thread's collectives work
// Threads record what they saw and the main thread checks it after joining them all (doctest's checks
// stay on the main thread; a failure never leaves a thread running).
#include "test_environment.hpp"
#include "test_main.hpp"

#include <dtl/containers/communication/context.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <latch>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

// MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE, as dtl::environment::mpi_thread_level() reports them.
constexpr int level_serialized = 2;

/// What one thread saw over its calls.
struct thread_record {
  int ok = 0;
  int wrong = 0;              // ok, but not the right sum
  int wrong_before_fail = 0;  // of those, the ones before the first failure
  int failed = 0;
  int ok_after_fail = 0;            // calls that succeeded after the thread's first failure
  bool saw_another_thread = false;  // a failure was invalid_state naming "another thread"
  bool all_failures_invalid_state = true;
  std::string first_failure;  // its text, for the report
  std::string exception;      // what escaped the thread's body, if anything
};

/// Runs body(rec), keeping what escapes it in rec.exception (a thread must not end the program).
template <class Body>
void guarded(thread_record& rec, Body&& body) noexcept {
  try {
    body(rec);
  } catch (const std::exception& e) {
    rec.exception = e.what();
  } catch (...) {
    rec.exception = "an exception of unknown type";
  }
}

/// Runs body(t, record) on `count` threads that start together; joins them all before returning.
std::vector<thread_record> run_threads(int count, const std::function<void(int, thread_record&)>& body) {
  std::vector<thread_record> records(static_cast<std::size_t>(count));
  std::latch start(count);
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < count; ++t)
      threads.emplace_back([&, t] {
        start.arrive_and_wait();
        guarded(records[static_cast<std::size_t>(t)], [&](thread_record& rec) { body(t, rec); });
      });
  }  // std::jthread joins
  return records;
}

/// The value thread `t` on `rank` contributes in call `i`, and the sum over `ranks` ranks: calls that
/// pair with another thread's, or another call of the same thread, give another sum.
std::int64_t contribution(int t, int i, int rank) {
  return std::int64_t{t + 1} * 1'000'000'000 + std::int64_t{i} * 16 + rank;
}
std::int64_t expected_sum(int t, int i, int ranks) {
  return std::int64_t{ranks} * (std::int64_t{t + 1} * 1'000'000'000 + std::int64_t{i} * 16) +
         std::int64_t{ranks} * (ranks - 1) / 2;
}

/// `calls` allreduce_value calls of thread `t` on `ctx`, each one recorded (every call is made, failed
/// or not, so that every rank makes the same number of them).
void allreduce_calls(const dtl::context& ctx, int t, int calls, thread_record& rec) {
  const int ranks = ctx.rank_count();
  for (int i = 0; i < calls; ++i) {
    const dtl::result<std::int64_t> sum = ctx.allreduce_value(contribution(t, i, ctx.rank()), dtl::reduce_op::sum);
    if (sum) {
      ++rec.ok;
      if (rec.failed > 0) ++rec.ok_after_fail;
      if (*sum != expected_sum(t, i, ranks)) {
        ++rec.wrong;
        if (rec.failed == 0) ++rec.wrong_before_fail;
      }
      continue;
    }
    const dtl::status& s = sum.error();
    if (rec.failed++ == 0) rec.first_failure = s.to_string();
    if (s.code() != dtl::status_code::invalid_state) rec.all_failures_invalid_state = false;
    if (s.code() == dtl::status_code::invalid_state && s.message().find("another thread") != std::string_view::npos)
      rec.saw_another_thread = true;
  }
}

/// `n` calls, or a tenth of them where DTL_THREADS_TEST_QUICK is set (the ThreadSanitizer build, where
/// MPI runs many times slower): enough to overlap, short enough for CI.
int calls_per_thread(int n) { return std::getenv("DTL_THREADS_TEST_QUICK") != nullptr ? n / 10 : n; }

/// The thread level this run asked for (DTL_MPI_THREAD_LEVEL, as the environment reads it).
int asked_level() {
  const char* text = std::getenv("DTL_MPI_THREAD_LEVEL");
  const std::string_view value = text != nullptr ? text : "";
  if (value == "single") return 0;
  if (value == "funneled") return 1;
  if (value == "serialized") return 2;
  return 3;
}

/// A fresh context (of every rank) to sum a count over the ranks after a test has spoilt its own.
int sum_over_ranks(int value) { return test_support::world().allreduce_value(value, dtl::reduce_op::sum).value(); }

// These tests measure the thread level they name: where MPI granted another one, they skip.
[[maybe_unused]] const bool registered = [] {
  dtl_test::add_requirement(
      "granted-thread-level",
      [](int) -> std::string {
        const int granted = test_support::environment()->mpi_thread_level();
        if (granted == asked_level()) return {};
        return "MPI granted thread level " + std::to_string(granted) + ", not the " + std::to_string(asked_level()) +
               " that DTL_MPI_THREAD_LEVEL asks for";
      },
      dtl_test::stage::in_session);
  return true;
}();

}  // namespace

TEST_SUITE("threads.own_contexts") {
  TEST_CASE("two threads, each on its own context, every result right") {
    REQUIRE_MESSAGE(test_support::environment()->mpi_thread_level() >= level_serialized,
                    "run at DTL_MPI_THREAD_LEVEL=serialized or multiple");
    // Made on the main thread in the same order on every rank: a duplicate of the world and a split.
    const dtl::context world = test_support::world();
    const std::vector<dtl::context> contexts{test_support::world(), world.split(0).value()};
    const int calls = calls_per_thread(3000);
    const auto records = run_threads(
        2, [&](int t, thread_record& rec) { allreduce_calls(contexts[static_cast<std::size_t>(t)], t, calls, rec); });
    for (std::size_t t = 0; t < records.size(); ++t) {
      CAPTURE(t);
      CHECK(records[t].exception == "");
      CHECK(records[t].ok == calls);
      CHECK(records[t].wrong == 0);
      CHECK_MESSAGE(records[t].failed == 0, records[t].first_failure);
    }
    // The contexts are still in step with each other's ranks.
    CHECK(contexts[0].allreduce_value(1, dtl::reduce_op::sum).value() == world.rank_count());
    CHECK(contexts[1].barrier().has_value());
  }
}

TEST_SUITE("threads.shared_context") {
  TEST_CASE("two threads on one context: the overlap is refused and the context fails on every rank") {
    REQUIRE_MESSAGE(test_support::environment()->mpi_thread_level() >= level_serialized,
                    "run at DTL_MPI_THREAD_LEVEL=serialized or multiple");
    const dtl::context shared = test_support::world();
    const int calls = calls_per_thread(20000);
    const auto records = run_threads(2, [&](int t, thread_record& rec) { allreduce_calls(shared, t, calls, rec); });

    int failed = 0, wrong_before_fail = 0, another_thread = 0;
    for (std::size_t t = 0; t < records.size(); ++t) {
      CAPTURE(t);
      CHECK(records[t].exception == "");
      CHECK(records[t].ok + records[t].failed == calls);
      // Once a thread's call failed, the context is unusable: nothing later succeeds.
      CHECK(records[t].ok_after_fail == 0);
      failed += records[t].failed;
      wrong_before_fail += records[t].wrong_before_fail;
      another_thread += records[t].saw_another_thread ? 1 : 0;
    }
    CHECK_MESSAGE(failed > 0, "no call failed on rank ", shared.rank(), " although two threads shared the context");
    // The context stays unusable on every rank, for any collective.
    CHECK_FALSE(shared.allreduce_value(1, dtl::reduce_op::sum).has_value());
    CHECK_FALSE(shared.barrier().has_value());

    // Some rank saw the overlap itself, and said so.
    CHECK(sum_over_ranks(another_thread) > 0);
    const int wrong_total = sum_over_ranks(wrong_before_fail);
    if (shared.rank() == 0)
      std::printf("threads.shared_context: %d results were wrong before the first failure (over %d ranks)\n",
                  wrong_total, shared.rank_count());
  }
}

TEST_SUITE("threads.funneled") {
  TEST_CASE("a collective from a second thread returns invalid_state; the main thread's collectives work") {
    REQUIRE_MESSAGE(test_support::environment()->mpi_thread_level() < level_serialized,
                    "run at DTL_MPI_THREAD_LEVEL=funneled or single");
    const dtl::context mains = test_support::world();
    const dtl::context workers = test_support::world();
    const int main_calls = calls_per_thread(2000), worker_calls = calls_per_thread(200);
    thread_record main_record, worker_record;
    int worker_rank_count = 0;
    bool worker_barrier_ok = true, worker_broadcast_ok = true;
    {
      std::latch start(2);
      std::jthread worker([&] {
        start.arrive_and_wait();
        guarded(worker_record, [&](thread_record& rec) {
          allreduce_calls(workers, 1, worker_calls, rec);
          worker_rank_count = workers.rank_count();  // not a collective: answered on any thread
          worker_barrier_ok = workers.barrier().has_value();
          std::int64_t value = 7;
          worker_broadcast_ok = workers.broadcast(&value, 1, 0).has_value();
        });
      });
      start.arrive_and_wait();
      guarded(main_record, [&](thread_record& rec) { allreduce_calls(mains, 0, main_calls, rec); });
    }  // std::jthread joins
    CHECK(main_record.exception == "");
    CHECK(main_record.ok == main_calls);
    CHECK(main_record.wrong == 0);
    CHECK_MESSAGE(main_record.failed == 0, main_record.first_failure);

    const thread_record& w = worker_record;
    CHECK(w.exception == "");
    CHECK(w.ok == 0);
    CHECK(w.failed == worker_calls);
    CHECK_MESSAGE(w.all_failures_invalid_state, w.first_failure);
    CHECK(worker_rank_count == mains.rank_count());
    CHECK_FALSE(worker_barrier_ok);
    CHECK_FALSE(worker_broadcast_ok);
  }
}
