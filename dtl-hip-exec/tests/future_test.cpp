// SPDX-License-Identifier: MIT
// future, promise, then and when_all, completed from the host (no device needed).
#include "doctest.hpp"

#include <dtl/hip/future.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using dtl::status;
using dtl::status_code;
using dtl::hip::future;
using dtl::hip::promise;

TEST_SUITE("future") {
  TEST_CASE("a promise's value reaches its future once") {
    promise<int> p;
    future<int> f = p.get_future();
    CHECK(f.valid());
    CHECK(f.query().is_pending());
    CHECK_FALSE(static_cast<bool>(f.query()));
    CHECK_FALSE(p.get_future().valid());  // only once

    REQUIRE(p.set_value(42).has_value());
    CHECK(f.query().is_complete());
    CHECK(static_cast<bool>(f.query()));
    auto again = p.set_value(7);
    CHECK(again.error().code() == status_code::invalid_state);

    auto r = f.get_result();
    REQUIRE(r.has_value());
    CHECK(*r == 42);
    CHECK_FALSE(f.valid());  // consumed
    CHECK(f.get_result().error().code() == status_code::invalid_state);
  }

  TEST_CASE("an error reaches the future; an ok status is never taken as an error") {
    promise<std::string> p;
    auto f = p.get_future();
    REQUIRE(p.set_error(status(status_code::hip_error, "boom")).has_value());
    const auto q = f.query();
    CHECK(q.is_failed());
    CHECK(q.error().code() == status_code::hip_error);
    CHECK(f.get_result().error().message() == "boom");

    promise<int> p2;
    auto f2 = p2.get_future();
    REQUIRE(p2.set_error(status{}).has_value());
    CHECK(f2.get_result().error().code() == status_code::invalid_argument);
  }

  TEST_CASE("get with a timeout gives up, keeps the future, and can wait again") {
    promise<int> p;
    auto f = p.get_future();
    const auto t0 = std::chrono::steady_clock::now();
    auto r = f.get_result(20ms);
    const auto waited = std::chrono::steady_clock::now() - t0;
    CHECK(r.error().code() == status_code::timeout);
    CHECK(waited >= 20ms);
    CHECK(waited < 5s);
    CHECK(f.valid());
    CHECK(f.synchronize(0ns).error().code() == status_code::timeout);

    std::thread setter([&] {
      std::this_thread::sleep_for(10ms);
      static_cast<void>(p.set_value(5));
    });
    CHECK(f.synchronize(10s).has_value());  // keeps the value for get()
    CHECK(*f.get_result(0ns) == 5);
    setter.join();
  }

  TEST_CASE("a destroyed promise cancels its future") {
    future<void> f;
    {
      promise<void> p;
      f = p.get_future();
    }
    CHECK(f.get_result().error().code() == status_code::canceled);
  }

  TEST_CASE("synchronize returns the outcome and keeps the value") {
    promise<int> p;
    auto f = p.get_future();
    REQUIRE(p.set_value(3).has_value());
    CHECK(f.synchronize().has_value());
    CHECK(f.valid());
    CHECK(*f.get_result() == 3);
    CHECK(future<int>().synchronize().error().code() == status_code::invalid_state);

    promise<int> failing;
    auto g = failing.get_future();
    REQUIRE(failing.set_error(status(status_code::hip_error, "fault")).has_value());
    CHECK(g.synchronize(0ns).error().code() == status_code::hip_error);  // the outcome, not a timeout
    CHECK(g.valid());
  }

  TEST_CASE("make_ready_future and make_failed_future") {
    CHECK(*dtl::hip::make_ready_future<int>(9).get_result() == 9);
    CHECK(dtl::hip::make_ready_future().get_result().has_value());
    CHECK(dtl::hip::make_failed_future<int>(status(status_code::timeout)).get_result().error().code() ==
          status_code::timeout);
  }
}

