// SPDX-License-Identifier: MIT
// Concepts, flags, argument checks, moved-from objects (suite api, runs everywhere), and what the
// constructors throw and their twins return without a device (suite no_device: its Meson test says
// --requires=no-device).
#include "doctest.hpp"

#include <backends/hip/hip_event.hpp>
#include <backends/hip/hip_executor.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/exec.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <dtl/core/status_error.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

using dtl::status_code;
using namespace dtl::hip;

namespace {

/// The status a call threw as dtl::status_error; nullopt when it threw nothing.
template <class F>
std::optional<dtl::status> thrown_by(F&& make) {
  try {
    make();
  } catch (const dtl::status_error& e) {
    return e.error();
  }
  return std::nullopt;
}

template <class F>
std::optional<status_code> code_thrown_by(F&& make) {
  auto s = thrown_by(std::forward<F>(make));
  if (!s) return std::nullopt;
  return s->code();
}

/// A stream to move from: the default stream where there is a device, else one made moved-from.
hip_stream some_stream() {
  auto r = hip_stream::default_stream();
  return r.has_value() ? std::move(r).value() : hip_stream(detail::moved_from_t{});
}

hip_event some_event() {
  auto r = hip_event::create();
  return r.has_value() ? std::move(r).value() : hip_event(detail::moved_from_t{});
}

}  // namespace

static_assert(dtl::Executor<hip_executor>);
static_assert(dtl::StreamExecutor<hip_executor>);
static_assert(dtl::Executor<multi_stream_executor>);
static_assert(dtl::Event<hip_event>);
static_assert(dtl::Event<future<void>>);
static_assert(!std::is_copy_constructible_v<hip_stream> && std::is_nothrow_move_constructible_v<hip_stream>);
static_assert(!std::is_copy_constructible_v<hip_event> && std::is_nothrow_move_constructible_v<hip_event>);
static_assert(!std::is_copy_constructible_v<hip_executor> && std::is_nothrow_move_constructible_v<hip_executor>);
static_assert(std::is_convertible_v<const hip_stream&, stream_ref>);
static_assert(std::is_same_v<hip_executor::native_handle_type, hipStream_t>);
// dtl-hip-mem's stream-ordered pool takes the exec layer's streams as they are.
static_assert(requires(hip_pool_memory_space & pool, const hip_stream& stream, void* p) {
  { pool.allocate(std::size_t{64}, stream) } -> std::same_as<dtl::result<void*>>;
  { pool.deallocate(p, std::size_t{64}, stream) }
  noexcept;
});

