// SPDX-License-Identifier: MIT
// The views of distributed_vector at upstream DTL's names (local_view's metadata and sub-views, the
// view and container traits), on rank 1 of 4 without MPI (a context-like of our own).
#include "doctest.hpp"

#include <dtl/containers/containers.hpp>
#include <dtl/containers/detail/common_ops.hpp>
#include <dtl/containers/detail/device_affinity.hpp>
#include <dtl/core/concepts.hpp>
#include <dtl/views/views.hpp>

#include <algorithm>
#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

struct rank_of {  // context-like: this rank of so many, nothing to communicate with
  dtl::rank_t r = 0;
  dtl::rank_t n = 1;
  dtl::rank_t rank() const noexcept { return r; }
  dtl::rank_t size() const noexcept { return n; }
};

}  // namespace

TEST_SUITE("views") {
  TEST_CASE("a vector's local_view knows its rank and global offset") {
    dtl::distributed_vector<int> v(100, 7, rank_of{1, 4});
    auto local = v.local_view();
    CHECK(local.size() == 25);
    CHECK(local.rank() == 1);
    CHECK(local.global_offset() == 25);
    CHECK(local.to_global(3) == 28);
    std::iota(local.begin(), local.end(), 0);
    const auto tail = local.last(5);
    CHECK(tail.global_offset() == 45);
    CHECK(tail.front() == 20);
    CHECK(local.subview(30, 4).empty());
    CHECK(local.first(100).size() == 25);
    CHECK_THROWS_AS((void)local.at(25), std::out_of_range);
    const std::span<int> all = local;
    CHECK(all.data() == v.local_data());
  }
  TEST_CASE("local_view over any contiguous range, and const from mutable") {
    std::vector<int> data{3, 1, 2};
    dtl::local_view<int> view(data);
    std::sort(view.begin(), view.end());
    CHECK(data == std::vector<int>{1, 2, 3});
    dtl::local_view<const int> read = view.subview(1, 2);
    CHECK(read.global_offset() == 1);
    CHECK(std::vector<int>(read.rbegin(), read.rend()) == std::vector<int>{3, 2});
    CHECK(dtl::make_local_view(data).data() == data.data());
    static_assert(std::ranges::contiguous_range<dtl::local_view<int>>);
    static_assert(dtl::LocalView<dtl::local_view<int>>);
  }
  TEST_CASE("the container and view traits") {
    static_assert(dtl::is_distributed_vector_v<dtl::distributed_vector<int>>);
    static_assert(dtl::is_distributed_container_v<dtl::distributed_vector<int>>);
    static_assert(dtl::is_distributed_container_v<dtl::distributed_span<int>>);
    static_assert(!dtl::is_distributed_vector_v<dtl::distributed_span<int>>);
    static_assert(dtl::is_local_view_v<dtl::local_view<const int>>);
    static_assert(dtl::is_global_view_v<dtl::global_view<int>>);
    static_assert(dtl::is_remote_ref_v<dtl::remote_ref<int>>);
    static_assert(dtl::is_segmented_view_v<dtl::segmented_view<int>>);
    static_assert(dtl::DistributedContainer<dtl::distributed_vector<int>>);
    CHECK(dtl::is_distributed_tensor_v<dtl::distributed_tensor<int, 2>>);
  }
  TEST_CASE("global_view<Container>: ownership, local access, the container, read-only when const") {
    dtl::distributed_vector<int> v(100, 5, rank_of{1, 4});
    dtl::global_view<dtl::distributed_vector<int>> g(v);
    CHECK(&g.container() == &v);
    CHECK(g.owner(30) == 1);
    CHECK(g.owner(100) == dtl::no_rank);
    CHECK(g.to_local(26) == 1);
    CHECK(g.to_local(3) == -1);
    CHECK(g.my_rank() == 1);
    CHECK(g.num_ranks() == 4);
    REQUIRE(g[30].put(9).has_value());
    CHECK(v.local(5) == 9);
    CHECK(g[30].remote_capability() == dtl::remote_access_capability::local_only);
    CHECK(g[3].is_remote());
    CHECK(g[3].owner_rank() == 0);
    const auto& cv = v;
    auto read = cv.global_view();
    static_assert(std::is_same_v<decltype(read[0]), dtl::remote_ref<const int>>);
    CHECK(read[30].get().value() == 9);
    // Its iterators walk the global indices and outlive the view.
    auto it = std::next(dtl::global_view<dtl::distributed_vector<int>>(v).begin(), 29);
    CHECK(it.is_local());
    CHECK((*++it).get().value() == 9);
    CHECK(dtl::global_iterator<dtl::distributed_vector<int>>(&v, 99).owner() == 3);
    CHECK(g.end() - g.begin() == 100);
  }
  TEST_CASE("remote_ref by hand: a local address, or nothing to reach the owner with") {
    int x = 1;
    dtl::remote_ref<int> here(0, 7, &x);
    REQUIRE(here.put(4).has_value());
    CHECK(x == 4);
    CHECK(here.async_get().get_result().value() == 4);
    dtl::remote_ref<int> there(2, 8, nullptr, true);
    CHECK(there.remote_transport_available());
    CHECK(there.remote_capability() == dtl::remote_access_capability::remote_transport_unavailable);
    CHECK(there.get().error().code() == dtl::status_code::not_supported);
    static_assert(!std::is_convertible_v<dtl::remote_ref<int>, int>);
  }
  TEST_CASE("subviews, pipes and the view traits") {
    std::vector<int> data(12);
    std::iota(data.begin(), data.end(), 0);
    auto local = dtl::make_local_view(data);
    auto picked = local | dtl::slice(2, 8) | dtl::stride(3);  // 2, 5, 8
    CHECK(picked.size() == 3);
    CHECK(picked[2] == 8);
    auto rest = dtl::drop(local, 10);
    CHECK(rest.size() == 2);
    CHECK(rest.subrange(1, 5).front() == 11);
    CHECK((local | dtl::take_n(20)).size() == 12);
    dtl::device_view<int> dv{data.data(), data.size(), dtl::no_device};
    CHECK(dv.last(3).data() == data.data() + 9);
    CHECK(dv.subview(20, 1).empty());
    static_assert(dtl::may_communicate_v<dtl::strided_view<dtl::global_view<int>>>);
    static_assert(dtl::is_stl_safe_v<decltype(picked)>);
    static_assert(dtl::is_batching_view_v<dtl::chunk_view<std::vector<int>>>);
  }

  TEST_CASE("upstream's common_ops give the container's own views and sync") {
    dtl::distributed_vector<int> v(100, 7, rank_of{1, 4});
    CHECK(dtl::detail::rank_invariant_holds(v));
    CHECK(dtl::detail::make_local_view(v).data() == v.local_data());
    CHECK(dtl::detail::make_const_local_view(std::as_const(v)).size() == 25);
    CHECK(dtl::detail::make_segmented_view(v).num_segments() == 4);
    CHECK(dtl::detail::standalone_barrier().has_value());
    CHECK(dtl::detail::standalone_fence().has_value());
    dtl::distributed_vector<int> alone(10);
    alone.mark_local_modified();
    REQUIRE(dtl::detail::sync_container(alone).has_value());
    CHECK(alone.is_clean());
    CHECK(alone.device_id() == dtl::detail::no_device_affinity);
    static_assert(dtl::detail::any_device_affinity != dtl::detail::no_device_affinity);
  }
}
