// SPDX-License-Identifier: MIT
// Upstream DTL's futures (dtl/futures/*.hpp) on the host: promise and future, void, errors through get(),
// then-chains, when_all / when_any (including futures ready already), and a promise fulfilled from another
// thread. The distributed part (with a distributed_vector on 1-3 ranks) is in dtl-containers/tests.
#include "doctest.hpp"

#include <dtl/futures/futures.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <variant>
#include <vector>

using namespace std::chrono_literals;

TEST_SUITE("futures") {
  TEST_CASE("a promise's value reaches its future") {
    dtl::distributed_promise<int> p;
    auto f = p.get_future();
    CHECK(f.valid());
    CHECK_FALSE(f.is_ready());
    CHECK(f.wait_for(1ms) == dtl::future_status::timeout);
    p.set_value(42);
    CHECK(f.is_ready());
    CHECK(f.wait_for(0ms) == dtl::future_status::ready);
    f.wait();
    CHECK(f.get() == 42);
    CHECK_FALSE(f.valid());                              // get() consumes
    CHECK_THROWS_AS(p.set_value(1), dtl::status_error);  // satisfied once
  }

  TEST_CASE("void futures") {
    dtl::distributed_promise<void> p;
    auto f = p.get_future();
    CHECK_FALSE(f.is_ready());
    p.set_value();
    CHECK(f.wait_for(0ms) == dtl::future_status::ready);
    CHECK_NOTHROW(f.get());
    auto r = dtl::make_ready_distributed_future();
    CHECK(r.is_ready());
    CHECK(r.get_result().has_value());
  }

  TEST_CASE("an error reaches get() as dtl::status_error, get_result() as the status") {
    dtl::distributed_promise<double> p;
    auto f = p.get_future();
    auto g = p.get_future();  // a second future of the same state
    p.set_error(dtl::status(dtl::status_code::timeout, "the peer never answered"));
    CHECK(f.wait_for(0ms) == dtl::future_status::error);
    CHECK_THROWS_WITH_AS(static_cast<void>(f.get()), doctest::Contains("the peer never answered"), dtl::status_error);
    try {
      static_cast<void>(g.get());
      FAIL("get() returned");
    } catch (const std::runtime_error& e) {  // upstream's exception type, which status_error is
      CHECK(std::string(e.what()).find("the peer never answered") != std::string::npos);
    }
    auto failed = dtl::make_failed_distributed_future<int>(dtl::status(dtl::status_code::canceled, "x"));
    auto r = failed.get_result();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == dtl::status_code::canceled);
  }

  TEST_CASE("an invalid future") {
    dtl::distributed_future<int> f;
    CHECK_FALSE(f.valid());
    CHECK_FALSE(f.is_ready());
    CHECK(f.wait_for(1ms) == dtl::future_status::error);
    f.wait();  // returns at once
    CHECK_THROWS_AS(static_cast<void>(f.get()), dtl::status_error);
    auto t = f.then([](int x) { return x; });
    CHECK(t.get_result().error().code() == dtl::status_code::invalid_state);
  }

  TEST_CASE("a promise destroyed unsatisfied fails its future with canceled") {
    dtl::distributed_future<int> f;
    {
      dtl::distributed_promise<int> p;
      f = p.get_future();
      auto copy = p;  // copies share the state; only the last one's end counts
    }
    CHECK(f.get_result().error().code() == dtl::status_code::canceled);
  }

  TEST_CASE("then() runs when the input is ready, and chains") {
    dtl::distributed_promise<int> p;
    std::atomic<int> runs{0};
    auto doubled = p.get_future().then([&](int x) {
      ++runs;
      return x * 2;
    });
    auto text = doubled.then([&](int x) {
      ++runs;
      return "Result: " + std::to_string(x + 5);
    });
    CHECK(runs == 0);  // the input is not ready: nothing ran
    CHECK_FALSE(text.is_ready());
    p.set_value(10);
    CHECK(runs == 2);  // ran on this thread, which completed the input
    CHECK(text.get() == "Result: 25");

    // On a ready future the continuation runs at once; void in, void out.
    int seen = 0;
    auto v = dtl::make_ready_distributed_future().then([&] { seen = 7; });
    CHECK(seen == 7);
    CHECK(v.is_ready());
    auto chained = dtl::chain(
        dtl::make_ready_distributed_future(3), [](int x) { return x + 1; }, [](int x) { return x * 10; });
    CHECK(chained.get() == 40);
    CHECK(dtl::fmap(dtl::make_ready_distributed_future(2), [](int x) { return x * x; }).get() == 4);
  }

  TEST_CASE("errors pass through then(): the input's, and what a continuation throws") {
    bool ran = false;
    auto f =
        dtl::make_failed_distributed_future<int>(dtl::status(dtl::status_code::out_of_memory, "full")).then([&](int x) {
          ran = true;
          return x;
        });
    CHECK_FALSE(ran);
    auto r = f.get_result();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == dtl::status_code::out_of_memory);  // the original error, not a generic one

    auto g = dtl::make_ready_distributed_future(1).then([](int) -> int { throw std::logic_error("bad input"); });
    CHECK(g.wait_for(0ms) == dtl::future_status::error);
    CHECK_THROWS_WITH_AS(static_cast<void>(g.get()), doctest::Contains("bad input"), std::runtime_error);
    auto next = dtl::make_ready_distributed_future(1)
                    .then([](int) -> int { throw dtl::status_error(dtl::status(dtl::status_code::not_found, "k")); })
                    .then([](int x) { return x + 1; });
    CHECK(next.get_result().error().code() == dtl::status_code::not_found);

    auto recovered =
        dtl::on_error(dtl::make_failed_distributed_future<int>(dtl::status(dtl::status_code::timeout)),
                      [](const dtl::status& s) { return s.code() == dtl::status_code::timeout ? -1 : -2; });
    CHECK(recovered.get() == -1);
    CHECK(dtl::on_error(dtl::make_ready_distributed_future(5), [](const dtl::status&) { return 0; }).get() == 5);
  }

  TEST_CASE("when_all over several futures, some ready already") {
    dtl::distributed_promise<int> a;
    dtl::distributed_promise<void> c;
    auto all = dtl::when_all(a.get_future(), dtl::make_ready_distributed_future(std::string("b")), c.get_future(),
                             dtl::make_ready_distributed_future(2.5));
    static_assert(
        std::is_same_v<decltype(all), dtl::distributed_future<std::tuple<int, std::string, std::monostate, double>>>);
    CHECK_FALSE(all.is_ready());
    a.set_value(1);
    CHECK_FALSE(all.is_ready());  // c is still pending
    c.set_value();
    REQUIRE(all.is_ready());
    auto [i, s, m, d] = all.get();
    CHECK(i == 1);
    CHECK(s == "b");
    CHECK(d == 2.5);
    (void)m;

    // A when_all of when_alls, continued: (a + b) * (c - d).
    auto sum = dtl::when_all(dtl::make_ready_distributed_future(10), dtl::make_ready_distributed_future(20))
                   .then([](std::tuple<int, int> v) { return std::get<0>(v) + std::get<1>(v); });
    auto diff = dtl::when_all(dtl::make_ready_distributed_future(50), dtl::make_ready_distributed_future(15))
                    .then([](std::tuple<int, int> v) { return std::get<0>(v) - std::get<1>(v); });
    auto product = dtl::when_all(std::move(sum), std::move(diff)).then([](std::tuple<int, int> v) {
      return std::get<0>(v) * std::get<1>(v);
    });
    CHECK(product.get() == 1050);
  }

  TEST_CASE("when_all over a vector: values in order, or the first error once all are ready") {
    std::vector<dtl::distributed_promise<int>> promises(3);
    std::vector<dtl::distributed_future<int>> futures;
    for (auto& p : promises) futures.push_back(p.get_future());
    futures.push_back(dtl::make_ready_distributed_future(99));
    auto all = dtl::when_all(std::move(futures));
    promises[2].set_value(2);
    promises[0].set_value(0);
    CHECK_FALSE(all.is_ready());
    promises[1].set_value(1);
    CHECK(all.get() == std::vector<int>{0, 1, 2, 99});

    CHECK(dtl::when_all(std::vector<dtl::distributed_future<int>>{}).get().empty());

    dtl::distributed_promise<void> late;
    std::vector<dtl::distributed_future<void>> voids;
    voids.push_back(dtl::make_failed_distributed_future<void>(dtl::status(dtl::status_code::not_found, "first")));
    voids.push_back(late.get_future());
    voids.push_back(dtl::make_failed_distributed_future<void>(dtl::status(dtl::status_code::timeout, "second")));
    auto failed = dtl::when_all(std::move(voids));
    static_assert(std::is_same_v<decltype(failed), dtl::distributed_future<void>>);
    CHECK_FALSE(failed.is_ready());  // errors wait for every input
    late.set_value();
    CHECK(failed.get_result().error().code() == dtl::status_code::not_found);
  }

  TEST_CASE("when_any: the first to become ready") {
    std::vector<dtl::distributed_promise<int>> promises(3);
    std::vector<dtl::distributed_future<int>> futures;
    for (auto& p : promises) futures.push_back(p.get_future());
    auto any = dtl::when_any(std::move(futures));
    CHECK_FALSE(any.is_ready());
    promises[1].set_value(11);
    promises[0].set_value(10);
    auto r = any.get();
    CHECK(r.index == 1);
    CHECK(r.value == 11);

    std::vector<dtl::distributed_future<void>> voids;
    dtl::distributed_promise<void> never;
    voids.push_back(never.get_future());
    voids.push_back(dtl::make_ready_distributed_future());
    CHECK(dtl::when_any(std::move(voids)).get().index == 1);
    CHECK(dtl::when_any(std::vector<dtl::distributed_future<int>>{}).get_result().error().code() ==
          dtl::status_code::invalid_argument);
  }

  TEST_CASE("flatten and flat_map") {
    dtl::distributed_promise<int> inner;
    auto nested = dtl::make_ready_distributed_future(inner.get_future());
    auto flat = dtl::flatten(std::move(nested));
    CHECK_FALSE(flat.is_ready());
    inner.set_value(5);
    CHECK(flat.get() == 5);
    auto bound = dtl::flat_map(dtl::make_ready_distributed_future(4),
                               [](int x) { return dtl::make_ready_distributed_future(x * 3); });
    CHECK(bound.get() == 12);
  }

  TEST_CASE("a promise fulfilled from another thread wakes the waiter and runs the continuation there") {
    dtl::distributed_promise<int> p;
    auto f = p.get_future();
    std::thread::id continued_on;
    auto g = f.then([&](int x) {
      continued_on = std::this_thread::get_id();
      return x + 1;
    });
    std::thread producer;
    std::thread::id producer_id;
    {
      dtl::distributed_promise<int> moved = p;  // the thread's copy
      producer = std::thread([q = std::move(moved)]() mutable {
        std::this_thread::sleep_for(20ms);
        q.set_value(41);
      });
      producer_id = producer.get_id();
    }
    CHECK(g.get() == 42);  // blocks until the producer sets the value
    producer.join();
    CHECK(continued_on == producer_id);
    CHECK(f.is_ready());

    // Many producers, one when_all.
    constexpr int n = 8;
    std::vector<dtl::distributed_promise<int>> promises(n);
    std::vector<dtl::distributed_future<int>> futures;
    for (auto& q : promises) futures.push_back(q.get_future());
    auto all = dtl::when_all(std::move(futures)).then([](std::vector<int> v) {
      int s = 0;
      for (int x : v) s += x;
      return s;
    });
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
      threads.emplace_back([&promises, i] { promises[static_cast<std::size_t>(i)].set_value(i); });
    CHECK(all.wait_for(10s) == dtl::future_status::ready);
    for (auto& t : threads) t.join();
    CHECK(all.get() == n * (n - 1) / 2);
  }
}
