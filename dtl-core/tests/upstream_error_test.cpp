// SPDX-License-Identifier: MIT
// Upstream DTL's spellings of status and result, through upstream's include paths (docs/upstream.md).
#include "doctest.hpp"

#include <dtl/error/collective_error.hpp>
#include <dtl/error/error_code.hpp>
#include <dtl/error/error_type.hpp>
#include <dtl/error/failure_handler.hpp>
#include <dtl/error/result.hpp>
#include <dtl/error/status.hpp>

#include <string>
#include <type_traits>

TEST_SUITE("upstream_error") {
  TEST_CASE("a status carries the rank it failed on") {
    const dtl::status plain{dtl::status_code::timeout};
    CHECK(plain.rank() == dtl::no_rank);

    const dtl::status on_rank{dtl::status_code::timeout, 5};
    CHECK(on_rank.code() == dtl::status_code::timeout);
    CHECK(on_rank.rank() == 5);
    CHECK(on_rank.message().empty());

    const dtl::status with_text{dtl::status_code::allocation_failed, 0, "Out of GPU memory"};
    CHECK(with_text.rank() == 0);
    CHECK(with_text.message() == "Out of GPU memory");
    CHECK(with_text.to_string().find("rank 0") != std::string::npos);
    CHECK(with_text.to_string().find("Out of GPU memory") != std::string::npos);
    // The message is a std::string, so that upstream's `"prefix" + s.message()` compiles.
    CHECK("wrapped: " + with_text.message() == "wrapped: Out of GPU memory");

    // An ok status keeps its rank too, as upstream's does.
    CHECK(dtl::status{dtl::status_code::ok, 3}.rank() == 3);
  }

  TEST_CASE("a status converts to bool explicitly: true when ok") {
    CHECK(static_cast<bool>(dtl::status{dtl::status_code::ok}));
    CHECK_FALSE(static_cast<bool>(dtl::status{dtl::status_code::invalid_argument}));
    CHECK_FALSE(static_cast<bool>(dtl::status{dtl::status_code::not_found}));  // a sentinel is not ok
    static_assert(!std::is_convertible_v<dtl::status, bool>);
  }

  TEST_CASE("a default-constructed result holds a value-initialized T") {
    const dtl::result<int> r;
    CHECK(r.has_value());
    CHECK(r.value() == 0);
    CHECK(dtl::result<std::string>{}.value().empty());
  }

  TEST_CASE("error_status makes a status with rank and message") {
    const dtl::status s = dtl::error_status(dtl::status_code::invalid_argument, 1, "bad input");
    CHECK(s.code() == dtl::status_code::invalid_argument);
    CHECK(s.rank() == 1);
    CHECK(s.message() == "bad input");
    CHECK(dtl::error_status(dtl::status_code::timeout).rank() == dtl::no_rank);
  }

  TEST_CASE("result's map, transform_error and map_error") {
    const dtl::result<int> two{2};
    const dtl::result<int> four = two.map([](int v) { return v * 2; });
    CHECK(four.value() == 4);

    const dtl::result<int> failed{dtl::status{dtl::status_code::timeout, 3}};
    CHECK(failed.map([](int v) { return v * 2; }).error().rank() == 3);
    const dtl::result<int> rewrapped = failed.transform_error([](const dtl::status& s) {
      return dtl::status{dtl::status_code::internal_error, s.rank(), "wrapped"};
    });
    CHECK(rewrapped.error().code() == dtl::status_code::internal_error);
    CHECK(rewrapped.error().rank() == 3);
    CHECK(rewrapped.error().message() == "wrapped");
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // deprecated, as upstream's; still given
#endif
    CHECK(failed.map_error([](const dtl::status&) { return dtl::status{dtl::status_code::canceled}; }).error().code() ==
          dtl::status_code::canceled);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    // A value passes through transform_error untouched.
    CHECK(two.transform_error([](const dtl::status&) { return dtl::status{dtl::status_code::canceled}; }).value() == 2);

    const dtl::result<void> void_failed{dtl::status{dtl::status_code::timeout, 1}};
    const dtl::result<void> void_wrapped = void_failed.transform_error([](const dtl::status& s) {
      return dtl::status{dtl::status_code::internal_error, s.rank()};
    });
    CHECK(void_wrapped.error().code() == dtl::status_code::internal_error);
    CHECK(void_wrapped.error().rank() == 1);
  }
  TEST_CASE("dtl::error: a status with where it was made, and make_error") {
    const dtl::error e{dtl::status_code::timeout, 3, "network issue"};
    CHECK(e.code() == dtl::status_code::timeout);
    CHECK(e.rank() == 3);
    CHECK(e.message() == "network issue");
    CHECK(std::string(e.file_name()).find("upstream_error_test.cpp") != std::string::npos);
    CHECK(e.line() == __LINE__ - 5);
    CHECK(e.to_string().find("network issue") != std::string::npos);
    CHECK(e.to_string().find("upstream_error_test.cpp") != std::string::npos);
    const dtl::status& s = e;  // converts wherever a status is taken
    CHECK(s.code() == dtl::status_code::timeout);
    CHECK(dtl::error{dtl::status(dtl::status_code::send_failed, 1, "send")}.get_status().rank() == 1);

    CHECK(dtl::make_error(dtl::status_code::invalid_argument, "bad param").rank() == dtl::no_rank);
    CHECK(dtl::make_error(dtl::status_code::allocation_failed, 2, "out of memory").rank() == 2);
    CHECK(dtl::make_error(dtl::status_code::not_implemented).message().empty());
    CHECK(dtl::make_error(dtl::status_code::internal_error).line() == __LINE__);

    const dtl::result<int> r(e);
    REQUIRE(r.has_error());
    CHECK(r.error().code() == dtl::status_code::timeout);
    const dtl::result<void> v(dtl::error{dtl::status_code::barrier_failed});
    CHECK(v.error().code() == dtl::status_code::barrier_failed);
  }
  TEST_CASE("upstream's result factories: a code, make_error<T>, make_error_result, make_result") {
    const dtl::result<int> from_code(dtl::status_code::timeout);
    REQUIRE(from_code.has_error());
    CHECK(from_code.error().code() == dtl::status_code::timeout);
    const dtl::result<void> void_code(dtl::status_code::send_failed);
    CHECK(void_code.error().code() == dtl::status_code::send_failed);
    CHECK(dtl::result<void>(dtl::status_code::ok).has_value());
    CHECK(dtl::result<int>(dtl::status_code::ok).error().code() == dtl::status_code::internal_error);

    const auto made = dtl::make_error<int>(dtl::status_code::invalid_argument, "bad input");
    REQUIRE(made.has_error());
    CHECK(made.error().message() == "bad input");
    CHECK(dtl::make_error<double>(dtl::status_code::timeout, 4, "slow").error().rank() == 4);
    CHECK(dtl::make_error_result<int>(dtl::status_code::out_of_range).error().code() == dtl::status_code::out_of_range);
    CHECK(dtl::make_error_result<int>(dtl::status(dtl::status_code::timeout)).has_error());
    CHECK(dtl::make_result(std::string("x")).value() == "x");
    static_assert(std::is_same_v<decltype(dtl::make_result(1)), dtl::result<int>>);
    CHECK(dtl::make_ok_result().has_value());
  }
  TEST_CASE("or_else with a plain fallback gives a T; on result<void>, a function for its effect") {
    const dtl::result<int> failed(dtl::status_code::timeout);
    const int fallback = failed.or_else([](const dtl::status&) { return -1; });
    CHECK(fallback == -1);
    const int kept = dtl::result<int>(7).or_else([](const dtl::status&) { return -1; });
    CHECK(kept == 7);
    // A function that returns a result still gives a result (recover or replace the error).
    const dtl::result<int> recovered = failed.or_else([](const dtl::status&) { return dtl::result<int>(3); });
    CHECK(recovered.value() == 3);
    int seen = 0;
    dtl::result<void>(dtl::status_code::send_failed).or_else([&](const dtl::status&) { ++seen; });
    dtl::result<void>().or_else([&](const dtl::status&) { ++seen; });
    CHECK(seen == 1);
  }

  TEST_CASE("result's named constructors") {
    static_assert(std::is_same_v<dtl::error_code, dtl::status_code>);
    CHECK(dtl::result<std::string>::success_in_place(2, 'z').value() == "zz");
    CHECK(dtl::result<int>::success(4).value() == 4);
    CHECK(dtl::result<int>::failure(dtl::status(dtl::status_code::timeout)).error().code() ==
          dtl::status_code::timeout);
    CHECK(dtl::result<void>::success().has_value());
    CHECK(dtl::result<void>::failure(dtl::status(dtl::status_code::canceled)).has_error());
  }

  TEST_CASE("collective_error gathers the failed ranks") {
    dtl::collective_error e(3);
    e.add_error(0, dtl::status{});  // not a failure
    CHECK(e.all_succeeded());
    CHECK(e.to_string().find("succeeded on all 3") != std::string::npos);
    e.add_error(2, dtl::status(dtl::status_code::send_failed, "link down"));
    e.add_error(1, dtl::status(dtl::status_code::timeout));
    e.add_error(0, dtl::status(dtl::status_code::timeout));
    CHECK(e.error_count() == 3);
    CHECK(e.first_error().code() == dtl::status_code::send_failed);
    CHECK(e.most_common_error() == dtl::status_code::timeout);
    const dtl::status summary = e.summary();
    CHECK(summary.code() == dtl::status_code::timeout);
    CHECK(summary.message() == "3 of 3 ranks failed");
    CHECK(e.to_string().find("rank 2: ") != std::string::npos);
    CHECK(e.to_string().find("link down") != std::string::npos);
  }

  TEST_CASE("failure handlers: categories, the first choice, the defaults") {
    using dtl::failure_category;
    CHECK(dtl::categorize_failure(dtl::status_code::connection_lost) == failure_category::transient);
    CHECK(dtl::categorize_failure(dtl::status_code::recv_failed) == failure_category::communication);
    CHECK(dtl::categorize_failure(dtl::status_code::out_of_memory) == failure_category::resource);
    CHECK(dtl::categorize_failure(dtl::status_code::invalid_format) == failure_category::corruption);
    CHECK(dtl::categorize_failure(dtl::status_code::out_of_bounds) == failure_category::non_recoverable);
    auto& manager = dtl::failure_handler_manager::instance();
    manager.clear_handlers();
    const dtl::failure_context broken{
        dtl::status(dtl::status_code::send_failed), failure_category::communication, 0, 1, "send", false};
    CHECK(manager.handle_failure(broken).action == dtl::recovery_action::abort);
    {
      const dtl::scoped_failure_handler pass([](const dtl::failure_context&) {
        return dtl::failure_result{dtl::recovery_action::none, 0, ""};
      });
      const dtl::scoped_failure_handler skip([](const dtl::failure_context& f) {
        return dtl::failure_result{f.failed_rank == 1 ? dtl::recovery_action::skip : dtl::recovery_action::none, 0, ""};
      });
      CHECK(manager.handle_failure(broken).action == dtl::recovery_action::skip);
    }
    auto transient = broken;
    transient.category = failure_category::transient;
    const auto retry = manager.handle_failure(transient);
    CHECK(retry.action == dtl::recovery_action::retry);
    CHECK(retry.retry_count == 3);
  }
}
