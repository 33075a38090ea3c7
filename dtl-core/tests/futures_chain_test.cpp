// SPDX-License-Identifier: MIT
// Long then() chains: completing, failing or dropping the head of a chain of a million continuations
// costs heap, not stack (each link used to run inside the completion of the one before, and a chain of
// 100000 overflowed the stack). Also: a continuation that blocks on a future whose completion is queued
// behind it on the same thread still gets its value.
#include "doctest.hpp"

#include <dtl/futures/futures.hpp>

#include <memory>
#include <thread>

namespace {

constexpr int chain_length = 1'000'000;

/// `head` followed by chain_length continuations, each adding one.
dtl::distributed_future<int> long_chain(dtl::distributed_future<int> head) {
  for (int i = 0; i < chain_length; ++i) head = head.then([](int x) { return x + 1; });
  return head;
}

}  // namespace

TEST_SUITE("futures_chain") {
  TEST_CASE("a chain of a million continuations completed on this thread") {
    dtl::distributed_promise<int> p;
    auto last = long_chain(p.get_future());
    p.set_value(0);
    CHECK(last.is_ready());  // the whole chain ran before set_value returned
    CHECK(last.get() == chain_length);
  }

  TEST_CASE("a chain of a million continuations completed on another thread") {
    dtl::distributed_promise<int> p;
    auto last = long_chain(p.get_future());
    std::thread producer([&p] { p.set_value(1); });
    CHECK(last.get() == chain_length + 1);
    producer.join();
  }

  TEST_CASE("a chain of a million continuations whose promise is dropped fails to its end") {
    auto p = std::make_unique<dtl::distributed_promise<int>>();
    auto last = long_chain(p->get_future());
    p.reset();
    auto r = last.get_result();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == dtl::status_code::canceled);
  }

  TEST_CASE("a chain of a million continuations that never completes is destroyed") {
    auto head = std::make_shared<dtl::futures::detail::shared_state<int>>();
    std::weak_ptr<dtl::futures::detail::shared_state<int>> watch = head;
    {
      auto last = long_chain(dtl::distributed_future<int>(head));
      CHECK_FALSE(last.is_ready());
      head.reset();
    }
    CHECK(watch.expired());
  }

  TEST_CASE("a continuation waiting on a future completed by a later continuation gets its value") {
    dtl::distributed_promise<int> first;
    dtl::distributed_promise<int> second;
    auto second_plus_one = second.get_future().then([](int x) { return x + 1; });
    auto outer = first.get_future().then([&](int x) {
      second.set_value(x);
      return second_plus_one.get();  // its continuation is queued on this thread, behind this one
    });
    first.set_value(10);
    CHECK(outer.get() == 11);
  }
}
