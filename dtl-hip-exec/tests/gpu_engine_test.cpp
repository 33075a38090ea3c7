// SPDX-License-Identifier: MIT
// The progress engine with GPU work (suite gpu.engine): futures completed by pooled events,
// continuations, when_all, many submissions, many pollers, the background thread, device scoping.
#include "doctest.hpp"

#include "gpu_support.hpp"

#include <backends/hip/hip_executor.hpp>
#include <dtl/hip/exec.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

using namespace dtl::hip;
using namespace std::chrono_literals;
using dtl::status_code;
using exec_test::current;

TEST_SUITE("gpu.engine") {
  TEST_CASE("a future goes from pending to complete with the GPU work" * doctest::skip(exec_test::under_sanitizer())) {
    event_poller engine;
    hip_executor exec(stream_flags::non_blocking);
    exec_test::gate gate;
    REQUIRE(exec.execute([&](hipStream_t s) { return gate.close(s); }).has_value());
    exec_test::device_ints x;
    future<void> f = exec.submit([&](hipStream_t s) { return exec_test_store(x.get(), 11, s); }, engine);
    CHECK(engine.pending() == 1);
    CHECK(engine.poll() == 0);
    CHECK(f.query().is_pending());
    auto early = f.get_result(10ms);
    CHECK(early.error().code() == status_code::timeout);
    CHECK(f.valid());
    gate.release();
    CHECK(f.get_result(60s).has_value());
    CHECK(engine.pending() == 0);
    CHECK(gate.outcome() == 1);
    CHECK(x.read() == 11);
  }

  TEST_CASE("then continuations read results the GPU produced; when_all joins streams") {
    event_poller engine;
    auto multi = multi_stream_executor::create(3);
    REQUIRE(multi.has_value());
    exec_test::mapped_int out[3];
    std::vector<future<int>> values;
    for (int i = 0; i < 3; ++i) {
      int* target = out[i].device();
      values.push_back(
          multi->submit([=](hipStream_t s) { return exec_test_store(target, 100 + i, s); }, engine).then([&out, i] {
            return out[i].get();
          }));
    }
    auto all = when_all(std::move(values));
    auto r = all.get_result(60s);
    REQUIRE(r.has_value());
    CHECK(*r == std::vector<int>{100, 101, 102});
  }

  TEST_CASE("a moved-from stream or a foreign device gives a failed future, not a hang") {
    event_poller engine;
    hip_stream a(stream_flags::non_blocking);
    hip_stream b(std::move(a));
    CHECK(engine.enqueue(a).get_result(1s).error().code() ==
          status_code::invalid_state);  // NOLINT(bugprone-use-after-move)
    CHECK(engine.enqueue(stream_ref{}, device_count()).get_result(1s).error().code() == status_code::invalid_argument);
    CHECK(engine.enqueue(b).get_result(60s).has_value());
  }

  TEST_CASE("10,000 concurrent submissions each complete exactly once") {
    constexpr int total = 10'000;
    constexpr int submitters = 4;
    event_poller engine;
    auto multi = multi_stream_executor::create(4);
    REQUIRE(multi.has_value());
    exec_test::device_ints slots(total);
    std::vector<std::atomic<int>> completions(total);
    std::vector<std::vector<future<void>>> futures(submitters);
    std::vector<std::thread> threads;
    for (int t = 0; t < submitters; ++t)
      threads.emplace_back([&, t] {
        for (int i = t; i < total; i += submitters) {
          futures[static_cast<std::size_t>(t)].push_back(
              multi->submit([&, i](hipStream_t s) { return exec_test_mark(slots.get(), i, s); }, engine)
                  .then([&completions, i] { completions[static_cast<std::size_t>(i)].fetch_add(1); }));
          if (i % 64 == 0) engine.poll();  // submitters also make progress
        }
      });
    for (auto& th : threads) th.join();
    std::vector<future<void>> all;
    for (auto& v : futures)
      for (auto& f : v) all.push_back(std::move(f));
    REQUIRE(all.size() == static_cast<std::size_t>(total));
    CHECK(when_all(std::move(all)).get_result(120s).has_value());
    CHECK(engine.pending() == 0);
    int wrong = 0;
    for (auto& c : completions) wrong += c.load() == 1 ? 0 : 1;
    CHECK(wrong == 0);
    REQUIRE(multi->synchronize().has_value());
    std::vector<int> host(total);
    REQUIRE(hipMemcpy(host.data(), slots.get(), total * sizeof(int), hipMemcpyDeviceToHost) == hipSuccess);
    int not_once = 0;
    for (int v : host) not_once += v == 1 ? 0 : 1;
    CHECK(not_once == 0);
  }

  TEST_CASE("progress driven from 8 threads: every operation completes exactly once" *
            doctest::skip(exec_test::under_sanitizer())) {
    // Work held back by a gate stays in the streams' command queues, which hold about a thousand
    // commands each before launches block: keep well below that (8 streams x 100 operations).
    constexpr int streams = 8;
    constexpr int total = 800;
    event_poller engine;
    auto multi = multi_stream_executor::create(streams);
    REQUIRE(multi.has_value());
    exec_test::gate gate;
    for (std::size_t s = 0; s < streams; ++s)
      REQUIRE(multi->at(s).execute([&](hipStream_t h) { return gate.close(h); }).has_value());
    std::vector<std::atomic<int>> completions(total);
    std::vector<future<void>> futures;
    for (int i = 0; i < total; ++i)
      futures.push_back(multi->submit([](hipStream_t s) { return exec_test_empty(s); }, engine).then([&completions, i] {
        completions[static_cast<std::size_t>(i)].fetch_add(1);
      }));
    CHECK(engine.pending() == static_cast<std::size_t>(total));

    std::atomic<std::size_t> completed{0};
    std::atomic<int> devices_changed{0};
    std::vector<std::thread> pollers;
    for (int t = 0; t < 8; ++t)
      pollers.emplace_back([&] {
        const int dev = current();
        const auto deadline = std::chrono::steady_clock::now() + 120s;
        while (engine.pending() > 0 && std::chrono::steady_clock::now() < deadline) completed += engine.poll();
        if (current() != dev) devices_changed.fetch_add(1);
      });
    std::this_thread::sleep_for(5ms);
    CHECK(completed.load() == 0);  // all held back by the gate
    gate.release();
    for (auto& p : pollers) p.join();
    CHECK(completed.load() == static_cast<std::size_t>(total));  // the pollers' counts add up exactly
    CHECK(devices_changed.load() == 0);
    int wrong = 0;
    for (auto& c : completions) wrong += c.load() == 1 ? 0 : 1;
    CHECK(wrong == 0);
    CHECK(when_all(std::move(futures)).get_result(0ns).has_value());
  }

  TEST_CASE("the background thread completes GPU futures while the host does other things" *
            doctest::skip(exec_test::under_sanitizer())) {
    event_poller engine;
    dtl::hip::scoped_background_progress bg(engine);
    REQUIRE(bg.started().ok());
    hip_executor exec(stream_flags::non_blocking);
    exec_test::gate gate;
    REQUIRE(exec.execute([&](hipStream_t s) { return gate.close(s); }).has_value());
    exec_test::device_ints x;
    std::atomic<bool> continued{false};
    std::thread::id ran_on;
    auto f = exec.submit([&](hipStream_t s) { return exec_test_store(x.get(), 3, s); }, engine).then([&] {
      ran_on = std::this_thread::get_id();
      continued = true;
    });
    gate.release();  // only now can the work finish; this thread never polls or waits on `f`
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!continued.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(50us);
    REQUIRE(continued.load());
    CHECK(ran_on != std::this_thread::get_id());
    CHECK(f.query().is_complete());
    CHECK(x.read() == 3);
  }

  TEST_CASE("reserved events make submissions create no event") {
    event_poller engine;
    const int dev = current();
    REQUIRE(engine.reserve_events(dev, 64).has_value());
    hip_executor exec(stream_flags::non_blocking);
    std::vector<future<void>> fs;
    for (int i = 0; i < 64; ++i) fs.push_back(exec.marker(engine));
    CHECK(when_all(std::move(fs)).get_result(60s).has_value());
  }

  TEST_CASE("copy_async gives a future that completes once the data has arrived" *
            doctest::skip(exec_test::under_sanitizer())) {
    event_poller engine;
    constexpr std::size_t n = 1 << 20;
    unsigned char* host_in = nullptr;
    unsigned char* host_out = nullptr;
    void* dev = nullptr;
    REQUIRE(hipHostMalloc(reinterpret_cast<void**>(&host_in), n, 0) == hipSuccess);
    REQUIRE(hipHostMalloc(reinterpret_cast<void**>(&host_out), n, 0) == hipSuccess);
    REQUIRE(hipMalloc(&dev, n) == hipSuccess);
    for (std::size_t i = 0; i < n; ++i) host_in[i] = static_cast<unsigned char>(1 + i % 251);
    std::memset(host_out, 0, n);
    {
      hip_executor exec(stream_flags::non_blocking);
      exec_test::gate gate;
      REQUIRE(exec.execute([&](hipStream_t s) { return gate.close(s); }).has_value());
      auto up = copy_async(dev, host_in, n, transfer_kind::host_to_device, exec.stream(), engine);
      auto down = exec.copy_async(host_out, dev, n, transfer_kind::device_to_host, engine);
      CHECK(up.query().is_pending());
      CHECK(down.query().is_pending());
      gate.release();
      CHECK(up.get_result(60s).has_value());
      CHECK(down.get_result(60s).has_value());
      CHECK(std::memcmp(host_in, host_out, n) == 0);

      auto rejected = exec.copy_async(nullptr, host_in, n, transfer_kind::host_to_device, engine);
      CHECK(rejected.get_result(1s).error().code() == status_code::invalid_argument);
      hip_stream gone;
      hip_stream taker(std::move(gone));
      CHECK(copy_async(dev, host_in, n, transfer_kind::host_to_device, gone, engine).get_result(1s).error().code() ==
            status_code::invalid_state);  // NOLINT(bugprone-use-after-move)
    }
    CHECK(hipFree(dev) == hipSuccess);
    CHECK(hipHostFree(host_out) == hipSuccess);
    CHECK(hipHostFree(host_in) == hipSuccess);
  }

  TEST_CASE("the current device is restored after every call") {
    const int before = current();
    for (int d = 0; d < device_count(); ++d) {
      // Make another device current (when there is one), then work on device d.
      const int other = (d + 1) % device_count();
      REQUIRE(hipSetDevice(other) == hipSuccess);
      auto stream = hip_stream::create(stream_flags::non_blocking, dtl::stream_priority::high, d);
      REQUIRE(stream.has_value());
      CHECK(current() == other);
      auto event = hip_event::create(event_flags::timing, d);
      REQUIRE(event.has_value());
      CHECK(current() == other);
      CHECK(event->record(*stream).has_value());
      CHECK(current() == other);
      CHECK(stream->wait(*event).has_value());
      CHECK(current() == other);
      CHECK_FALSE(stream->query().is_failed());
      CHECK(stream->synchronize().has_value());
      CHECK(event->synchronize().has_value());
      CHECK(current() == other);
      auto def = hip_stream::default_stream(d);
      REQUIRE(def.has_value());
      CHECK(event->record(*def).has_value());
      CHECK(current() == other);

      auto pool = event_pool::create(d);
      REQUIRE(pool.has_value());
      {
        auto pe = pool->acquire();
        REQUIRE(pe.has_value());
        CHECK(pe->record(*stream).has_value());
      }
      CHECK(current() == other);

      hip_executor exec(std::move(*stream));
      int seen = -1;
      CHECK(exec.execute([&](hipStream_t s) {
                  seen = current();
                  return exec_test_empty(s);
                })
                .has_value());
      CHECK(seen == d);  // the work ran on the executor's device
      CHECK(current() == other);
      event_poller engine;
      auto f = exec.submit([](hipStream_t s) { return exec_test_empty(s); }, engine);
      CHECK(current() == other);
      CHECK(f.get_result(60s).has_value());
      CHECK(engine.enqueue(stream_ref{}, d).get_result(60s).has_value());
      CHECK(exec.synchronize().has_value());
      CHECK(exec.synchronize_device().has_value());
      CHECK(current() == other);
      auto multi = multi_stream_executor::create(2, stream_flags::non_blocking, dtl::stream_priority::normal, d);
      REQUIRE(multi.has_value());
      CHECK(multi->synchronize().has_value());
      CHECK(current() == other);
    }
    // Destructors ran with `other` current; they must not have switched either.
    CHECK(hipSetDevice(before) == hipSuccess);
    CHECK(current() == before);
  }
}
