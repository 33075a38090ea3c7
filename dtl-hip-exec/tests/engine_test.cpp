// SPDX-License-Identifier: MIT
// The progress engine with host completion sources (no device needed): polling from many threads,
// re-entrant waits, isolation of failures, unwatch during a poll, the background thread, shutdown.
#include "doctest.hpp"

#include <dtl/hip/event_poller.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using dtl::event_status;
using dtl::status;
using dtl::status_code;
using dtl::hip::event_poller;
using dtl::hip::future;

namespace {

/// A source that completes once `flag` is set.
auto when_set(const std::shared_ptr<std::atomic<bool>>& flag) {
  return [flag] { return flag->load() ? event_status::complete() : event_status::pending(); };
}

}  // namespace

TEST_SUITE("engine") {
  TEST_CASE("a watched source completes its future when polled") {
    event_poller engine;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    CHECK(w.id != 0);
    CHECK(engine.pending() == 1);
    CHECK(engine.poll() == 0);
    CHECK(w.done.query().is_pending());
    flag->store(true);
    CHECK(engine.poll() == 1);
    CHECK(engine.pending() == 0);
    CHECK(w.done.get_result(0ns).has_value());
  }

  TEST_CASE("waiting on a future drives its engine; no poller is needed") {
    event_poller engine;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    std::thread later([&] {
      std::this_thread::sleep_for(5ms);
      flag->store(true);
    });
    CHECK(w.done.get_result(10s).has_value());
    later.join();
  }

  TEST_CASE("a failed or throwing source fails its own future only") {
    event_poller engine;
    auto bad = engine.watch([] { return event_status::failed(status(status_code::hip_error, "device fault")); });
    auto throwing = engine.watch([]() -> event_status { throw std::runtime_error("poll threw"); });
    auto good = engine.watch([] { return event_status::complete(); });
    CHECK(engine.poll() == 3);
    CHECK(bad.done.get_result(0ns).error().code() == status_code::hip_error);
    CHECK(throwing.done.get_result(0ns).error().code() == status_code::unknown_error);
    CHECK(good.done.get_result(0ns).has_value());
  }

  TEST_CASE("a throwing continuation in one completion loses no other completion") {
    event_poller engine;
    std::atomic<int> ran{0};
    std::vector<future<void>> after;
    for (int i = 0; i < 10; ++i) {
      auto w = engine.watch([] { return event_status::complete(); });
      after.push_back(std::move(w.done).then([&ran, i] {
        ran.fetch_add(1);
        if (i % 3 == 0) throw std::runtime_error("continuation failed");
      }));
    }
    CHECK(engine.poll() == 10);
    CHECK(ran.load() == 10);
    for (int i = 0; i < 10; ++i) {
      auto r = after[static_cast<std::size_t>(i)].get_result(0ns);
      CHECK(r.has_value() == (i % 3 != 0));
    }
  }

  TEST_CASE("a continuation may wait on another future completed by the same poll") {
    event_poller engine;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto a = engine.watch(when_set(flag));
    auto b = engine.watch(when_set(flag));
    std::shared_ptr<future<void>> fb = std::make_shared<future<void>>(std::move(b.done));
    std::atomic<bool> inner_ok{false};
    auto chained = std::move(a.done).then([fb, &inner_ok] { inner_ok = fb->get_result(5s).has_value(); });
    flag->store(true);
    engine.poll();
    CHECK(chained.get_result(5s).has_value());
    CHECK(inner_ok.load());
  }

  TEST_CASE("8 threads poll at once: every completion happens exactly once") {
    event_poller engine;
    constexpr int n = 4000;
    auto go = std::make_shared<std::atomic<bool>>(false);
    std::vector<std::atomic<int>> hits(n);
    std::vector<future<void>> done;
    for (int i = 0; i < n; ++i) {
      auto w = engine.watch(when_set(go));
      done.push_back(std::move(w.done).then([&hits, i] { hits[static_cast<std::size_t>(i)].fetch_add(1); }));
    }
    std::atomic<std::size_t> completed{0};
    std::vector<std::thread> pollers;
    for (int t = 0; t < 8; ++t)
      pollers.emplace_back([&] {
        const auto deadline = std::chrono::steady_clock::now() + 30s;
        while (engine.pending() > 0 && std::chrono::steady_clock::now() < deadline) completed += engine.poll();
      });
    std::this_thread::sleep_for(2ms);
    go->store(true);
    for (auto& t : pollers) t.join();
    CHECK(completed.load() == n);  // each completion was counted by exactly one poller
    CHECK(engine.pending() == 0);
    for (auto& h : hits) CHECK(h.load() == 1);
    CHECK(dtl::hip::when_all(std::move(done)).get_result(0ns).has_value());
  }

  TEST_CASE("unwatch while another thread is inside the poll function waits for it") {
    event_poller engine;
    std::atomic<bool> inside{false};
    std::atomic<bool> leave{false};
    std::atomic<int> calls_after_unwatch{0};
    std::atomic<bool> unwatched{false};
    auto w = engine.watch([&] {
      if (unwatched.load()) calls_after_unwatch.fetch_add(1);
      inside = true;
      while (!leave.load()) std::this_thread::yield();
      inside = false;
      return event_status::pending();
    });
    std::thread poller([&] { engine.poll(); });
    while (!inside.load()) std::this_thread::yield();
    std::thread remover([&] {
      CHECK(engine.unwatch(w.id));
      unwatched = true;
      CHECK_FALSE(inside.load());  // unwatch returned only after the call had finished
    });
    std::this_thread::sleep_for(20ms);
    CHECK_FALSE(unwatched.load());  // still blocked: the poll function is running
    leave = true;
    remover.join();
    poller.join();
    for (int i = 0; i < 5; ++i) engine.poll();
    CHECK(calls_after_unwatch.load() == 0);
    CHECK(w.done.get_result(0ns).error().code() == status_code::canceled);
    CHECK_FALSE(engine.unwatch(w.id));
    CHECK(engine.pending() == 0);
  }

  TEST_CASE("a source may unwatch itself from inside its poll function") {
    event_poller engine;
    std::uint64_t self = 0;
    int calls = 0;
    auto w = engine.watch([&] {
      ++calls;
      CHECK(engine.unwatch(self));
      return event_status::pending();
    });
    self = w.id;
    engine.poll();
    engine.poll();
    CHECK(calls == 1);
    CHECK(w.done.get_result(0ns).error().code() == status_code::canceled);
    CHECK(engine.pending() == 0);
  }

  TEST_CASE("a poll function may unwatch another source of the same pass; that one is not called again") {
    event_poller engine;
    std::atomic<int> b_calls{0};
    std::uint64_t b_id = 0;
    bool unwatched = false;
    auto a = engine.watch([&] {
      unwatched = engine.unwatch(b_id);
      return event_status::complete();
    });
    auto b = engine.watch([&] {
      b_calls.fetch_add(1);
      return event_status::pending();
    });
    b_id = b.id;
    CHECK(engine.poll() == 1);
    CHECK(unwatched);
    CHECK(b_calls.load() == 0);
    CHECK(a.done.get_result(0ns).has_value());
    CHECK(b.done.get_result(0ns).error().code() == status_code::canceled);
    CHECK(engine.pending() == 0);
  }

  TEST_CASE("two poll functions on two threads may unwatch each other: no deadlock") {
    // Poller 1 is inside A's poll function, poller 2 inside B's; each then unwatches the other.
    // Waiting there for the other's call to return would wait forever.
    struct shared {
      event_poller engine;
      std::atomic<bool> a_inside{false};
      std::atomic<bool> b_inside{false};
      std::atomic<std::uint64_t> a_id{0};
      std::atomic<std::uint64_t> b_id{0};
      std::atomic<int> a_unwatched_b{-1};
      std::atomic<int> b_unwatched_a{-1};
      std::atomic<int> pollers_done{0};
    };
    // Leaked if the test fails: deadlocked threads would still be using it.
    auto* s = new shared;
    const auto wait_for = [](const std::atomic<bool>& flag) {
      const auto give_up = std::chrono::steady_clock::now() + 10s;
      while (!flag.load() && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    };
    auto a = s->engine.watch([s, wait_for] {
      s->a_inside = true;
      wait_for(s->b_inside);
      s->a_unwatched_b = s->engine.unwatch(s->b_id.load()) ? 1 : 0;
      return event_status::pending();
    });
    s->a_id = a.id;
    std::thread poller1([s] {
      s->engine.poll();
      ++s->pollers_done;
    });
    wait_for(s->a_inside);  // A is claimed by poller 1: poller 2 can only claim B
    auto b = s->engine.watch([s, wait_for] {
      s->b_inside = true;
      wait_for(s->a_inside);
      s->b_unwatched_a = s->engine.unwatch(s->a_id.load()) ? 1 : 0;
      return event_status::pending();
    });
    s->b_id = b.id;
    std::thread poller2([s] {
      s->engine.poll();
      ++s->pollers_done;
    });
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (s->pollers_done.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    if (s->pollers_done.load() < 2) {
      poller1.detach();
      poller2.detach();
      FAIL("deadlock: the two pollers still wait for each other after 10 s");
    }
    poller1.join();
    poller2.join();
    CHECK(s->a_unwatched_b.load() == 1);
    CHECK(s->b_unwatched_a.load() == 1);
    CHECK(a.done.get_result(0ns).error().code() == status_code::canceled);
    CHECK(b.done.get_result(0ns).error().code() == status_code::canceled);
    CHECK(s->engine.pending() == 0);
    s->engine.poll();  // neither function is called again
    CHECK_FALSE(s->engine.unwatch(a.id));
    delete s;
  }

  TEST_CASE("the background thread completes futures nobody polls") {
    event_poller engine;
    REQUIRE(engine.start_background(50us).has_value());
    CHECK(engine.background_running());
    CHECK(engine.start_background().error().code() == status_code::invalid_state);
    std::this_thread::sleep_for(5ms);  // let it fall asleep with nothing pending
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    std::atomic<bool> continued{false};
    auto f = std::move(w.done).then([&] { continued = true; });
    flag->store(true);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!continued.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(100us);
    CHECK(continued.load());
    CHECK(f.synchronize(10s).has_value());
    REQUIRE(engine.stop_background().has_value());
    CHECK_FALSE(engine.background_running());
    CHECK(engine.stop_background().has_value());  // no-op
  }

  TEST_CASE("with a background poller a long wait sleeps: the waiter stops polling after a short spin") {
    event_poller engine;
    REQUIRE(engine.start_background(50us).has_value());
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::atomic<std::thread::id> waiter_id{};
    std::atomic<int> polls_by_waiter{0};
    auto w = engine.watch([&, done] {
      if (std::this_thread::get_id() == waiter_id.load()) polls_by_waiter.fetch_add(1);
      return done->load() ? event_status::complete() : event_status::pending();
    });
    std::atomic<bool> got{false};
    std::thread waiter([&] {
      waiter_id = std::this_thread::get_id();
      got = w.done.get_result(10s).has_value();
    });
    std::this_thread::sleep_for(200ms);  // a "long kernel": polling every 5-200 us would be 1000+ calls
    done->store(true);
    waiter.join();
    CHECK(got.load());
    CHECK(polls_by_waiter.load() <= 64);  // the spin before sleeping, nothing after it
    CHECK(engine.stop_background().has_value());
  }

  TEST_CASE("a sleeping waiter goes back to polling when the background poller stops") {
    event_poller engine;
    REQUIRE(engine.start_background(50us).has_value());
    auto done = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(done));
    std::atomic<bool> got{false};
    std::thread waiter([&] { got = w.done.get_result(10s).has_value(); });
    std::this_thread::sleep_for(50ms);  // the waiter sleeps, relying on the background poller
    REQUIRE(engine.stop_background().has_value());
    done->store(true);  // now only the waiter itself can notice
    const auto start = std::chrono::steady_clock::now();
    waiter.join();
    CHECK(got.load());
    CHECK(std::chrono::steady_clock::now() - start < 5s);
  }

  TEST_CASE("stop_background from the background thread is refused, not a deadlock") {
    event_poller engine;
    dtl::hip::scoped_background_progress bg(engine, 20us);
    REQUIRE(bg.started().ok());
    std::atomic<bool> done{false};
    std::atomic<int> code{-1};
    std::thread::id ran_on;
    auto go = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(go));
    // Nobody but the background thread polls here (waiting on `done` drives nothing).
    auto f = std::move(w.done).then([&] {
      ran_on = std::this_thread::get_id();
      code = static_cast<int>(engine.stop_background().error().code());
      done = true;
    });
    go->store(true);  // only now, so that the continuation is attached before it can complete
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(100us);
    REQUIRE(done.load());
    CHECK(ran_on != std::this_thread::get_id());
    CHECK(code.load() == static_cast<int>(status_code::invalid_state));
    CHECK(engine.background_running());
  }

  TEST_CASE("synchronize polls until nothing is pending, or times out") {
    event_poller engine;
    int countdown = 3;
    auto w = engine.watch([&] { return --countdown == 0 ? event_status::complete() : event_status::pending(); });
    CHECK(engine.synchronize(5s).has_value());
    CHECK(w.done.query().is_complete());
    auto never = engine.watch([] { return event_status::pending(); });
    CHECK(engine.synchronize(5ms).error().code() == status_code::timeout);
    CHECK(engine.unwatch(never.id));
  }

  TEST_CASE("destroying an engine cancels what is pending; waiting afterwards is safe") {
    future<void> orphan;
    future<void> finished;
    {
      event_poller engine;
      orphan = engine.watch([] { return event_status::pending(); }).done;
      finished = engine.watch([] { return event_status::complete(); }).done;
      CHECK(engine.pending() == 2);
    }
    CHECK(orphan.get_result(1s).error().code() == status_code::canceled);
    CHECK(finished.get_result(1s).error().code() == status_code::canceled);  // never polled before shutdown
  }

  TEST_CASE("the global engine is one object") { CHECK(&event_poller::global() == &event_poller::global()); }
}
