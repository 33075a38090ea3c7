// SPDX-License-Identifier: MIT
// Upstream DTL's futures services: wait timeouts and diagnostics, shared_state used directly, completion
// sets, the background progress thread and the callback executor.
#include "doctest.hpp"

#include <dtl/futures/futures.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

namespace {
/// Sets the global timeout settings for a scope.
struct timeout_settings {
  explicit timeout_settings(dtl::timeout_config c) : saved(dtl::global_timeout_config()) {
    dtl::set_global_timeout_config(std::move(c));
  }
  ~timeout_settings() { dtl::set_global_timeout_config(saved); }
  dtl::timeout_config saved;
};
}  // namespace

TEST_SUITE("futures_services") {
  TEST_CASE("wait() gives up after the configured timeout, with a report") {
    std::string report;
    auto config = dtl::timeout_config::defaults();
    config.default_wait_timeout = config.ci_wait_timeout = 20ms;
    config.on_timeout_callback = [&](const std::string& text) { report = text; };
    const timeout_settings scope(config);
    const auto id = dtl::diagnostic_collector::instance().register_future("the pending exchange");
    dtl::distributed_promise<int> promise;
    auto future = promise.get_future();
    const auto start = std::chrono::steady_clock::now();
    try {
      future.wait();
      FAIL("wait() returned without a value");
    } catch (const dtl::timeout_exception& e) {
      CHECK(std::string(e.what()).find("20ms") != std::string::npos);
      CHECK(e.diagnostics().pending_future_count >= 1);
    }
    CHECK(std::chrono::steady_clock::now() - start >= 20ms);
    CHECK(report.find("DTL Futures Diagnostics") != std::string::npos);
    CHECK(report.find("the pending exchange") != std::string::npos);
    dtl::diagnostic_collector::instance().unregister_future(id);
    CHECK(future.valid());  // still waitable
    promise.set_value(5);
    CHECK(future.get() == 5);
  }

  TEST_CASE("no_timeout waits as long as it takes; the snapshot counts the engine's passes") {
    const timeout_settings scope(dtl::timeout_config::no_timeout());
    CHECK(dtl::effective_wait_timeout() == 0ms);
    dtl::distributed_promise<int> promise;
    auto future = promise.get_future();
    std::thread setter([&] {
      std::this_thread::sleep_for(30ms);
      promise.set_value(1);
    });
    future.wait();
    setter.join();
    CHECK(future.get() == 1);
    const auto before = dtl::diagnostic_collector::instance().total_polls();
    (void)dtl::poll();
    dtl::diagnostic_collector::instance().record_poll();
    CHECK(dtl::diagnostic_collector::instance().total_polls() == before + 2);
  }

  TEST_CASE("a shared_state completed and read directly") {
    dtl::shared_state<std::string> state;
    CHECK_FALSE(state.is_ready());
    CHECK(state.set_value("done"));
    CHECK_FALSE(state.set_error(dtl::status(dtl::status_code::timeout)));  // completes once
    CHECK(state.is_ready());
    CHECK_FALSE(state.has_error());
    CHECK(state.get() == "done");
    dtl::shared_state<void> failed;
    failed.set_error(dtl::status(dtl::status_code::canceled));
    CHECK(failed.has_error());
    CHECK_THROWS_AS(failed.get(), dtl::status_error);
  }

  TEST_CASE("completion sets: all, any, and a token that outlives its set") {
    std::shared_ptr<dtl::completion_token> late;
    {
      auto set = std::make_shared<dtl::completion_set>(2);
      auto a = set->create_token(0);
      late = set->create_token(1);
      int calls = 0;
      set->on_complete([&] { ++calls; });
      a->fail();
      CHECK_FALSE(set->is_complete());
      CHECK(set->completed_count() == 1);
      dtl::futures::scoped_progress_callback work([&] {
        late->complete();
        return false;
      });
      CHECK(dtl::completion_waiter(set).wait());
      CHECK(calls == 1);
      CHECK(late->is_success());
      CHECK_FALSE(a->is_success());
    }
    late->fail();  // ignored, and its set is gone
    CHECK(late->is_success());
    dtl::completion_set any(3, dtl::completion_set::mode::any);
    CHECK(any.first_completed() == 3);
    any.create_token(2)->complete();
    CHECK(any.is_complete());
    CHECK(any.first_completed() == 2);
  }

  TEST_CASE("the background thread runs registered callbacks without the program polling") {
    auto& controller = dtl::background_progress_controller::instance();
    REQUIRE_FALSE(controller.is_running());
    std::atomic<int> runs{0};
    {
      dtl::scoped_background_progress bg(dtl::background_progress_config::aggressive_background());
      dtl::start_background_progress();  // already running: kept as is
      CHECK(controller.config().poll_interval == 10us);
      dtl::progress_engine::instance().register_callback([&] { return ++runs < 3; });
      const auto deadline = std::chrono::steady_clock::now() + 5s;
      while (runs.load() < 3 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
      CHECK(runs.load() == 3);
      CHECK(dtl::diagnostic_collector::instance().get_diagnostics().background_thread_running);
    }
    CHECK_FALSE(dtl::is_background_progress_enabled());
    const auto polls = controller.poll_count();
    std::this_thread::sleep_for(5ms);
    CHECK(controller.poll_count() == polls);  // stopped means stopped
  }

  TEST_CASE("the callback executor: one thread in order, a pool in parallel, inline at once") {
    std::vector<int> order;
    {
      dtl::callback_executor one;
      for (int i = 0; i < 50; ++i) CHECK(one.enqueue([&order, i] { order.push_back(i); }));
      one.enqueue([] { throw std::runtime_error("dropped"); });
      one.drain();
      CHECK(one.total_executed() == 51);
    }
    REQUIRE(order.size() == 50);
    for (int i = 0; i < 50; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);

    dtl::callback_executor pool(dtl::executor_config::thread_pool_execution(3));
    std::atomic<int> inside{0};
    std::atomic<int> most{0};
    for (int i = 0; i < 9; ++i) {
      pool.enqueue([&] {
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::sleep_for(10ms);
        --inside;
      });
    }
    pool.shutdown();  // runs what is queued, then refuses
    CHECK(pool.total_executed() == 9);
    CHECK(most.load() >= 2);
    CHECK_FALSE(pool.enqueue([] {}));

    dtl::callback_executor here(dtl::executor_config::inline_execution());
    bool ran = false;
    here.enqueue([&] { ran = true; });
    CHECK(ran);
  }

  TEST_CASE("a bounded queue refuses while full") {
    auto config = dtl::executor_config::defaults();
    config.max_queue_depth = 1;
    dtl::callback_executor ex(config);
    std::atomic<bool> release{false};
    std::atomic<bool> started{false};
    ex.enqueue([&] {
      started = true;
      while (!release.load()) std::this_thread::yield();
    });
    while (!started.load()) std::this_thread::yield();
    CHECK(ex.enqueue([] {}));        // waits in the queue
    CHECK_FALSE(ex.enqueue([] {}));  // the queue is full
    release = true;
    ex.drain();
    CHECK(ex.pending_count() == 0);
    CHECK(ex.total_enqueued() == 2);
  }
}
