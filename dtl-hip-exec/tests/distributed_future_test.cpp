// SPDX-License-Identifier: MIT
// dtl::hip::to_distributed_future: a hip::future completed by a progress engine (here with host
// completion sources, no device needed) as upstream DTL's distributed_future. Waiting on it, and on
// what then() / when_all make from it, drives the engine: no background poller is running.
#include "doctest.hpp"

#include <dtl/futures/futures.hpp>
#include <dtl/hip/distributed_future.hpp>
#include <dtl/hip/event_poller.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <tuple>

using namespace std::chrono_literals;
using dtl::event_status;
using dtl::hip::event_poller;

namespace {

auto when_set(const std::shared_ptr<std::atomic<bool>>& flag) {
  return [flag] { return flag->load() ? event_status::complete() : event_status::pending(); };
}

}  // namespace

TEST_SUITE("distributed_future") {
  TEST_CASE("completes once the engine sees the work done; waiting drives the engine") {
    event_poller engine;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    dtl::distributed_future<int> f = dtl::hip::to_distributed_future(std::move(w.done).then([] { return 20; }));
    CHECK_FALSE(f.is_ready());
    CHECK(f.wait_for(2ms) == dtl::future_status::timeout);  // the work is not done: polling finds nothing
    auto g = f.then([](int x) { return x + 1; });
    std::thread later([&] {
      std::this_thread::sleep_for(5ms);
      flag->store(true);
    });
    CHECK_FALSE(engine.background_running());
    CHECK(g.get() == 21);  // g's wait drives the engine that completes f
    later.join();
    CHECK(f.is_ready());
  }

  TEST_CASE("the engine's error reaches get()") {
    event_poller engine;
    auto w =
        engine.watch([] { return event_status::failed(dtl::status(dtl::status_code::hip_error, "device fault")); });
    auto f = dtl::hip::to_distributed_future(std::move(w.done));
    CHECK_THROWS_WITH_AS(f.get(), doctest::Contains("device fault"), dtl::status_error);
    auto empty = dtl::hip::to_distributed_future(dtl::hip::future<int>());
    CHECK(empty.get_result().error().code() == dtl::status_code::invalid_state);
  }

  TEST_CASE("when_all of GPU-side and host futures") {
    event_poller engine;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    dtl::distributed_promise<int> p;
    auto all = dtl::when_all(dtl::hip::to_distributed_future(std::move(w.done)), p.get_future(),
                             dtl::make_ready_distributed_future(3));
    p.set_value(2);
    CHECK(all.wait_for(1ms) == dtl::future_status::timeout);
    flag->store(true);
    auto [none, two, three] = all.get();  // completes by driving the engine
    (void)none;
    CHECK(two + three == 5);
  }

  TEST_CASE("with a background poller the continuation runs on the poller") {
    event_poller engine;
    REQUIRE(engine.start_background(10us).has_value());
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    std::atomic<bool> ran{false};
    auto f = dtl::hip::to_distributed_future(std::move(w.done)).then([&] { ran = true; });
    flag->store(true);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!ran.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    CHECK(ran.load());  // nobody waited on f: the poller completed it
    CHECK(f.wait_for(0ms) == dtl::future_status::ready);
    CHECK(engine.stop_background().has_value());
  }

  TEST_CASE("upstream's explicit poll() completes it and runs its continuation, nobody waiting") {
    event_poller engine;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch(when_set(flag));
    std::atomic<int> seen{0};
    auto f = dtl::hip::to_distributed_future(std::move(w.done).then([] { return 6; }));
    auto g = f.then([&](int x) {
      seen = x * 7;
      return x;
    });
    CHECK(dtl::futures::poll() >= 1);  // pending: the callback drove the engine, which found nothing done
    CHECK_FALSE(f.is_ready());
    flag->store(true);
    CHECK(dtl::futures::poll_until([&] { return g.is_ready(); }, std::chrono::milliseconds(5000)));
    CHECK(seen == 42);
    CHECK(dtl::futures::drain_progress(1000));  // its callback reported done and left the list
  }
}