TEST_SUITE("api") {
  TEST_CASE("event flags") {
    constexpr auto f = event_flags::timing | event_flags::blocking_sync;
    static_assert(has_flag(f, event_flags::timing));
    static_assert(has_flag(f, event_flags::blocking_sync));
    static_assert(!has_flag(f, event_flags::interprocess));
    static_assert(!has_flag(f, event_flags::none));
    CHECK(hip_event::create(event_flags::interprocess | event_flags::timing).error().code() ==
          status_code::invalid_argument);
  }

  TEST_CASE("a multi-stream executor needs at least one stream") {
    auto m = multi_stream_executor::create(0);
    REQUIRE(m.has_error());
    CHECK(m.error().code() == status_code::invalid_argument);
  }

  TEST_CASE("a moved-from stream is invalid, never the default stream") {
    hip_stream a = some_stream();
    hip_stream b(std::move(a));
    CHECK_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): the point of the test
    CHECK_FALSE(a.is_default());
    CHECK(a.device() == dtl::no_device);
    CHECK(a.error().code() == status_code::invalid_state);
    CHECK(a.query().is_failed());
    CHECK(a.query().error().code() == status_code::invalid_state);
    CHECK(a.synchronize().error().code() == status_code::invalid_state);
    CHECK(a.ref().error().code() == status_code::invalid_state);
    // An executor is never made on a moved-from stream: the constructor throws, create() says so.
    CHECK(code_thrown_by([&] { hip_executor exec(std::move(a)); }) == status_code::invalid_argument);
    CHECK(hip_executor::create(std::move(a)).error().code() == status_code::invalid_argument);
  }

  TEST_CASE("a moved-from executor returns invalid_state from every call") {
    hip_executor exec(detail::moved_from_t{});
    hip_executor taker(std::move(exec));
    CHECK_FALSE(exec.valid());  // NOLINT(bugprone-use-after-move)
    bool ran = false;
    CHECK(exec.execute([&](hipStream_t) { ran = true; }).error().code() == status_code::invalid_state);
    CHECK_FALSE(ran);
    CHECK(exec.submit([](hipStream_t) {}).get_result().error().code() == status_code::invalid_state);
    CHECK(exec.synchronize().error().code() == status_code::invalid_state);
    CHECK(exec.synchronize_device().error().code() == status_code::invalid_state);
    CHECK(exec.query().error().code() == status_code::invalid_state);
    CHECK(exec.device() == dtl::no_device);
  }

  TEST_CASE("a moved-from event is invalid; its state moved with it") {
    hip_event a = some_event();
    hip_event b(std::move(a));
    CHECK_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
    CHECK(a.device() == dtl::no_device);
    CHECK(a.error().code() == status_code::invalid_state);
    CHECK(a.query().is_failed());
    CHECK_FALSE(static_cast<bool>(a.query()));
    CHECK(a.synchronize().error().code() == status_code::invalid_state);
    CHECK(a.record(stream_ref{}).error().code() == status_code::invalid_state);
    CHECK(hip_event::elapsed_ms(a, a).error().code() == status_code::invalid_state);
  }

  TEST_CASE("arguments are checked first: the same status with or without a device") {
    CHECK(hip_stream::wrap(nullptr, true).error().code() == status_code::invalid_argument);
    CHECK(hip_stream::create(static_cast<stream_flags>(5)).error().code() == status_code::invalid_argument);
    CHECK(hip_stream::create(stream_flags::non_blocking, static_cast<dtl::stream_priority>(9)).error().code() ==
          status_code::invalid_argument);
    CHECK(hip_stream::create(stream_flags::non_blocking, dtl::stream_priority::normal, -1).error().code() ==
          status_code::invalid_argument);
    // The constructors throw what their twins return.
    CHECK(code_thrown_by([] { hip_stream s(static_cast<stream_flags>(5)); }) == status_code::invalid_argument);
    CHECK(code_thrown_by([] { hip_stream s(nullptr, true); }) == status_code::invalid_argument);
    CHECK(code_thrown_by([] { hip_event e(static_cast<event_flags>(1u << 6)); }) == status_code::invalid_argument);
    CHECK(code_thrown_by([] { hip_executor exec(static_cast<stream_flags>(5)); }) == status_code::invalid_argument);
    CHECK(hip_executor::create(static_cast<stream_flags>(5)).error().code() == status_code::invalid_argument);
    CHECK(hip_event::create(static_cast<event_flags>(1u << 6)).error().code() == status_code::invalid_argument);
    CHECK(hip_event::create(event_flags::none, -1).error().code() == status_code::invalid_argument);
    CHECK(event_pool::create(-1).error().code() == status_code::invalid_argument);
    CHECK(multi_stream_executor::create(2, static_cast<stream_flags>(5)).error().code() ==
          status_code::invalid_argument);

    event_poller engine;
    CHECK(engine.reserve_events(-1, 4).error().code() == status_code::invalid_argument);
    CHECK(engine.enqueue(stream_ref{}, -1).get_result().error().code() == status_code::invalid_argument);
    CHECK(engine.start_background(std::chrono::microseconds(-1)).error().code() == status_code::invalid_argument);
    CHECK_FALSE(engine.background_running());
  }

  TEST_CASE("copy_async checks the copy before the executor's stream") {
    std::array<unsigned char, 16> a{};
    std::array<unsigned char, 16> b{};
    // Moved-from (as every executor is without a device): the arguments are still judged first.
    hip_executor exec(detail::moved_from_t{});
    const auto h2d = transfer_kind::host_to_device;
    CHECK(exec.copy_async(nullptr, a.data(), 4, h2d).get_result().error().code() == status_code::invalid_argument);
    CHECK(exec.copy_async(a.data(), nullptr, 4, h2d).get_result().error().code() == status_code::invalid_argument);
    CHECK(exec.copy_async(a.data(), b.data(), 0, h2d).get_result().error().code() == status_code::invalid_argument);
    CHECK(exec.copy_async(a.data(), b.data(), 4, static_cast<transfer_kind>(42)).get_result().error().code() ==
          status_code::invalid_argument);
    CHECK(exec.copy_async(a.data() + 1, a.data(), 4, transfer_kind::host_to_host).get_result().error().code() ==
          status_code::invalid_argument);
    CHECK(copy_async(nullptr, a.data(), 4, h2d, exec.stream()).get_result().error().code() ==
          status_code::invalid_argument);
    // The same call that hip_memory_transfer judges the same way.
    CHECK(hip_memory_transfer::copy_async(nullptr, a.data(), 4, h2d, stream_ref{}).error().code() ==
          status_code::invalid_argument);
    // A valid copy on a moved-from stream: the stream's own status.
    hip_stream moved = some_stream();
    hip_stream taker(std::move(moved));
    CHECK(copy_async(a.data(), b.data(), 4, transfer_kind::host_to_host, moved).get_result().error().code() ==
          status_code::invalid_state);  // NOLINT(bugprone-use-after-move)
  }

  TEST_CASE("counts are judged before anything is made, with a device or without") {
    // Each used to go straight to a container: SIZE_MAX threw std::length_error, 2^40 std::bad_alloc.
    for (const std::size_t count : {SIZE_MAX, std::size_t{1} << 40, multi_stream_executor::max_streams + 1}) {
      const auto r = multi_stream_executor::create(count);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().code() == status_code::invalid_argument);
      CHECK(r.error().message().find("max_streams") != std::string::npos);
    }
    CHECK(multi_stream_executor::create(0).error().code() == status_code::invalid_argument);

    event_poller engine;
    for (const std::size_t count : {SIZE_MAX, event_pool::default_max_cached + 1}) {
      const auto r = engine.reserve_events(0, count);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().code() == status_code::invalid_argument);
      CHECK(r.error().message().find("default_max_cached") != std::string::npos);
    }
  }

  TEST_CASE("an empty pooled event") {
    pooled_event e;
    CHECK_FALSE(e.valid());
    CHECK(e.device() == dtl::no_device);
    CHECK(e.query().is_failed());
    CHECK(e.record(stream_ref{}).error().code() == status_code::invalid_state);
    e.discard();  // no-op
  }
}

