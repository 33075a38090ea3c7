// SPDX-License-Identifier: MIT
// Long then() chains of dtl::hip::future and of the distributed_future made from one: a million
// continuations completed on this thread, on the engine's background poller, or failed by a dropped
// promise cost heap, not stack (they used to recurse, one frame set per link, and crash near 60000 on
// the poller). No device needed: the engine completes a host source.
#include "doctest.hpp"

#include <dtl/hip/distributed_future.hpp>
#include <dtl/hip/event_poller.hpp>

#include <atomic>
#include <chrono>
#include <memory>

using namespace std::chrono_literals;
using dtl::event_status;
using dtl::status_code;
using dtl::hip::event_poller;
using dtl::hip::future;

namespace {

constexpr int chain_length = 1'000'000;

/// `head` followed by chain_length continuations, each adding one.
future<int> long_chain(future<int> head) {
  for (int i = 0; i < chain_length; ++i) head = std::move(head).then([](int x) { return x + 1; });
  return head;
}

}  // namespace

TEST_SUITE("then") {
  TEST_CASE("a chain of a million continuations completed on this thread") {
    dtl::hip::promise<int> p;
    auto last = long_chain(p.get_future());
    REQUIRE(p.set_value(0).has_value());
    auto r = last.get_result(0ns);  // the whole chain ran before set_value returned
    REQUIRE(r.has_value());
    CHECK(*r == chain_length);
  }

  TEST_CASE("a chain of a million continuations whose promise is dropped fails to its end") {
    // On the heap: GCC 13 at -O3 misreads an optional<promise>'s reset as a use of uninitialised memory.
    auto p = std::make_unique<dtl::hip::promise<int>>();
    auto last = long_chain(p->get_future());
    p.reset();
    auto r = last.get_result(0ns);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == status_code::canceled);
  }

  TEST_CASE("a chain of a million continuations completed by the background poller") {
    event_poller engine;
    REQUIRE(engine.start_background(50us).has_value());
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch([flag] { return flag->load() ? event_status::complete() : event_status::pending(); });
    auto last = long_chain(std::move(w.done).then([] { return 0; }));
    flag->store(true);
    auto r = last.get_result(60s);
    REQUIRE(r.has_value());
    CHECK(*r == chain_length);
    CHECK(engine.stop_background().has_value());
  }

  TEST_CASE("a distributed_future chain of a million continuations completed by the background poller") {
    event_poller engine;
    REQUIRE(engine.start_background(50us).has_value());
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto w = engine.watch([flag] { return flag->load() ? event_status::complete() : event_status::pending(); });
    auto f = dtl::hip::to_distributed_future(std::move(w.done).then([] { return 0; }));
    for (int i = 0; i < chain_length; ++i) f = f.then([](int x) { return x + 1; });
    flag->store(true);
    CHECK(f.wait_for(60s) == dtl::future_status::ready);
    CHECK(f.get() == chain_length);
    CHECK(engine.stop_background().has_value());
  }
}
