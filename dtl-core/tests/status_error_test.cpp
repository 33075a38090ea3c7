// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/core/status_error.hpp>
#include <dtl/core/result.hpp>

#include <string>

TEST_SUITE("status_error") {
  TEST_CASE("carries the status and reads it in what()") {
    const dtl::status s(dtl::status_code::out_of_memory, "device 0 is full");
    try {
      throw dtl::status_error(s);
    } catch (const dtl::status_error& e) {
      CHECK(e.code() == dtl::status_code::out_of_memory);
      CHECK(e.error().message() == "device 0 is full");
      CHECK(std::string(e.what()).find("out_of_memory") != std::string::npos);
      CHECK(std::string(e.what()).find("device 0 is full") != std::string::npos);
    }
  }

  TEST_CASE("value_or_throw gives the value or throws the error") {
    dtl::result<int> good = 7;
    CHECK(dtl::value_or_throw(good) == 7);
    dtl::result<int> bad = dtl::status(dtl::status_code::invalid_argument, "no");
    CHECK_THROWS_AS(static_cast<void>(dtl::value_or_throw(bad)), dtl::status_error);
    dtl::result<void> ok;
    CHECK_NOTHROW(dtl::value_or_throw(ok));
    dtl::result<void> failed = dtl::status(dtl::status_code::timeout, "late");
    CHECK_THROWS_WITH_AS(dtl::value_or_throw(failed), doctest::Contains("late"), dtl::status_error);
  }
}
