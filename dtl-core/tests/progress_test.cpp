// SPDX-License-Identifier: MIT
// Upstream DTL's explicit progress API (dtl/futures/progress.hpp): callbacks run once per poll() until
// they report done, the bounded and timed forms, the RAII forms, and one poller at a time.
#include "doctest.hpp"

#include <dtl/futures/futures.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace std::chrono_literals;

TEST_SUITE("progress") {
  TEST_CASE("a callback runs once per poll until it reports done") {
    auto& engine = dtl::futures::progress_engine::instance();
    REQUIRE_FALSE(engine.has_pending());
    int runs = 0;
    engine.register_callback([&] { return ++runs < 3; });  // done on its third run
    CHECK(engine.pending_count() == 1);
    CHECK(dtl::poll() == 1);
    CHECK(dtl::futures::make_progress() == 1);
    CHECK(runs == 2);
    CHECK(engine.has_pending());
    CHECK(engine.poll() == 0);  // it ran, and reported done: upstream counts only those with more to do
    CHECK(runs == 3);
    CHECK_FALSE(engine.has_pending());
    CHECK(dtl::poll() == 0);  // nothing registered
    CHECK(runs == 3);
  }

  TEST_CASE("unregister, and the scoped registration") {
    auto& engine = dtl::progress_engine::instance();
    int a = 0;
    const auto id = engine.register_callback([&] {
      ++a;
      return true;
    });
    CHECK(dtl::poll() == 1);
    engine.unregister_callback(id);
    CHECK(dtl::poll() == 0);
    CHECK(a == 1);
    int b = 0;
    {
      dtl::scoped_progress_callback scoped([&] {
        ++b;
        return true;
      });
      CHECK(engine.pending_count() == 1);
      CHECK(dtl::make_progress(4) == 4);
    }
    CHECK(b == 4);
    CHECK_FALSE(engine.has_pending());
  }

  TEST_CASE("poll_one, drain_progress, make_progress(n), poll_for, poll_until") {
    CHECK_FALSE(dtl::poll_one());  // nothing to complete
    int left_a = 2, left_b = 5;
    dtl::progress_engine::instance().register_callback([&] { return --left_a > 0; });
    dtl::progress_engine::instance().register_callback([&] { return --left_b > 0; });
    CHECK(dtl::poll_one());  // polls until the first one is done: two passes
    CHECK(left_a == 0);
    CHECK(left_b == 3);
    CHECK_FALSE(dtl::drain_progress(2));  // two more passes leave b pending
    CHECK(left_b == 1);
    CHECK(dtl::drain_progress());
    CHECK(left_b == 0);
    CHECK(dtl::make_progress(10) == 0);  // stops at once: nothing registered

    std::atomic<int> ticks{0};
    dtl::progress_engine::instance().register_callback([&] { return ++ticks < 1000000; });
    CHECK(dtl::poll_until([&] { return ticks.load() >= 50; }));
    CHECK(ticks >= 50);
    CHECK_FALSE(dtl::poll_until([] { return false; }, 5ms));  // times out
    const auto before = ticks.load();
    CHECK(dtl::poll_for(2ms) > 0);
    CHECK(ticks > before);
    CHECK(dtl::drain_progress());  // the rest of its million runs
    CHECK(ticks == 1000000);
  }

  TEST_CASE("progress_guard polls when its scope ends, also through an exception") {
    int runs = 0;
    dtl::progress_engine::instance().register_callback([&] { return ++runs < 10; });
    try {
      dtl::progress_guard guard(3);
      guard.poll();
      CHECK(runs == 1);
      throw std::runtime_error("leaving early");
    } catch (const std::runtime_error&) {
    }
    CHECK(runs == 4);  // one by hand, three at the end of the scope
    CHECK(dtl::drain_progress());
  }

  TEST_CASE("a callback that throws is dropped, and poll goes on as upstream's does") {
    int other = 0;
    dtl::progress_engine::instance().register_callback([]() -> bool { throw std::runtime_error("broken"); });
    dtl::progress_engine::instance().register_callback([&] { return ++other < 2; });
    CHECK(dtl::poll() == 1);  // no exception; only the other counts (it has more to do)
    CHECK(other == 1);
    CHECK(dtl::progress_engine::instance().pending_count() == 1);
    CHECK(dtl::poll() == 0);  // the other reports done
    CHECK(other == 2);
    CHECK_FALSE(dtl::progress_engine::instance().has_pending());
  }

  TEST_CASE("one poller at a time: a callback never runs on two threads at once") {
    std::atomic<int> inside{0}, overlap{0}, runs{0};
    dtl::progress_engine::instance().register_callback([&] {
      if (inside.fetch_add(1) != 0) overlap.fetch_add(1);
      std::this_thread::sleep_for(50us);
      inside.fetch_sub(1);
      return runs.fetch_add(1) + 1 < 400;
    });
    std::thread other([] { dtl::drain_progress(); });
    dtl::drain_progress();
    other.join();
    CHECK(runs == 400);
    CHECK(overlap == 0);
  }

  TEST_CASE("a callback may register another") {
    int inner = 0;
    dtl::progress_engine::instance().register_callback([&] {
      dtl::progress_engine::instance().register_callback([&] {
        ++inner;
        return false;
      });
      return false;
    });
    CHECK(dtl::poll() == 0);  // the outer one reported done; the new one waits for the next pass
    CHECK(inner == 0);
    CHECK(dtl::progress_engine::instance().pending_count() == 1);
    CHECK(dtl::poll() == 0);
    CHECK(inner == 1);
    CHECK_FALSE(dtl::progress_engine::instance().has_pending());
  }
}
