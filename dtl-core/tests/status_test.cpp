// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/core/format.hpp>
#include <dtl/core/status.hpp>

#include <set>
#include <string>
#include <string_view>

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

  TEST_CASE("every code has its name and its category") {
    struct expected {
      dtl::status_code code;
      std::string_view name;
      std::string_view category;
    };
    using c = dtl::status_code;
    const expected table[] = {
        {c::ok, "ok", "success"},
        {c::not_found, "not_found", "success"},  // upstream's category for 0-99
        {c::end_iterator, "end_iterator", "success"},
        {c::communication_error, "communication_error", "communication"},
        {c::send_failed, "send_failed", "communication"},
        {c::recv_failed, "recv_failed", "communication"},
        {c::broadcast_failed, "broadcast_failed", "communication"},
        {c::reduce_failed, "reduce_failed", "communication"},
        {c::barrier_failed, "barrier_failed", "communication"},
        {c::timeout, "timeout", "communication"},
        {c::canceled, "canceled", "communication"},
        {c::connection_lost, "connection_lost", "communication"},
        {c::rank_failure, "rank_failure", "communication"},
        {c::collective_failure, "collective_failure", "communication"},
        {c::collective_participation_error, "collective_participation_error", "communication"},
        {c::memory_error, "memory_error", "memory"},
        {c::allocation_failed, "allocation_failed", "memory"},
        {c::out_of_memory, "out_of_memory", "memory"},
        {c::invalid_pointer, "invalid_pointer", "memory"},
        {c::memory_transfer_failed, "memory_transfer_failed", "memory"},
        {c::device_memory_error, "device_memory_error", "memory"},
        {c::serialization_error, "serialization_error", "serialization"},
        {c::serialize_failed, "serialize_failed", "serialization"},
        {c::deserialize_failed, "deserialize_failed", "serialization"},
        {c::buffer_too_small, "buffer_too_small", "serialization"},
        {c::invalid_format, "invalid_format", "serialization"},
        {c::bounds_error, "bounds_error", "bounds"},
        {c::out_of_bounds, "out_of_bounds", "bounds"},
        {c::invalid_index, "invalid_index", "bounds"},
        {c::invalid_rank, "invalid_rank", "bounds"},
        {c::dimension_mismatch, "dimension_mismatch", "bounds"},
        {c::extent_mismatch, "extent_mismatch", "bounds"},
        {c::key_not_found, "key_not_found", "bounds"},
        {c::out_of_range, "out_of_range", "bounds"},
        {c::invalid_argument, "invalid_argument", "bounds"},
        {c::null_pointer, "null_pointer", "bounds"},
        {c::not_supported, "not_supported", "bounds"},
        {c::backend_error, "backend_error", "backend"},
        {c::backend_not_available, "backend_not_available", "backend"},
        {c::backend_init_failed, "backend_init_failed", "backend"},
        {c::backend_invalid, "backend_invalid", "backend"},
        {c::cuda_error, "cuda_error", "backend"},
        {c::hip_error, "hip_error", "backend"},
        {c::mpi_error, "mpi_error", "backend"},
        {c::nccl_error, "nccl_error", "backend"},
        {c::shmem_error, "shmem_error", "backend"},
        {c::algorithm_error, "algorithm_error", "algorithm"},
        {c::precondition_failed, "precondition_failed", "algorithm"},
        {c::postcondition_failed, "postcondition_failed", "algorithm"},
        {c::convergence_failed, "convergence_failed", "algorithm"},
        {c::consistency_error, "consistency_error", "consistency"},
        {c::consistency_violation, "consistency_violation", "consistency"},
        {c::structural_invalidation, "structural_invalidation", "consistency"},
        {c::internal_error, "internal_error", "internal"},
        {c::not_implemented, "not_implemented", "internal"},
        {c::invalid_state, "invalid_state", "usage"},
        {c::unknown_error, "unknown_error", "internal"},
    };
    std::set<int> listed;
    for (const expected& e : table) {
      CAPTURE(e.name);
      CHECK(dtl::status_code_name(e.code) == e.name);
      CHECK(dtl::status_category(e.code) == e.category);
      CHECK(dtl::status(e.code).category() == e.category);
      CHECK(listed.insert(dtl::to_int(e.code)).second);
    }
    // The table is complete: every value with a name is in it.
    for (int v = -100; v < 1100; ++v) {
      const auto code = static_cast<dtl::status_code>(v);
      if (dtl::status_code_name(code) != "unknown_status_code") CHECK(listed.count(v) == 1);
    }
    CHECK(listed.size() == 57);
    // Upstream's alias: the same value, named by its first name.
    static_assert(c::operation_failed == c::algorithm_error);
    CHECK(dtl::status_code_name(c::operation_failed) == "algorithm_error");
    // Values outside the enum: no name, and the internal category.
    CHECK(dtl::status_code_name(static_cast<dtl::status_code>(12345)) == "unknown_status_code");
    CHECK(dtl::status_category(static_cast<dtl::status_code>(-3)) == "internal");
    CHECK(dtl::status_category(static_cast<dtl::status_code>(850)) == "internal");
    CHECK(dtl::status_category(static_cast<dtl::status_code>(12345)) == "internal");
  }

  TEST_CASE("the sentinels are in the success category, yet not ok") {
    CHECK(dtl::status(dtl::status_code::not_found).is_error());
    CHECK(dtl::status(dtl::status_code::end_iterator).is_error());
    CHECK(dtl::status(dtl::status_code::not_found, "key 7").to_string().find("not_found (1, success): key 7") == 0);
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

  TEST_CASE("source paths are given from the member's folder") {
    // As a build directory inside the checkout, or outside it, passes them to the compiler.
    CHECK(dtl::source_path("../../../../../w/subprojects/dtl-containers/src/agreement.cpp") ==
          "dtl-containers/src/agreement.cpp");
    CHECK(dtl::source_path("/home/u/dtl/dtl-core/src/status.cpp") == "dtl-core/src/status.cpp");
    CHECK(dtl::source_path("dtl-hip-mem/src/pool.cpp") == "dtl-hip-mem/src/pool.cpp");
    // A member built on its own, with the one below as its subproject: the last member named.
    CHECK(dtl::source_path("../dtl-containers/subprojects/dtl-hip-exec/include/dtl/hip/stream.hpp") ==
          "dtl-hip-exec/include/dtl/hip/stream.hpp");
    // Only whole components name a member.
    CHECK(dtl::source_path("/src/my-dtl-core/x.cpp") == "/src/my-dtl-core/x.cpp");
    CHECK(dtl::source_path("/src/dtl-core.cpp") == "/src/dtl-core.cpp");
    // Elsewhere (the workspace's examples and tests, users' code) only the leading ./ and ../ go.
    CHECK(dtl::source_path("../../examples/heat.cpp") == "examples/heat.cpp");
    CHECK(dtl::source_path("./main.cpp") == "main.cpp");
    CHECK(dtl::source_path("/home/u/app/main.cpp") == "/home/u/app/main.cpp");
    CHECK(dtl::source_path("") == "");
  }

  TEST_CASE("a status's text gives its source path from the member's folder") {
    const std::string text = dtl::status(dtl::status_code::invalid_argument, "bad size").to_string();
    CHECK(text.find(" at dtl-core/tests/status_test.cpp:") != std::string::npos);
  }

  TEST_CASE("origin, summary and to_string") {
    const int line = __LINE__ + 1;
    const dtl::status s(dtl::status_code::invalid_argument, "bad size");
    CHECK(s.origin() == "dtl-core/tests/status_test.cpp:" + std::to_string(line));
    CHECK(s.summary() == "invalid_argument (410, bounds): bad size");
    CHECK(s.to_string() == s.summary() + " at " + s.origin());
    CHECK(dtl::status().origin().empty());
    CHECK(dtl::status().summary() == "ok");
  }

  TEST_CASE("a forwarded status keeps its cause's origin once") {
    const dtl::status cause(dtl::status_code::hip_error, "hipMalloc(64) failed",
                            dtl::native_error{2, "hipErrorOutOfMemory", "out of memory"});
    const dtl::status forwarded = cause.with_context("reserve");
    CHECK(forwarded == dtl::status_code::hip_error);
    CHECK(forwarded.message() == "reserve: hipMalloc(64) failed");
    CHECK(forwarded.native_code() == 2);
    CHECK(forwarded.origin() == cause.origin());
    const dtl::status twice = forwarded.with_context("pool");
    CHECK(twice.message() == "pool: reserve: hipMalloc(64) failed");
    const std::string text = twice.to_string();
    CHECK(text.find(" at ") == text.rfind(" at "));
    // Another rank's failure: the text names where that rank found it.
    const dtl::status agreed =
        dtl::status(dtl::status_code::invalid_argument, "every rank failed").with_origin("dtl-containers/src/x.cpp:7");
    CHECK(agreed.origin() == "dtl-containers/src/x.cpp:7");
    CHECK(agreed.to_string().ends_with(" at dtl-containers/src/x.cpp:7"));
    CHECK(agreed.message() == "every rank failed");
    CHECK(dtl::status().with_context("x").ok());
    CHECK(dtl::status().with_origin("x").ok());
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

  TEST_CASE("two statuses are equal when code, message and native error are equal") {
    using c = dtl::status_code;
    CHECK(dtl::status{} == dtl::status{});
    CHECK(dtl::status{} == dtl::ok_status());
    CHECK(dtl::status(c::timeout, "late") == dtl::status(c::timeout, "late"));
    CHECK(dtl::status(c::timeout, "late") != dtl::status(c::timeout, "early"));
    CHECK(dtl::status(c::timeout, "late") != dtl::status(c::canceled, "late"));
    CHECK(dtl::status(c::timeout) != dtl::status{});
    // Where a status was made is not part of what it says.
    const dtl::status here(c::invalid_argument, "bad size");
    const dtl::status there(c::invalid_argument, "bad size");
    CHECK(here.location().line() != there.location().line());
    CHECK(here == there);
    // The native error is.
    const dtl::status oom(c::hip_error, "hipMalloc failed",
                          dtl::native_error{2, "hipErrorOutOfMemory", "out of memory"});
    const dtl::status same(c::hip_error, "hipMalloc failed",
                           dtl::native_error{2, "hipErrorOutOfMemory", "out of memory"});
    const dtl::status other(c::hip_error, "hipMalloc failed", dtl::native_error{1, "hipErrorInvalidValue", "invalid"});
    CHECK(oom == same);
    CHECK(oom != other);
    CHECK(oom != dtl::status(c::hip_error, "hipMalloc failed"));
    // Against a bare code, only the code counts (shorthand for s.code() == code).
    CHECK(dtl::status(c::timeout, "late") == c::timeout);
    CHECK(dtl::status(c::timeout, "late") != c::canceled);
    CHECK(dtl::status{} == c::ok);
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
