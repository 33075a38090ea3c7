// SPDX-License-Identifier: MIT
// A faulting kernel (suite gpu.fault), in a binary of its own: the fault kills the device context
// for the rest of the process. On AMD, ROCm usually aborts the whole process on a GPU page fault,
// so this test is meaningful on NVIDIA (and on AMD with a runtime that reports the fault).
#include "doctest.hpp"

#include "test_kernels.hpp"

#include <backends/hip/hip_event.hpp>
#include <backends/hip/hip_executor.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/event_poller.hpp>

#include <atomic>
#include <chrono>

using namespace dtl::hip;
using namespace std::chrono_literals;
using dtl::status;
using dtl::status_code;

namespace {
std::atomic<int> unhandled{0};
}  // namespace

TEST_SUITE("gpu.fault") {
  TEST_CASE("a faulting kernel fails its future with a hip_error instead of hanging") {
    // After the fault every later HIP call fails, destructors included: count those reports quietly.
    static_cast<void>(dtl::set_unhandled_error_handler([](const status&) noexcept { unhandled.fetch_add(1); }));
    event_poller engine;
    hip_executor exec(stream_flags::non_blocking);
    REQUIRE(exec.valid());
    hip_event before;
    REQUIRE(before.record(exec.stream()).has_value());
    future<void> pending_behind = exec.marker(engine);  // submitted before the fault: completes normally
    CHECK(pending_behind.get_result(60s).has_value());

    std::atomic<bool> continuation_ran{false};
    future<void> faulted = exec.submit([](hipStream_t s) { exec_test_launch_fault(s); }, engine);
    future<void> after = exec.marker(engine).then([&](dtl::result<void> r) {
      continuation_ran = true;
      return r;
    });

    const auto t0 = std::chrono::steady_clock::now();
    auto r = faulted.get_result(60s);
    CHECK(std::chrono::steady_clock::now() - t0 < 60s);
    REQUIRE(r.has_error());
    CHECK(r.error().code() != status_code::timeout);
    CHECK(r.error().code() == status_code::hip_error);
    CHECK(r.error().native_code() != 0);
    CHECK(is_sticky(static_cast<hipError_t>(r.error().native_code())));
    MESSAGE("fault surfaced as: " << r.error().to_string());

    // Everything queued behind it fails too, and its continuation still runs.
    auto ra = after.get_result(60s);
    CHECK(ra.has_error());
    CHECK(continuation_ran.load());
    CHECK(engine.pending() == 0);

    // The context is dead: later calls report it, none hangs.
    CHECK(exec.synchronize().has_error());
    bool ran = false;
    auto late = exec.execute([&](hipStream_t s) {
      ran = true;
      return exec_test_empty(s);
    });
    CHECK(late.has_error());
    MESSAGE("work after the fault " << (ran ? "ran and its launch failed" : "was refused before it ran"));
    CHECK(exec.submit([](hipStream_t) {}, engine).get_result(60s).has_error());
    CHECK_FALSE(before.query().is_pending());  // complete or failed, never "still running"
  }
}
