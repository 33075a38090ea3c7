// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/containers/containers.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

template <class V>
concept has_local_view = requires(V& v) {
  v.local_view();
};
template <class V>
concept has_device_view = requires(V& v) {
  v.device_view();
};

}  // namespace

TEST_SUITE("vector") {
  TEST_CASE("host_only: capabilities at compile time") {
    using V = dtl::distributed_vector<double>;
    static_assert(std::is_same_v<V::placement_policy, dtl::host_only>);
    static_assert(V::is_host_accessible() && !V::is_device_accessible());
    static_assert(has_local_view<V> && !has_device_view<V>);
    static_assert(!std::is_copy_constructible_v<V> && std::is_nothrow_move_constructible_v<V>);
  }

  TEST_CASE("construction: sizes, partition, zeroes and values") {
    const auto ctx = dtl::make_cpu_context();
    for (std::size_t n : {0u, 1u, 7u, 1000u}) {
      dtl::distributed_vector<int> v(n, ctx);
      CHECK(v.global_size() == n);
      CHECK(v.size() == n);
      CHECK(v.local_size() == n);
      CHECK(v.global_offset() == 0);
      CHECK(v.device_id() == dtl::no_device);
      CHECK_FALSE(v.has_device_affinity());
      CHECK(v.num_ranks() == 1);
      CHECK((n == 0) == (v.local_data() == nullptr));
      for (int x : v.local_view()) CHECK(x == 0);
      const dtl::distributed_vector<int> w(n, 42, ctx);
      for (int x : w.local_view()) CHECK(x == 42);
    }
    dtl::distributed_vector<std::int64_t> big(5, std::int64_t{-3}, ctx);
    CHECK(std::accumulate(big.local_view().begin(), big.local_view().end(), std::int64_t{0}) == -15);
  }

  TEST_CASE("create() returns a status instead of throwing") {
    const auto ctx = dtl::make_cpu_context();
    auto v = dtl::distributed_vector<float>::create(16, 2.5f, ctx);
    REQUIRE(v.has_value());
    CHECK(v->local_view()[15] == 2.5f);
    auto huge = dtl::distributed_vector<double>::create(std::size_t{1} << 62, ctx);
    CHECK(huge.error() == dtl::status_code::out_of_memory);
    CHECK_THROWS_AS(dtl::distributed_vector<double>(std::size_t{1} << 62, ctx), dtl::status_error);
  }

  TEST_CASE("statistics of the shared host space come back to zero") {
    const auto ctx = dtl::make_cpu_context();
    auto space = dtl::shared_memory_space<dtl::host_only>(ctx).value();
    const auto before = space->stats().bytes_in_use;
    {
      dtl::distributed_vector<double> v(100, ctx);
      CHECK(space->stats().bytes_in_use == before + 100 * sizeof(double));
      dtl::distributed_vector<double> moved = std::move(v);
      CHECK(space->stats().bytes_in_use == before + 100 * sizeof(double));
    }
    CHECK(space->stats().bytes_in_use == before);
  }

  TEST_CASE("views, copies, gather and clone") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> v(10, ctx);
    auto view = v.local_view();
    std::iota(view.begin(), view.end(), 0);
    int segments = 0;
    for (const auto& seg : v.segmented_view()) {
      ++segments;
      CHECK(seg.is_local());
      CHECK(seg.rank == 0);
      CHECK(seg.global_offset == 0);
      CHECK(seg.size == 10);
      CHECK(seg.begin() == v.local_data());
    }
    CHECK(segments == 1);
    std::vector<int> host(10, -1);
    REQUIRE(v.copy_to_host(host.data(), host.size()).has_value());
    CHECK(host[9] == 9);
    CHECK(v.copy_to_host(host.data(), 3).error() == dtl::status_code::extent_mismatch);
    std::vector<int> back(10, 7);
    REQUIRE(v.copy_from_host(back.data(), back.size()).has_value());
    CHECK(v.local_view()[4] == 7);
    auto gathered = v.gather(0);
    REQUIRE(gathered.has_value());
    CHECK(*gathered == back);
    CHECK(v.gather(1).error() == dtl::status_code::invalid_rank);
    auto copy = v.clone();
    REQUIRE(copy.has_value());
    copy->local_view()[0] = 100;
    CHECK(v.local_view()[0] == 7);
    CHECK(copy->local_view()[1] == 7);
  }

  TEST_CASE("global_view reads and writes elements by global index") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<double> v(4, 1.0, ctx);
    auto g = v.global_view();
    REQUIRE(g[2].put(6.5).has_value());
    CHECK(g[2].get().value() == 6.5);
    CHECK(v.local_view()[2] == 6.5);
    CHECK(g[4].get().error() == dtl::status_code::out_of_range);
    CHECK(g[3].owner().value() == 0);
  }

  TEST_CASE("a global_view outlived by its block (resize, the vector replaced or gone) gives invalid_state") {
    const auto ctx = dtl::make_cpu_context();
    auto is_stale = [](const dtl::global_view<double>& g) {
      const auto got = g[1].get();
      REQUIRE_FALSE(got.has_value());
      CHECK(got.error().code() == dtl::status_code::invalid_state);
      const auto put = g[1].put(2.0);
      REQUIRE_FALSE(put.has_value());
      CHECK(put.error().code() == dtl::status_code::invalid_state);
    };
    dtl::distributed_vector<double> v(4, 1.0, ctx);
    auto before_resize = v.global_view();
    REQUIRE(v.resize(1000).has_value());
    is_stale(before_resize);
    auto g = v.global_view();
    CHECK(g[1].get().value() == 1.0);
    // Moving the vector keeps its block: the view still reaches it.
    dtl::distributed_vector<double> moved(std::move(v));
    CHECK(g[1].get().value() == 1.0);
    // Assigning over the vector frees its block.
    moved = dtl::distributed_vector<double>(4, 3.0, ctx);
    is_stale(g);
    auto last = moved.global_view();
    { dtl::distributed_vector<double> gone(std::move(moved)); }
    is_stale(last);
  }

  TEST_CASE("a moved-from vector is empty, and its calls give invalid_state") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> v(10, 3, ctx);
    dtl::distributed_vector<int> w(std::move(v));
    CHECK(w.size() == 10);
    CHECK(w.local_view()[9] == 3);
    // NOLINTBEGIN(bugprone-use-after-move): what a moved-from vector does is the point
    CHECK(v.size() == 0);
    CHECK(v.local_size() == 0);
    CHECK(v.empty());
    CHECK(v.local_data() == nullptr);
    CHECK(v.num_ranks() == 0);
    CHECK(dtl::fill(v, 1).error() == dtl::status_code::invalid_state);
    CHECK(v.get_context().check().code() == dtl::status_code::invalid_state);
    CHECK(v.gather().error() == dtl::status_code::invalid_state);
    CHECK(v.clone().error() == dtl::status_code::invalid_state);
    CHECK(v.global_view()[0].get().error() == dtl::status_code::invalid_state);
    // Move assignment frees what the target held and empties the source.
    dtl::distributed_vector<int> x(4, 7, ctx);
    x = std::move(w);
    CHECK(x.size() == 10);
    CHECK(w.size() == 0);
    CHECK(dtl::fill(w, 1).error() == dtl::status_code::invalid_state);
    // NOLINTEND(bugprone-use-after-move)
  }
}
