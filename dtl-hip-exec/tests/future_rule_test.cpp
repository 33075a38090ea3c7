// SPDX-License-Identifier: MIT
// One rule for both future types, dtl::hip::future (dtl::async{} algorithms, executors) and upstream's
// dtl::distributed_future (dtl::async_reduce and the other async_* forms): get() returns the value and
// throws dtl::status_error with the producer's status; get_result() returns result<T>. Both take a
// timeout, which throws (or returns) status_code::timeout and leaves the future valid.
#include "doctest.hpp"

#include <dtl/core/status_error.hpp>
#include <dtl/futures/futures.hpp>
#include <dtl/hip/future.hpp>

#include <chrono>
#include <type_traits>
#include <utility>

using namespace std::chrono_literals;
using dtl::status;
using dtl::status_code;

namespace {

// A pending future of each type with the calls that complete it, so one test body checks both.
template <class T>
struct hip_pair {
  dtl::hip::promise<T> p;
  dtl::hip::future<T> f = p.get_future();
  template <class... A>
  void set_value(A&&... a) {
    REQUIRE(p.set_value(std::forward<A>(a)...).has_value());
  }
  void set_error(status s) { REQUIRE(p.set_error(std::move(s)).has_value()); }
};

template <class T>
struct upstream_pair {
  dtl::distributed_promise<T> p;
  dtl::distributed_future<T> f = p.get_future();
  template <class... A>
  void set_value(A&&... a) {
    p.set_value(std::forward<A>(a)...);
  }
  void set_error(status s) { p.set_error(std::move(s)); }
};

status_code thrown_code(auto&& get) {
  try {
    get();
  } catch (const dtl::status_error& e) {
    return e.code();
  }
  return status_code::ok;
}

}  // namespace

TEST_SUITE("future_rule") {
  TEST_CASE_TEMPLATE("get() returns the value; get_result() the same as a result", P, hip_pair<int>,
                     upstream_pair<int>) {
    P a;
    a.set_value(7);
    static_assert(std::is_same_v<decltype(a.f.get()), int>);
    CHECK(a.f.get() == 7);
    CHECK_FALSE(a.f.valid());  // consumed
    P b;
    b.set_value(8);
    auto r = b.f.get_result();
    static_assert(std::is_same_v<decltype(r), dtl::result<int>>);
    REQUIRE(r.has_value());
    CHECK(*r == 8);
  }

  TEST_CASE_TEMPLATE("get() throws the producer's status; get_result() returns it", P, hip_pair<int>,
                     upstream_pair<int>, hip_pair<void>, upstream_pair<void>) {
    P a;
    a.set_error(status(status_code::not_found, "the producer's failure"));
    CHECK_THROWS_WITH_AS(a.f.get(), doctest::Contains("the producer's failure"), dtl::status_error);
    P b;
    b.set_error(status(status_code::not_found, "the producer's failure"));
    auto r = b.f.get_result();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == status_code::not_found);
    CHECK(r.error().message() == "the producer's failure");
  }

  TEST_CASE_TEMPLATE("a timeout throws (or returns) timeout and keeps the future", P, hip_pair<int>,
                     upstream_pair<int>) {
    P a;
    CHECK(thrown_code([&] { (void)a.f.get(1ms); }) == status_code::timeout);
    CHECK(a.f.valid());
    auto r = a.f.get_result(1ms);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == status_code::timeout);
    CHECK(a.f.valid());
    a.set_value(3);
    CHECK(a.f.get(1s) == 3);
  }

  TEST_CASE_TEMPLATE("an empty future: get() throws invalid_state", P, hip_pair<int>, upstream_pair<int>) {
    P a;
    a.set_value(1);
    (void)a.f.get();
    CHECK(thrown_code([&] { (void)a.f.get(); }) == status_code::invalid_state);
    CHECK(a.f.get_result().error().code() == status_code::invalid_state);
  }
}
