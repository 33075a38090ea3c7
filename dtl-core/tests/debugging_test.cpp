// SPDX-License-Identifier: MIT
// Upstream DTL's debugging aids (dtl/utility/debugging.hpp): leveled lines with rank and location, the
// rank filters, and scope timers.
#include "doctest.hpp"

#include <dtl/utility/debugging.hpp>

#include <iostream>
#include <sstream>
#include <string>

namespace {
/// Sends debug lines to a string for a scope, at `level`, then restores the defaults.
struct captured_debug {
  explicit captured_debug(dtl::debug_level level) {
    dtl::set_debug_stream(out);
    dtl::set_debug_level(level);
  }
  ~captured_debug() {
    dtl::set_debug_stream(std::cerr);
    dtl::set_debug_level(dtl::debug_level::warning);
    dtl::set_debug_rank(dtl::no_rank);
    dtl::configure_debug(true, true);
  }
  std::ostringstream out;
};
}  // namespace

TEST_SUITE("debugging") {
  TEST_CASE("lines at or below the level, with rank and location") {
    captured_debug debug(dtl::debug_level::info);
    dtl::set_debug_rank(2);
    dtl::debug_info("halo of ", 8, " elements");
    dtl::debug_msg("dropped: above info");
    const std::string text = debug.out.str();
    CHECK(text.find("[INFO][R2] ") == 0);
    CHECK(text.find("debugging_test.cpp:") != std::string::npos);
    CHECK(text.find(": halo of 8 elements\n") != std::string::npos);
    CHECK(text.find("dropped") == std::string::npos);
    debug.out.str("");
    dtl::configure_debug(false, false);
    dtl::debug_error("bare");
    CHECK(debug.out.str() == "[ERROR]: bare\n");
  }

  TEST_CASE("the rank filters and the scope timer") {
    captured_debug debug(dtl::debug_level::info);
    dtl::configure_debug(false, false);
    dtl::set_debug_rank(1);
    dtl::debug_root("not rank 0");
    dtl::debug_rank(1, "rank ", 1, " only");
    dtl::debug_rank(0, "not here");
    CHECK(debug.out.str() == "[INFO]: rank 1 only\n");
    debug.out.str("");
    {
      DTL_TIMED_SCOPE("exchange");
      dtl::scoped_timer quiet("hidden", dtl::debug_level::trace);
      CHECK(quiet.elapsed() >= 0.0);
    }
    CHECK(debug.out.str().find("[INFO]: exchange took ") == 0);
    CHECK(debug.out.str().find("hidden") == std::string::npos);
    CHECK(dtl::to_string(dtl::debug_level::warning) == "WARN");
  }
}