TEST_SUITE("no_device") {
  TEST_CASE("stream constructors throw backend_not_available; their twins return it") {
    const auto thrown = thrown_by([] { hip_stream default_stream; });
    REQUIRE(thrown.has_value());
    CHECK(thrown->code() == status_code::backend_not_available);
    CHECK(thrown->message().find("no HIP device") != std::string::npos);
    CHECK(code_thrown_by([] { hip_stream s(stream_flags::non_blocking, dtl::stream_priority::high); }) ==
          status_code::backend_not_available);
    int external = 0;  // any handle: without a device it is never looked at
    CHECK(code_thrown_by([&] { hip_stream s(reinterpret_cast<hipStream_t>(&external), false); }) ==
          status_code::backend_not_available);
    CHECK(hip_stream::create().error().code() == status_code::backend_not_available);
    CHECK(hip_stream::create(stream_flags::non_blocking, dtl::stream_priority::normal, 0).error().code() ==
          status_code::backend_not_available);
    CHECK(hip_stream::default_stream().error().code() == status_code::backend_not_available);
    CHECK(hip_stream::wrap(nullptr, false).error().code() == status_code::backend_not_available);
  }

  TEST_CASE("event and executor constructors throw backend_not_available; their twins return it") {
    CHECK(code_thrown_by([] { hip_event e; }) == status_code::backend_not_available);
    CHECK(code_thrown_by([] { hip_event e(event_flags::timing); }) == status_code::backend_not_available);
    CHECK(hip_event::create(event_flags::timing).error().code() == status_code::backend_not_available);
    CHECK(code_thrown_by([] { hip_executor exec; }) == status_code::backend_not_available);
    CHECK(code_thrown_by([] { hip_executor exec(stream_flags::non_blocking); }) == status_code::backend_not_available);
    CHECK(code_thrown_by([] { hip_executor exec(hip_stream{}); }) == status_code::backend_not_available);
    CHECK(hip_executor::create(stream_flags::non_blocking).error().code() == status_code::backend_not_available);
    CHECK(multi_stream_executor::create(2).error().code() == status_code::backend_not_available);
    CHECK(event_pool::create().error().code() == status_code::backend_not_available);
  }

  TEST_CASE("calls that need a device report backend_not_available") {
    const dtl::event_status q = stream_ref{}.query();
    CHECK(q.is_failed());
    CHECK(q.error().code() == status_code::backend_not_available);
    CHECK(stream_ref{}.synchronize().error().code() == status_code::backend_not_available);

    event_poller engine;
    CHECK(engine.enqueue(stream_ref{}, 0).get_result().error().code() == status_code::backend_not_available);
    CHECK(engine.reserve_events(0, 4).error().code() == status_code::backend_not_available);
    CHECK(engine.pending() == 0);
  }
}
