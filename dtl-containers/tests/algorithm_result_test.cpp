// SPDX-License-Identifier: MIT
// Upstream DTL's algorithm results by policy (dtl/futures/algorithm_result.hpp): the result types, the
// helpers that make them, unified_result over either, and execute_algorithm run here or on the progress
// engine.
#include "doctest.hpp"

#include <dtl/futures/algorithm_result.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace fut = dtl::futures;

TEST_SUITE("algorithm_result") {
  TEST_CASE("seq and par give results, async_policy a future") {
    static_assert(std::is_same_v<fut::algorithm_result_t<dtl::seq, int>, dtl::result<int>>);
    static_assert(std::is_same_v<fut::algorithm_result_t<dtl::par, void>, dtl::result<void>>);
    static_assert(std::is_same_v<fut::algorithm_result_t<fut::async_policy, int>, dtl::distributed_future<int>>);
    static_assert(fut::is_sync_policy_v<dtl::par> && !fut::is_sync_policy_v<fut::async_policy>);
    auto r = fut::make_algorithm_result<dtl::seq>(std::string("x"));
    REQUIRE(r.has_value());
    CHECK(r.value() == "x");
    auto f = fut::make_algorithm_result<fut::async_policy>(7);
    CHECK(f.get() == 7);
    auto e = fut::make_algorithm_error<fut::async_policy, int>(dtl::status(dtl::status_code::timeout));
    CHECK(e.get_result().error().code() == dtl::status_code::timeout);
    CHECK(fut::make_algorithm_result_void<dtl::seq>().has_value());
  }

  TEST_CASE("unified_result over a result and over a future") {
    fut::unified_result<int> sync(dtl::result<int>(3));
    CHECK_FALSE(sync.is_async());
    CHECK(sync.is_ready());
    CHECK(sync.get_future().get() == 3);
    fut::unified_result<int> failed(dtl::result<int>(dtl::status(dtl::status_code::canceled)));
    CHECK(failed.get_future().get_result().error().code() == dtl::status_code::canceled);
    fut::unified_result<int> async(dtl::make_ready_distributed_future(4));
    CHECK(async.is_async());
    CHECK(async.get().value() == 4);
  }

  TEST_CASE("execute_algorithm: here and now, or on the progress engine (which waiting drives)") {
    auto here = fut::execute_algorithm<dtl::seq>([]() -> int { throw std::runtime_error("bad input"); });
    REQUIRE_FALSE(here.has_value());
    CHECK(here.error().code() == dtl::status_code::operation_failed);
    CHECK(here.error().message().find("bad input") != std::string::npos);
    int runs = 0;
    auto later = fut::execute_algorithm<fut::async_policy>([&] { return ++runs; });
    CHECK_FALSE(later.is_ready());  // nothing ran yet
    CHECK(later.get() == 1);        // get() polled the engine
    CHECK(runs == 1);
    auto thrown = fut::execute_algorithm<fut::async_policy>([] { throw std::logic_error("no"); });
    (void)dtl::poll();
    REQUIRE(thrown.is_ready());
    CHECK(thrown.get_result().error().code() == dtl::status_code::operation_failed);
  }
}
