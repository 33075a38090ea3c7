// SPDX-License-Identifier: MIT
// status_boundary: what each exception becomes in a function that returns a status or a result.
#include "doctest.hpp"

#include <dtl/core/status_boundary.hpp>
#include <dtl/core/status_error.hpp>

#include <new>
#include <stdexcept>
#include <string>

TEST_SUITE("status_boundary") {
  TEST_CASE("the body's own status or result passes through") {
    CHECK(dtl::status_boundary("ok", [] { return dtl::status{}; }).ok());
    auto r = dtl::status_boundary("value", [] { return dtl::result<int>(7); });
    REQUIRE(r.has_value());
    CHECK(*r == 7);
  }

  TEST_CASE("bad_alloc is out_of_memory, length_error invalid_argument, naming the call") {
    auto oom = dtl::status_boundary("growing", []() -> dtl::status { throw std::bad_alloc(); });
    CHECK(oom.code() == dtl::status_code::out_of_memory);
    CHECK(std::string(oom.message()).find("growing") != std::string::npos);
    auto too_long = dtl::status_boundary("reserving", []() -> dtl::result<int> {
      throw std::length_error("vector::reserve");  // what reserve() beyond max_size() throws
    });
    REQUIRE_FALSE(too_long.has_value());
    CHECK(too_long.error().code() == dtl::status_code::invalid_argument);
    CHECK(std::string(too_long.error().message()).find("reserving") != std::string::npos);
  }

  TEST_CASE("a status_error gives its status; anything else is unknown_error") {
    auto carried = dtl::status_boundary(
        "x", []() -> dtl::status { throw dtl::status_error(dtl::status(dtl::status_code::timeout, "late")); });
    CHECK(carried.code() == dtl::status_code::timeout);
    CHECK(carried.message() == "late");
    auto other = dtl::status_boundary("callback", []() -> dtl::status { throw std::runtime_error("boom"); });
    CHECK(other.code() == dtl::status_code::unknown_error);
    CHECK(std::string(other.message()).find("boom") != std::string::npos);
    auto odd = dtl::status_boundary("callback", []() -> dtl::status { throw 42; });
    CHECK(odd.code() == dtl::status_code::unknown_error);
  }
}
