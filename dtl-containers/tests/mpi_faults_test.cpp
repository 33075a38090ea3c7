// SPDX-License-Identifier: MIT
// Ranks that disagree or fail alone (run with 2 and 3 ranks, suite mpi-faults): every rank gets the same
// status, and nothing hangs (each run has a Meson timeout, so a hang is a failure). The cases that end
// the job (a rank that throws, aborts, dies or skips a collective) are in faults/.
#include "address_space_cap.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

bool mentions(const dtl::status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

using test_support::same_status_everywhere;
using test_support::still_in_step;

using test_support::address_sanitizer;

}  // namespace

TEST_SUITE("mpi_faults") {
  TEST_CASE("ranks that build vectors of different sizes all get invalid_argument") {
    const auto ctx = test_support::world();
    const std::size_t n = ctx.rank() == 0 ? 1000 : 10;
    auto made = dtl::distributed_vector<int>::create(n, ctx);
    REQUIRE_FALSE(made.has_value());
    CHECK(made.error() == dtl::status_code::invalid_argument);
    CHECK(mentions(made.error(), "global size"));
    CHECK(mentions(made.error(), "1000 on rank 0"));
    same_status_everywhere(ctx, made.error());
    CHECK_THROWS_AS(dtl::distributed_vector<int>(n, ctx), dtl::status_error);
    still_in_step(ctx);
  }

  TEST_CASE("ranks that build vectors of different element types all get invalid_argument") {
    const auto ctx = test_support::world();
    const dtl::status s = ctx.rank() == 0 ? dtl::distributed_vector<int>::create(64, ctx).error()
                                          : dtl::distributed_vector<double>::create(64, ctx).error();
    CHECK(s.code() == dtl::status_code::invalid_argument);
    CHECK(mentions(s, "element size"));
    same_status_everywhere(ctx, s);
  }

  TEST_CASE("a remote access past the owner's extent is out_of_range, not another rank's memory") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), r = ctx.rank();
    // Rank r exposes r + 1 values of its own: extents differ on purpose.
    std::vector<std::int64_t> mine(static_cast<std::size_t>(r + 1), 100 * r);
    auto w = dtl::detail::open_window(ctx, mine.data(), mine.size() * sizeof(std::int64_t));
    REQUIRE(w.has_value());
    const int peer = (r + 1) % p;
    std::int64_t value = 0;
    CHECK((*w)->get(peer, static_cast<std::size_t>(peer) * 8, &value, 8).ok());  // the peer's last value
    CHECK(value == 100 * peer);
    CHECK((*w)->get(peer, static_cast<std::size_t>(peer + 1) * 8, &value, 8).code() == dtl::status_code::out_of_range);
    CHECK((*w)->put(peer, static_cast<std::size_t>(peer) * 8 + 4, &value, 8).code() == dtl::status_code::out_of_range);
    CHECK((*w)->get(p, 0, &value, 8).code() == dtl::status_code::invalid_rank);
    CHECK(ctx.barrier().has_value());  // every access done before the window goes
  }

  TEST_CASE("a null buffer on one rank fails the collective on every rank, naming that rank") {
    const auto ctx = test_support::world();
    const int p = ctx.size();
    int in = 1, out = 0;
    const auto r = ctx.allreduce(ctx.rank() == 1 ? nullptr : &in, &out, 1, dtl::reduce_op::sum);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == dtl::status_code::collective_failure);
    CHECK(mentions(r.error(), "1 of " + std::to_string(p) + " ranks failed"));
    CHECK(mentions(r.error(), "rank 1: "));
    CHECK(mentions(r.error(), "send buffer is nullptr"));
    same_status_everywhere(ctx, r.error());
    still_in_step(ctx);
    // The same through broadcast's and allgather's checks, and in every rank alike (then its own code).
    CHECK(ctx.broadcast(ctx.rank() == p - 1 ? static_cast<int*>(nullptr) : &in, 1, 0).error() ==
          dtl::status_code::collective_failure);
    std::vector<int> all(static_cast<std::size_t>(p));
    CHECK(ctx.allgather(&in, ctx.rank() == 0 ? static_cast<int*>(nullptr) : all.data(), 1).error() ==
          dtl::status_code::collective_failure);
    const auto everyone = ctx.allreduce(static_cast<const int*>(nullptr), &out, 1, dtl::reduce_op::sum);
    CHECK(everyone.error() == dtl::status_code::invalid_argument);
    CHECK(mentions(everyone.error(), "every rank failed"));
    still_in_step(ctx);
  }

  TEST_CASE("an agreed failure names the failing rank's check once, not the agreement's own file") {
    const auto ctx = test_support::world();
    int in = 1, out = 0;
    const auto one = ctx.allreduce(ctx.rank() == 1 ? nullptr : &in, &out, 1, dtl::reduce_op::sum);
    const auto all = ctx.allreduce(static_cast<const int*>(nullptr), &out, 1, dtl::reduce_op::sum);
    for (const dtl::status& s : {one.error(), all.error()}) {
      const std::string text = s.to_string();
      INFO(text);
      CHECK(text.find(" at ") == text.rfind(" at "));  // one location, no "at ... at ..." chain
      CHECK(s.origin().find("dtl-containers/") == 0);
      CHECK(s.origin().find("agreement.cpp") == std::string::npos);
      CHECK(text.ends_with(" at " + s.origin()));
    }
    // Every rank alike: the cause's code is the status's own, and not repeated in its message.
    CHECK(std::string(all.error().message()).find("invalid_argument") == std::string::npos);
    still_in_step(ctx);
  }

  TEST_CASE("ranks that call different collectives, or pass different arguments, all get invalid_argument") {
    const auto ctx = test_support::world();
    int x = ctx.rank();
    const auto mixed = ctx.rank() == 0 ? ctx.allreduce(&x, &x, 1, dtl::reduce_op::sum) : ctx.broadcast(&x, 1, 0);
    CHECK(mixed.error() == dtl::status_code::invalid_argument);
    CHECK(mentions(mixed.error(), "rank 0 calls allreduce"));
    CHECK(mentions(mixed.error(), "rank 1 calls broadcast"));
    same_status_everywhere(ctx, mixed.error());

    std::vector<int> buf(4, 1);
    const auto counts = ctx.allreduce(buf.data(), buf.data(), ctx.rank() == 0 ? 4 : 3, dtl::reduce_op::sum);
    CHECK(counts.error() == dtl::status_code::invalid_argument);
    CHECK(mentions(counts.error(), "count:"));

    const auto roots = ctx.broadcast(&x, 1, ctx.rank() == 0 ? 0 : 1);
    CHECK(roots.error() == dtl::status_code::invalid_argument);
    CHECK(mentions(roots.error(), "root:"));

    const auto types = ctx.rank() == 0 ? ctx.allreduce_value(1, dtl::reduce_op::sum).error()
                                       : ctx.allreduce_value(1.0, dtl::reduce_op::sum).error();
    CHECK(types.code() == dtl::status_code::invalid_argument);
    still_in_step(ctx);
  }

  TEST_CASE("a bad root on one rank fails the algorithm on every rank") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<int> v(100, 1, ctx);
    const int root = ctx.rank() == 1 ? ctx.size() + 5 : 0;
    const auto r = dtl::try_reduce_to_root(v, 0, std::plus<>{}, root);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == dtl::status_code::collective_failure);
    CHECK(mentions(r.error(), "is not a rank"));
    same_status_everywhere(ctx, r.error());
    // The same root everywhere, out of range everywhere: its own code.
    CHECK(dtl::try_reduce_to_root(v, 0, std::plus<>{}, -1).error() == dtl::status_code::invalid_rank);
    CHECK(dtl::reduce(v) == 100);
  }

  TEST_CASE("a user function that throws on one rank fails a collective algorithm on every rank, without a hang") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<int> v(30, 1, ctx), scanned(30, ctx);  // every rank holds elements
    const bool thrower = ctx.rank() == 1;
    const auto bad = [thrower](int x) -> int {
      if (thrower) throw std::runtime_error("bad element on rank 1");
      return x;
    };
    const auto bad_op = [thrower](int a, int b) -> int {
      if (thrower) throw std::runtime_error("bad element on rank 1");
      return a + b;
    };
    // The async forms: the thrower's future carries its exception, the others' name it.
    const auto failed = [&](auto make) {
      decltype(make()) future;
      CHECK_NOTHROW(future = make());
      const auto r = future.get_result();
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error() == (thrower ? dtl::status_code::unknown_error : dtl::status_code::collective_failure));
      CHECK(mentions(r.error(), "bad element on rank 1"));
    };
    failed([&] { return dtl::async_reduce(v, 0, bad_op); });
    failed([&] { return dtl::async_transform_reduce(v, 0, std::plus<>{}, bad); });
    // The other forms: the exception leaves the thrower's call (as under seq); the others get a status.
    const auto others_fail = [&](auto call) {
      if (thrower) {
        CHECK_THROWS_WITH(static_cast<void>(call()), doctest::Contains("bad element on rank 1"));
      } else {
        const auto r = call();
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error() == dtl::status_code::collective_failure);
        CHECK(mentions(r.error(), "bad element on rank 1"));
      }
    };
    others_fail([&] { return dtl::try_reduce(v, 0, bad_op); });
    others_fail([&] { return dtl::try_reduce(dtl::par{}, v, 0, bad_op); });
    others_fail([&] { return dtl::try_count_if(v, [&](int x) { return bad(x) > 0; }); });
    others_fail([&] { return dtl::try_find_if(v, [&](int x) { return bad(x) > 5; }); });
    others_fail([&] { return dtl::try_min_element(v, [&](int a, int b) { return bad(a) < b; }); });
    others_fail([&] { return dtl::inclusive_scan(v, scanned, 0, bad_op); });
    still_in_step(ctx);
    CHECK(dtl::reduce(v) == 30);
  }

  TEST_CASE("split: undefined_color leaves a rank out (an empty context); a negative color fails everywhere") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), r = ctx.rank();
    const auto sub = ctx.split(r == 0 ? dtl::undefined_color : 0);
    REQUIRE(sub.has_value());
    if (r == 0) {
      CHECK(sub->rank_count() == 0);
      CHECK(sub->rank() == -1);
      CHECK(sub->allreduce_value(1, dtl::reduce_op::sum).error() == dtl::status_code::invalid_state);
    } else {
      CHECK(sub->rank_count() == p - 1);
      CHECK(sub->rank() == r - 1);
      CHECK(sub->allreduce_value(1, dtl::reduce_op::sum).value() == p - 1);
    }
    const auto bad = ctx.split(r == 1 ? -5 : 0);
    REQUIRE_FALSE(bad.has_value());
    CHECK(mentions(bad.error(), "color -5 is negative"));
    same_status_everywhere(ctx, bad.error());
    still_in_step(ctx);
  }

  TEST_CASE("gather: a root that cannot hold every element fails the gather on every rank") {
    if (address_sanitizer) return;  // (a limit on address space means nothing under it)
    const auto ctx = test_support::world();
    constexpr std::size_t n = std::size_t{96} << 20;  // bytes: the root needs all of them at once
    dtl::distributed_vector<std::uint8_t> v(n, 1, ctx);
    const auto all = [&] {
      // On the root, room for the local copy, not for the whole vector.
      std::optional<test_support::address_space_cap> cap;
      if (ctx.rank() == 0) REQUIRE(cap.emplace(n / 2 + (std::size_t{16} << 20)).active());
      return v.gather(0);
    }();
    REQUIRE_FALSE(all.has_value());
    CHECK(mentions(all.error(), "rank 0: "));
    CHECK(mentions(all.error(), "could not allocate"));
    same_status_everywhere(ctx, all.error());
    CHECK(v.gather(0).has_value());  // with the memory back, it works
  }
}
