#include "doctest.hpp"

#include <dtl/core/format.hpp>
#include <dtl/core/status.hpp>

#include <set>
#include <string>

TEST_SUITE("status") {
  TEST_CASE("codes keep DTL's numbering") {
    CHECK(dtl::to_int(dtl::status_code::ok) == 0);
    CHECK(dtl::to_int(dtl::status_code::allocation_failed) == 201);
    CHECK(dtl::to_int(dtl::status_code::out_of_memory) == 202);
    CHECK(dtl::to_int(dtl::status_code::invalid_pointer) == 203);
    CHECK(dtl::to_int(dtl::status_code::memory_transfer_failed) == 204);
    CHECK(dtl::to_int(dtl::status_code::invalid_argument) == 410);
    CHECK(dtl::to_int(dtl::status_code::out_of_range) == 407);
    CHECK(dtl::to_int(dtl::status_code::not_supported) == 420);
    CHECK(dtl::to_int(dtl::status_code::backend_error) == 500);
    CHECK(dtl::to_int(dtl::status_code::backend_not_available) == 501);
    CHECK(dtl::to_int(dtl::status_code::cuda_error) == 510);
    CHECK(dtl::to_int(dtl::status_code::hip_error) == 520);
    CHECK(dtl::to_int(dtl::status_code::mpi_error) == 530);
    CHECK(dtl::to_int(dtl::status_code::nccl_error) == 540);
    CHECK(dtl::to_int(dtl::status_code::internal_error) == 900);
  }

  TEST_CASE("every code has a distinct name and its category") {
    std::set<std::string_view> names;
    int count = 0;
    for (int v = 0; v < 1000; ++v) {
      const auto code = static_cast<dtl::status_code>(v);
      const std::string_view name = dtl::status_code_name(code);
      if (name == "unknown_status_code") continue;
      ++count;
      CHECK(names.insert(name).second);
      CHECK_FALSE(dtl::status_category(code).empty());
    }
    CHECK(count == 57);
    CHECK(dtl::status_code_name(dtl::status_code::hip_error) == "hip_error");
    CHECK(dtl::status_category(dtl::status_code::ok) == "success");
    CHECK(dtl::status_category(dtl::status_code::timeout) == "communication");
    CHECK(dtl::status_category(dtl::status_code::out_of_memory) == "memory");
    CHECK(dtl::status_category(dtl::status_code::invalid_format) == "serialization");
    CHECK(dtl::status_category(dtl::status_code::invalid_argument) == "bounds");
    CHECK(dtl::status_category(dtl::status_code::hip_error) == "backend");
    CHECK(dtl::status_category(dtl::status_code::convergence_failed) == "algorithm");
    CHECK(dtl::status_category(dtl::status_code::consistency_violation) == "consistency");
    CHECK(dtl::status_category(dtl::status_code::invalid_state) == "internal");
    CHECK(dtl::status_code_name(static_cast<dtl::status_code>(12345)) == "unknown_status_code");
    CHECK(dtl::status_category(static_cast<dtl::status_code>(-3)) == "internal");
  }

  TEST_CASE("an ok status is cheap and empty") {
    const dtl::status s;
    CHECK(s.ok());
    CHECK_FALSE(s.is_error());
    CHECK(s.code() == dtl::status_code::ok);
    CHECK(s.message().empty());
    CHECK(s.native() == nullptr);
    CHECK(s.to_string() == "ok");
    CHECK(sizeof(dtl::status) <= 3 * sizeof(void*));
    CHECK(dtl::status(dtl::status_code::ok, "ignored").message().empty());
  }

  TEST_CASE("an error keeps message, location and category") {
    const int line = __LINE__ + 1;
    const dtl::status s(dtl::status_code::invalid_argument, "bad size");
    CHECK(s.is_error());
    CHECK(s == dtl::status_code::invalid_argument);
    CHECK(s.message() == "bad size");
    CHECK(s.category() == "bounds");
    CHECK(s.name() == "invalid_argument");
    CHECK(s.location().line() == static_cast<unsigned>(line));
    CHECK_FALSE(s.has_native());
    CHECK(s.native_code() == 0);
    const std::string text = s.to_string();
    CHECK(text.find("invalid_argument (410, bounds): bad size") == 0);
    CHECK(text.find("status_test.cpp") != std::string::npos);
  }

  TEST_CASE("a backend error keeps the native code and name") {
    const dtl::status s(dtl::status_code::hip_error, "hipMalloc(64) failed",
                        dtl::native_error{2, "hipErrorOutOfMemory", "out of memory"});
    REQUIRE(s.has_native());
    CHECK(s.native_code() == 2);
    CHECK(s.native_name() == "hipErrorOutOfMemory");
    CHECK(s.native()->description == "out of memory");
    CHECK(s.to_string().find("[hipErrorOutOfMemory (2): out of memory]") != std::string::npos);
  }

  TEST_CASE("copies share details; moved-from keeps its code") {
    dtl::status a(dtl::status_code::timeout, "slow");
    dtl::status b = a;
    CHECK(b.message() == "slow");
    CHECK(a == b);
    dtl::status c = std::move(a);
    CHECK(c.message() == "slow");
    CHECK(a.code() == dtl::status_code::timeout);  // NOLINT(bugprone-use-after-move): documented state
  }

  TEST_CASE("fmt formatters") {
    CHECK(fmt::format("{}", dtl::status_code::hip_error) == "hip_error");
    CHECK(fmt::format("{}", dtl::transfer_kind::device_to_host) == "device_to_host");
    CHECK(fmt::format("{}", dtl::status{}) == "ok");
    const dtl::status s(dtl::status_code::not_supported, "nope");
    CHECK(fmt::format("{}", s) == s.to_string());
    CHECK(fmt::format("[{:>4}]", dtl::status{}) == "[  ok]");
  }

  TEST_CASE("unhandled errors reach the handler, never silently") {
    static int calls = 0;
    static dtl::status_code seen = dtl::status_code::ok;
    auto previous = dtl::set_unhandled_error_handler([](const dtl::status& s) noexcept {
      ++calls;
      seen = s.code();
    });
    dtl::report_unhandled(dtl::status{});  // ok: not reported
    dtl::report_unhandled(dtl::status(dtl::status_code::hip_error, "hipFree failed"));
    CHECK(calls == 1);
    CHECK(seen == dtl::status_code::hip_error);
    dtl::set_unhandled_error_handler(previous);
  }
}
