// SPDX-License-Identifier: MIT
// hip_stream, hip_event and the event pool on a real device (suites gpu.stream, gpu.event, gpu.multi_device).
#include "doctest.hpp"

#include "gpu_support.hpp"

#include <backends/hip/hip_event.hpp>
#include <backends/hip/hip_executor.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>
#include <dtl/hip/event_poller.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

using namespace dtl::hip;
using dtl::status_code;
using dtl::stream_priority;
using exec_test::current;

TEST_SUITE("gpu.stream") {
  TEST_CASE("a hip_stream plugs into the stream-ordered pool as it is") {
    hip_stream stream(stream_flags::non_blocking);
    REQUIRE(stream.valid());
    hip_pool_memory_space pool;
    REQUIRE(pool.availability().ok());
    const auto a = pool.allocate(sizeof(int), stream);
    REQUIRE(a.has_value());
    auto* value = static_cast<int*>(*a);
    REQUIRE(exec_test_store(value, 41, stream.native_handle()) == hipSuccess);
    pool.deallocate(value, sizeof(int), stream);
    const auto b = pool.allocate(sizeof(int), stream);  // ordered after the store on the same stream
    REQUIRE(b.has_value());
    REQUIRE(exec_test_store(static_cast<int*>(*b), 42, stream.native_handle()) == hipSuccess);
    REQUIRE(stream.synchronize().has_value());
    int host = 0;
    REQUIRE(hipMemcpy(&host, *b, sizeof host, hipMemcpyDeviceToHost) == hipSuccess);
    CHECK(host == 42);
    CHECK(pool.try_deallocate(*b, sizeof(int), stream).ok());
    CHECK(pool.stats().live_allocations == 0);
  }

  TEST_CASE("default, owned, prioritised and wrapped streams") {
    const int dev = current();
    hip_stream def;
    REQUIRE(def.valid());
    CHECK(def.is_default());
    CHECK_FALSE(def.owns());
    CHECK(def.device() == dev);
    CHECK(def.synchronize().has_value());

    hip_stream owned(stream_flags::non_blocking);
    REQUIRE(owned.valid());
    CHECK_FALSE(owned.is_default());
    CHECK(owned.owns());
    CHECK(owned.native_handle() != nullptr);
    const auto p = owned.properties();
    CHECK(p.non_blocking);
    CHECK(p.owning);
    CHECK(p.device_id == dev);
    CHECK(p.priority == stream_priority::normal);
    CHECK(owned.query().is_complete());

    for (auto prio : {stream_priority::low, stream_priority::high}) {
      auto s = hip_stream::create(stream_flags::non_blocking, prio);
      REQUIRE(s.has_value());
      CHECK(s->priority() == prio);
      CHECK(s->synchronize().has_value());
    }

    hipStream_t external = nullptr;
    REQUIRE(hipStreamCreateWithFlags(&external, hipStreamNonBlocking) == hipSuccess);
    {
      hip_stream wrapped(external, false);
      REQUIRE(wrapped.valid());
      CHECK_FALSE(wrapped.owns());
      CHECK(wrapped.native_handle() == external);
      CHECK(wrapped.flags() == stream_flags::non_blocking);
      const stream_ref view = wrapped;
      CHECK(view.get() == external);
    }
    CHECK(hipStreamQuery(external) == hipSuccess);  // not destroyed by the wrapper
    {
      hip_stream adopted(external, true);  // now it is destroyed here
      CHECK(adopted.owns());
    }
    CHECK(hip_stream::wrap(nullptr, true).error().code() == status_code::invalid_argument);
    CHECK(current() == dev);
  }

  TEST_CASE("moves transfer ownership; a moved-from stream is invalid") {
    hip_stream a(stream_flags::non_blocking);
    const hipStream_t h = a.native_handle();
    hip_stream b(std::move(a));
    CHECK(b.native_handle() == h);
    CHECK(b.owns());
    CHECK_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
    CHECK(a.native_handle() == nullptr);
    CHECK(a.error().code() == status_code::invalid_state);
    hip_stream c;
    c = std::move(b);
    CHECK(c.native_handle() == h);
    CHECK(c.synchronize().has_value());
  }
}

