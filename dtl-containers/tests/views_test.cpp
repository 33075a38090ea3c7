// SPDX-License-Identifier: MIT
// The views of distributed_vector at upstream DTL's names (local_view's metadata and sub-views, the
// view and container traits), on rank 1 of 4 without MPI (a context-like of our own).
#include "doctest.hpp"

#include <dtl/containers/containers.hpp>
#include <dtl/core/concepts.hpp>

#include <algorithm>
#include <numeric>
#include <span>
#include <stdexcept>
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
}
