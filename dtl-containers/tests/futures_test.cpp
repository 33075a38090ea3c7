// SPDX-License-Identifier: MIT
// Upstream DTL's futures with distributed vectors, on host placements (run on 1, 2 and 3 MPI ranks):
// the async_* algorithm forms against a serial reference, their futures chained with then() and joined
// with when_all, a promise fulfilled from another thread joined with a collective's future, and errors
// reaching get() on every rank.
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/futures/futures.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

using namespace std::chrono_literals;

namespace {

/// 0 + 1 + ... + (n - 1).
long long triangle(std::size_t n) { return static_cast<long long>(n) * (static_cast<long long>(n) - 1) / 2; }

}  // namespace

TEST_SUITE("mpi.futures") {
  TEST_CASE("async_reduce, async_transform_reduce: the global value on every rank") {
    const auto ctx = test_support::world();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1001}}) {
      CAPTURE(n);
      dtl::distributed_vector<long long> v(n, ctx);
      REQUIRE(dtl::iota(v, 0).has_value());
      dtl::distributed_future<long long> sum = dtl::async_reduce(v, 0LL, std::plus<>{});
      CHECK(sum.get() == triangle(n));
      CHECK(dtl::async_reduce(v, 5LL).get() == 5 + triangle(n));  // std::plus<> by default
      auto squares = dtl::async_transform_reduce(v, 0LL, std::plus<>{}, [](long long x) { return x * x; });
      long long ref = 0;
      for (std::size_t i = 0; i < n; ++i) ref += static_cast<long long>(i * i);
      CHECK(squares.get() == ref);
    }
  }

  TEST_CASE("async_for_each and async_transform, then a reduce chained on their futures") {
    const auto ctx = test_support::world();
    const std::size_t n = 777;
    dtl::distributed_vector<int> v(n, ctx);
    dtl::distributed_vector<int> w(n, ctx);
    REQUIRE(dtl::iota(v, 0).has_value());
    auto doubled = dtl::async_for_each(v, [](int& x) { x *= 2; });
    doubled.wait();
    CHECK(doubled.wait_for(0ms) == dtl::future_status::ready);
    REQUIRE(dtl::async_transform(v, w, [](int x) { return x + 1; }).get_result().has_value());
    REQUIRE(dtl::async_transform(w, [](int x) { return x * 3; }).get_result().has_value());
    // w[i] = 3 (2 i + 1); the sum over every rank: 3 (n (n - 1) + n) = 3 n^2.
    const auto expected = 3LL * static_cast<long long>(n) * static_cast<long long>(n);
    // A continuation that runs a collective: every rank's future reaches it (host futures are ready).
    auto total = dtl::make_ready_distributed_future().then([&] { return dtl::reduce(w, 0LL); });
    CHECK(total.get() == expected);
    const auto local = w.local_view();
    long long mine = 0;
    for (std::size_t i = 0; i < local.size(); ++i) {
      const auto g = w.global_offset() + i;
      CHECK(local[i] == static_cast<int>(3 * (2 * g + 1)));
      mine += local[i];
    }
    CHECK(ctx.allreduce_value(mine, dtl::reduce_op::sum).value() == expected);
  }

  TEST_CASE("async_sort, the async scans and extremes: the global answers on every rank") {
    const auto ctx = test_support::world();
    for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{301}}) {
      CAPTURE(n);
      dtl::distributed_vector<int> v(n, ctx);
      dtl::distributed_vector<int> out(n, ctx);
      const auto local = v.local_view();
      for (std::size_t i = 0; i < local.size(); ++i) local[i] = static_cast<int>(n - (v.global_offset() + i));
      REQUIRE(dtl::async_sort(v).get_result().has_value());
      for (std::size_t i = 0; i < local.size(); ++i) CHECK(local[i] == static_cast<int>(v.global_offset() + i + 1));
      REQUIRE(dtl::async_inclusive_scan(v, out, 0).get_result().has_value());
      for (std::size_t i = 0; i < out.local_size(); ++i) {
        const auto g = static_cast<long long>(out.global_offset() + i + 1);
        CHECK(out.local_view()[i] == g * (g + 1) / 2);
      }
      REQUIRE(dtl::async_exclusive_scan(v, out, 10, std::plus<>{}).get_result().has_value());
      for (std::size_t i = 0; i < out.local_size(); ++i) {
        const auto g = static_cast<long long>(out.global_offset() + i);
        CHECK(out.local_view()[i] == 10 + g * (g + 1) / 2);
      }
      const auto low = dtl::async_min_element(v).get();
      const auto high = dtl::async_max_element(v).get();
      const auto both = dtl::async_minmax_element(v).get();
      CHECK(low.valid == (n != 0));
      CHECK(both.max.valid == high.valid);
      if (n != 0) {
        CHECK(low.value == 1);
        CHECK(high.value == static_cast<int>(n));
        CHECK(both.min.value == 1);
        CHECK(both.max.value == static_cast<int>(n));
      }
    }
  }

  TEST_CASE("when_all of algorithm futures and a promise fulfilled from another thread") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<double> a(100, 0.5, ctx);
    dtl::distributed_vector<double> b(57, 2.0, ctx);
    dtl::distributed_promise<int> from_thread;
    auto rank_future = from_thread.get_future();
    std::thread worker([p = from_thread, r = ctx.rank()]() mutable {
      std::this_thread::sleep_for(10ms);
      p.set_value(r * 10);
    });
    from_thread = dtl::distributed_promise<int>();  // the worker holds the only copy of the first promise
    auto all = dtl::when_all(dtl::async_reduce(a, 0.0), dtl::async_reduce(b, 1.0, std::multiplies<>{}),
                             std::move(rank_future));
    auto combined = all.then([](std::tuple<double, double, int> v) {
      return std::get<0>(v) + (std::get<1>(v) > 1.0 ? 1.0 : 0.0) + std::get<2>(v);
    });
    CHECK(combined.get() == doctest::Approx(50.0 + 1.0 + 10.0 * ctx.rank()));
    worker.join();

    // The vector form over a reduce per vector; values in input order.
    std::vector<dtl::distributed_future<double>> sums;
    sums.push_back(dtl::async_reduce(a, 0.0));
    sums.push_back(dtl::async_reduce(b, 0.0));
    CHECK(dtl::when_all(std::move(sums)).get() == std::vector<double>{50.0, 114.0});
  }

  TEST_CASE("a throwing function fails the async form's future instead of leaving the call") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<int> v(10, ctx);
    dtl::distributed_future<void> f;
    CHECK_NOTHROW(f = dtl::async_for_each(v, [](int&) { throw std::runtime_error("bad element"); }));
    auto r = f.get_result();
    if (v.local_size() > 0) {
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().code() == dtl::status_code::unknown_error);
      CHECK(r.error().message().find("bad element") != std::string_view::npos);
    }
  }

  TEST_CASE("every async form: a function that throws on every rank fails the future with its message") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<int> v(10, ctx), w(10, ctx);
    // Every element is 0: each call throws (a condition, so that the compiler keeps the normal path).
    const auto bad = [](int x) -> int {
      if (x == 0) throw std::runtime_error("bad element");
      return x;
    };
    const auto bad_op = [&bad](int a, int b) -> int { return bad(a) + b; };
    const auto failed = [](auto make) {
      decltype(make()) future;
      CHECK_NOTHROW(future = make());
      const auto r = future.get_result();
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().code() == dtl::status_code::unknown_error);
      CHECK(r.error().message().find("bad element") != std::string_view::npos);
    };
    failed([&] { return dtl::async_transform(v, w, bad); });
    failed([&] { return dtl::async_transform(v, bad); });
    failed([&] { return dtl::async_transform_reduce(v, 0, std::plus<>{}, bad); });
    // Every rank holds at least 3 of the 10 elements: its fold calls the operator.
    failed([&] { return dtl::async_reduce(v, 0, bad_op); });
    CHECK(dtl::reduce(v) == 0);  // the ranks are still in step
  }

  TEST_CASE("a failed algorithm fails its future on every rank; get() throws, then() does not run") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<int> a(10, ctx);
    dtl::distributed_vector<int> b(11, ctx);
    auto f = dtl::async_transform(a, b, [](int x) { return x; });  // sizes differ
    bool ran = false;
    auto g = f.then([&] { ran = true; });
    CHECK(g.wait_for(0ms) == dtl::future_status::error);
    CHECK_FALSE(ran);
    auto r = g.get_result();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == dtl::status_code::extent_mismatch);
    CHECK_THROWS_AS(f.get(), dtl::status_error);
    const int failed_here = 1;
    CHECK(ctx.allreduce_value(failed_here, dtl::reduce_op::sum).value() == ctx.size());
  }

  TEST_CASE("get(timeout) and get_result(timeout): a value, or timeout with the future kept") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<long long> v(10, ctx);
    REQUIRE(dtl::iota(v, 0LL).has_value());
    CHECK(dtl::async_reduce(v, 0LL).get(1s) == triangle(10));
    CHECK(dtl::async_reduce(v, 0LL).get_result(1s).value() == triangle(10));
    dtl::distributed_promise<int> p;
    auto pending = p.get_future();
    try {
      (void)pending.get(1ms);
      FAIL("get(timeout) returned a value that was never set");
    } catch (const dtl::status_error& e) {
      CHECK(e.code() == dtl::status_code::timeout);
    }
    CHECK(pending.get_result(1ms).error().code() == dtl::status_code::timeout);
    REQUIRE(pending.valid());
    p.set_value(4);
    CHECK(pending.get(1s) == 4);
  }
}