TEST_SUITE("gpu.event") {
  TEST_CASE("an event goes from pending to complete when a gate kernel is released" *
            doctest::skip(exec_test::under_sanitizer())) {
    const int dev = current();
    hip_stream stream(stream_flags::non_blocking);
    exec_test::gate gate;
    REQUIRE(gate.close(stream.native_handle()) == hipSuccess);
    hip_event event;
    CHECK(event.valid());
    CHECK_FALSE(event.recorded());
    CHECK(event.query().is_complete());  // nothing recorded yet: nothing to wait for, as in HIP
    REQUIRE(event.record(stream).has_value());
    CHECK(event.recorded());

    const auto before = event.query();
    CHECK(before.is_pending());
    CHECK_FALSE(static_cast<bool>(before));
    CHECK(stream.query().is_pending());

    hip_event moved(std::move(event));  // the recorded state moves with the event
    CHECK(moved.recorded());
    CHECK(moved.query().is_pending());

    gate.release();
    REQUIRE(moved.synchronize().has_value());
    CHECK(static_cast<bool>(moved.query()));
    CHECK(gate.outcome() == 1);  // released, not timed out
    CHECK(stream.query().is_complete());
    CHECK(current() == dev);
  }

  TEST_CASE("elapsed time between two timing events") {
    hip_stream stream(stream_flags::non_blocking);
    hip_event start(event_flags::timing);
    hip_event end(event_flags::timing);
    REQUIRE(start.record(stream).has_value());
    exec_test::device_ints x;
    for (int i = 0; i < 100; ++i) REQUIRE(exec_test_store(x.get(), i, stream.native_handle()) == hipSuccess);
    REQUIRE(end.record(stream).has_value());
    REQUIRE(end.synchronize().has_value());
    auto ms = hip_event::elapsed_ms(start, end);
    REQUIRE(ms.has_value());
    CHECK(*ms >= 0.0f);
    CHECK(*ms < 10'000.0f);

    hip_event untimed;
    REQUIRE(untimed.record(stream).has_value());
    CHECK(hip_event::elapsed_ms(start, untimed).error().code() == status_code::invalid_argument);
    hip_event never(event_flags::timing);
    CHECK(hip_event::elapsed_ms(start, never).error().code() == status_code::invalid_state);
  }

  TEST_CASE("interprocess and blocking-sync events") {
    auto ipc = hip_event::create(event_flags::interprocess);
    REQUIRE(ipc.has_value());
    CHECK(has_flag(ipc->flags(), event_flags::interprocess));
    hip_event blocking(event_flags::blocking_sync);
    REQUIRE(blocking.valid());
    hip_stream stream(stream_flags::non_blocking);
    REQUIRE(blocking.record(stream).has_value());
    CHECK(blocking.synchronize().has_value());
  }

  TEST_CASE("events recorded on the default stream, through a view") {
    hip_event e;
    REQUIRE(e.record(stream_ref{}).has_value());
    CHECK(e.synchronize().has_value());
    hip_stream def;
    REQUIRE(def.record(e).has_value());
    CHECK(e.synchronize().has_value());
  }

  TEST_CASE("the event pool reuses events") {
    auto pool = event_pool::create();
    REQUIRE(pool.has_value());
    REQUIRE(pool->reserve(8).has_value());
    CHECK(pool->idle() == 8);
    CHECK(pool->created() == 8);
    hip_stream stream(stream_flags::non_blocking);
    {
      auto a = pool->acquire();
      auto b = pool->acquire();
      REQUIRE(a.has_value());
      REQUIRE(b.has_value());
      CHECK(a->native_handle() != b->native_handle());
      CHECK(pool->idle() == 6);
      REQUIRE(a->record(stream).has_value());
      CHECK(a->synchronize().has_value());
      CHECK(a->query().is_complete());
      b->discard();
      CHECK_FALSE(b->valid());
    }
    CHECK(pool->idle() == 7);  // a came back, b was destroyed
    for (int i = 0; i < 20; ++i) CHECK(pool->acquire().has_value());
    CHECK(pool->created() == 8);  // no event was created after the reserve
  }

  TEST_CASE("the event pool's reserve refuses counts above max_cached and keeps what it makes") {
    // It used to create them all and destroy all but max_cached again (and SIZE_MAX threw length_error).
    auto pool = event_pool::create(std::nullopt, 10);
    REQUIRE(pool.has_value());
    CHECK(pool->reserve(0).has_value());
    CHECK(pool->created() == 0);
    REQUIRE(pool->reserve(10).has_value());
    CHECK(pool->idle() == 10);
    for (const std::size_t count : {std::size_t{11}, std::size_t{100000}, SIZE_MAX}) {
      const auto r = pool->reserve(count);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().code() == status_code::invalid_argument);
      CHECK(r.error().message().find("max_cached 10") != std::string::npos);
    }
    CHECK(pool->idle() == 10);  // as it was
    CHECK(pool->created() == 10);

    event_poller engine;
    REQUIRE(engine.reserve_events(current(), 100).has_value());
    CHECK(engine.reserve_events(current(), SIZE_MAX).error().code() == status_code::invalid_argument);
  }
}

// Meson test gpu-multi-device (--requires=devices:2): SKIP with fewer than two devices.
TEST_SUITE("gpu.multi_device") {
  TEST_CASE("a stream of another device is refused by an event") {
    auto s = hip_stream::create(stream_flags::non_blocking, stream_priority::normal, 1);
    REQUIRE(s.has_value());
    auto e = hip_event::create(event_flags::none, 0);
    REQUIRE(e.has_value());
    CHECK(e->record(*s).error().code() == status_code::invalid_argument);
  }
}