TEST_SUITE("then") {
  TEST_CASE("value continuations chain, and may return values, results or statuses") {
    promise<int> p;
    auto f = p.get_future()
                 .then([](int v) { return v + 1; })
                 .then([](int v) -> dtl::result<std::string> { return std::to_string(v); })
                 .then([](std::string s) { return s + "!"; });
    REQUIRE(p.set_value(41).has_value());
    auto r = f.get_result(1s);
    REQUIRE(r.has_value());
    CHECK(*r == "42!");

    auto g = dtl::hip::make_ready_future().then([] { return status(status_code::not_found); });
    CHECK(g.get_result().error().code() == status_code::not_found);
  }

  TEST_CASE("a value continuation is skipped on error; a result continuation always runs") {
    bool ran = false;
    auto skipped = dtl::hip::make_failed_future<int>(status(status_code::hip_error)).then([&](int) {
      ran = true;
      return 0;
    });
    CHECK(skipped.get_result().error().code() == status_code::hip_error);
    CHECK_FALSE(ran);

    auto recovered = dtl::hip::make_failed_future<int>(status(status_code::hip_error)).then([](dtl::result<int> r) {
      return r.has_value() ? *r : -1;
    });
    CHECK(*recovered.get_result() == -1);
  }

  TEST_CASE("a throwing continuation fails its own future and no other") {
    promise<void> a;
    promise<void> b;
    auto fa = a.get_future().then([]() -> int { throw std::runtime_error("kaput"); });
    auto fb = b.get_future().then([] { return 2; });
    REQUIRE(a.set_value().has_value());
    REQUIRE(b.set_value().has_value());
    auto ra = fa.get_result(1s);
    REQUIRE(ra.has_error());
    CHECK(ra.error().code() == status_code::unknown_error);
    CHECK(std::string(ra.error().message()).find("kaput") != std::string::npos);
    CHECK(*fb.get_result(1s) == 2);

    auto odd = dtl::hip::make_ready_future().then([] { throw 5; });
    CHECK(odd.get_result().error().code() == status_code::unknown_error);
  }

  TEST_CASE("a continuation added to a ready future runs at once on the caller's thread") {
    const auto caller = std::this_thread::get_id();
    std::thread::id ran_on;
    auto f = dtl::hip::make_ready_future<int>(1).then([&](int v) {
      ran_on = std::this_thread::get_id();
      return v;
    });
    CHECK(f.query().is_complete());
    CHECK(ran_on == caller);
  }

  TEST_CASE("then on an empty future gives a failed future") {
    future<int> empty;
    auto f = std::move(empty).then([](int v) { return v; });
    CHECK(f.get_result().error().code() == status_code::invalid_state);
  }
}

TEST_SUITE("when_all") {
  TEST_CASE("values arrive in input order, whatever the completion order") {
    std::vector<promise<int>> ps(5);
    std::vector<future<int>> fs;
    for (auto& p : ps) fs.push_back(p.get_future());
    auto all = dtl::hip::when_all(std::move(fs));
    for (int i = 4; i >= 0; --i) {
      CHECK(all.query().is_pending());
      REQUIRE(ps[static_cast<std::size_t>(i)].set_value(i * 10).has_value());
    }
    auto r = all.get_result(1s);
    REQUIRE(r.has_value());
    CHECK(*r == std::vector<int>{0, 10, 20, 30, 40});
  }

  TEST_CASE("the first error in input order wins, but only once all are ready") {
    promise<void> a;
    promise<void> b;
    promise<void> c;
    std::vector<future<void>> fs;
    fs.push_back(a.get_future());
    fs.push_back(b.get_future());
    fs.push_back(c.get_future());
    auto all = dtl::hip::when_all(std::move(fs));
    REQUIRE(c.set_error(status(status_code::timeout)).has_value());
    REQUIRE(b.set_error(status(status_code::hip_error)).has_value());
    CHECK(all.query().is_pending());  // a is still running
    REQUIRE(a.set_value().has_value());
    CHECK(all.get_result(1s).error().code() == status_code::hip_error);
  }

  TEST_CASE("variadic, mixed types; empty inputs") {
    promise<int> a;
    promise<std::string> b;
    auto all = dtl::hip::when_all(a.get_future(), b.get_future(), dtl::hip::make_ready_future());
    REQUIRE(a.set_value(1).has_value());
    CHECK(all.query().is_pending());
    REQUIRE(b.set_value("x").has_value());
    CHECK(all.get_result(1s).has_value());

    CHECK(dtl::hip::when_all(std::vector<future<void>>{}).get_result().has_value());
    std::vector<future<int>> with_empty(1);
    CHECK(dtl::hip::when_all(std::move(with_empty)).get_result().error().code() == status_code::invalid_state);
  }

  TEST_CASE("completed from many threads, each input counted once") {
    constexpr int n = 64;
    std::vector<promise<int>> ps(n);
    std::vector<future<int>> fs;
    for (auto& p : ps) fs.push_back(p.get_future());
    auto all = dtl::hip::when_all(std::move(fs));
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&, t] {
        for (int i = t; i < n; i += 8) static_cast<void>(ps[static_cast<std::size_t>(i)].set_value(i));
      });
    auto r = all.get_result(5s);
    for (auto& t : threads) t.join();
    REQUIRE(r.has_value());
    for (int i = 0; i < n; ++i) CHECK((*r)[static_cast<std::size_t>(i)] == i);
  }
}
