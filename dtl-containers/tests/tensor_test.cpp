// SPDX-License-Identifier: MIT
// distributed_tensor on host placements (run with 1, 2 and 3 MPI ranks), against a serial reference of
// the row split: 1, 2 and 3 dimensions, first extents that the ranks do not divide, fewer rows than
// ranks (empty blocks), rows of no elements; the local view's indexing, the index translations, the
// errors, resize, and the algorithms on a tensor; upstream's global(), replace_local_partition, its
// nd_partition_map and allocator.
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/detail/device_affinity.hpp>
#include <dtl/containers/distributed_tensor.hpp>
#include <dtl/core/status_error.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace {

/// The rows [begin, end) of rank r: the first (rows % p) ranks hold one row more.
std::pair<std::size_t, std::size_t> rows_of(std::size_t rows, int p, int r) {
  const auto ranks = static_cast<std::size_t>(p), rank = static_cast<std::size_t>(r);
  const std::size_t base = rows / ranks, extra = rows % ranks;
  const std::size_t begin = rank * base + std::min(rank, extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

/// The value of the element at row-major position g.
int value_at(std::size_t g) { return static_cast<int>((g * 31 + 7) % 113) - 40; }

/// Every check of one shape.
template <dtl::size_type N>
void shape_checks(const dtl::context& ctx, const dtl::nd_extent<N>& extents) {
  CAPTURE(N);
  CAPTURE(extents[0]);
  using tensor = dtl::distributed_tensor<int, N>;
  tensor t(extents, ctx);
  const std::size_t count = dtl::row_major::size(extents), row = count == 0 ? 0 : count / extents[0];
  const auto [first, end] = rows_of(extents[0], ctx.size(), ctx.rank());
  CHECK(tensor::rank() == N);
  CHECK(t.extents() == extents);
  CHECK(t.size() == count);
  CHECK(t.my_rank() == ctx.rank());
  CHECK(t.num_ranks() == ctx.size());
  CHECK(t.global_offset()[0] == static_cast<dtl::index_t>(first));
  CHECK(t.local_extent(0) == end - first);
  for (std::size_t d = 1; d < N; ++d) {
    CHECK(t.local_extent(d) == extents[d]);
    CHECK(t.global_offset()[d] == 0);
  }
  CHECK(t.local_size() == (end - first) * row);
  for (int r = 0; r < ctx.size(); ++r) {
    const auto [b, e] = rows_of(extents[0], ctx.size(), r);
    CHECK(t.local_size_for_rank(r) == (e - b) * row);
  }

  // The local view: mdspan's members, and the elements in row-major order.
  auto view = t.local_view();
  CHECK(view.rank() == N);
  CHECK(view.extents() == t.local_extents());
  CHECK(view.size() == t.local_size());
  CHECK(view.stride(N - 1) == 1);
  for (std::size_t d = 0; d + 1 < N; ++d) CHECK(view.stride(d) == view.stride(d + 1) * view.extent(d + 1));
  CHECK(std::all_of(view.begin(), view.end(), [](int x) { return x == 0; }));
  const std::size_t offset = first * row;
  for (std::size_t l = 0; l < t.local_size(); ++l) {
    const auto index = dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(l), t.local_extents());
    // One index per dimension, spelt as a call.
    int* at = [&]<std::size_t... D>(std::index_sequence<D...>) { return &view(index[D]...); }
    (std::make_index_sequence<N>{});
    CHECK(at == &view[l]);
    CHECK(&t.local(index) == at);
    *at = value_at(offset + l);
  }
  CHECK(t.local_view().data() == t.local_data());
  CHECK(t.local_span().size() == t.local_size());

  // Every element, gathered on rank 0 in row-major order.
  std::vector<int> ref(count);
  for (std::size_t g = 0; g < count; ++g) ref[g] = value_at(g);
  const auto all = t.gather(0);
  REQUIRE(all.has_value());
  if (ctx.rank() == 0) CHECK(*all == ref);

  // Ownership and index translation, for every global index.
  for (std::size_t g = 0; g < count; ++g) {
    const auto index = dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(g), extents);
    const auto linear = static_cast<dtl::index_t>(g);
    const bool mine = index[0] >= static_cast<dtl::index_t>(first) && index[0] < static_cast<dtl::index_t>(end);
    CHECK(t.is_local(index) == mine);
    CHECK(t.is_local(linear) == mine);
    CHECK(t.owner(index) == t.owner(linear));
    const auto [b, e] = rows_of(extents[0], ctx.size(), t.owner(index));
    CHECK(static_cast<std::size_t>(index[0]) >= b);
    CHECK(static_cast<std::size_t>(index[0]) < e);
    CHECK(t.to_global(t.to_local(index)) == index);
    CHECK(t.to_global(t.to_local(linear)) == linear);
    if (mine) {
      CHECK(t.local(t.to_local(index)) == value_at(g));
      CHECK(t.local_linear(static_cast<std::size_t>(t.to_local(linear))) == value_at(g));
    }
  }
  dtl::nd_index<N> outside{};
  outside[0] = static_cast<dtl::index_t>(extents[0]);
  CHECK(t.owner(outside) == dtl::no_rank);
  CHECK_FALSE(t.is_local(outside));
  CHECK(t.owner(static_cast<dtl::index_t>(count)) == dtl::no_rank);
}

}  // namespace

TEST_SUITE("mpi.tensor") {
  TEST_CASE("distributed_tensor: 1 to 3 dimensions, uneven rows, fewer rows than ranks, rows of no elements") {
    const auto ctx = test_support::world();
    for (const std::size_t rows : {0u, 1u, 2u, 3u, 5u, 7u}) {
      shape_checks<1>(ctx, {rows});
      shape_checks<2>(ctx, {rows, 4});
      shape_checks<3>(ctx, {rows, 3, 2});
    }
    shape_checks<2>(ctx, {5, 0});
    shape_checks<3>(ctx, {4, 2, 0});
  }

  TEST_CASE("distributed_tensor: upstream's 10 x 10 over 4 ranks (rows 3, 3, 2, 2), from a context-like object") {
    struct rank_of {
      int r, p;
      [[nodiscard]] int rank() const noexcept { return r; }
      [[nodiscard]] int size() const noexcept { return p; }
    };
    const std::array<dtl::index_t, 4> offsets{0, 3, 6, 8};
    for (int r = 0; r < 4; ++r) {
      dtl::tensor2d<int> t({10, 10}, rank_of{r, 4});
      CHECK(t.global_offset()[0] == offsets[static_cast<std::size_t>(r)]);
      CHECK(t.local_extent(0) == (r < 2 ? 3u : 2u));
      CHECK(t.owner(dtl::index_t{60}) == 2);
      CHECK(t.owner(dtl::nd_index<2>{8, 0}) == 3);
    }
  }

  TEST_CASE("distributed_tensor: value constructor, create(), the default constructor") {
    const auto ctx = test_support::world();
    dtl::distributed_tensor<double, 3> t({4, 3, 2}, 2.5, ctx);
    CHECK(std::all_of(t.local_view().begin(), t.local_view().end(), [](double x) { return x == 2.5; }));
    auto made = dtl::distributed_tensor<float, 2>::create({6, 5}, ctx);
    REQUIRE(made.has_value());
    CHECK(made->size() == 30);
    dtl::distributed_tensor<int, 2> none;
    CHECK(none.size() == 0);
    CHECK(none.empty());
    CHECK(none.num_ranks() == 1);
    static_assert(dtl::is_distributed_tensor_v<dtl::tensor3d<int>>);
    static_assert(!dtl::is_distributed_tensor_v<dtl::distributed_vector<int>>);
    static_assert(!std::is_copy_constructible_v<dtl::distributed_matrix<double>>);
  }

  TEST_CASE("distributed_tensor: errors, the same on every rank") {
    const auto ctx = test_support::world();
    auto other_dim = dtl::distributed_tensor<int, 2>::create({4, 4}, ctx, 1);
    REQUIRE_FALSE(other_dim.has_value());
    CHECK(other_dim.error().code() == dtl::status_code::not_supported);
    const std::size_t huge = std::size_t{1} << 40;
    auto overflow = dtl::distributed_tensor<int, 2>::create({huge, huge}, ctx);
    REQUIRE_FALSE(overflow.has_value());
    CHECK(overflow.error().code() == dtl::status_code::invalid_argument);
    CHECK_THROWS_AS((dtl::distributed_tensor<int, 2>({huge, huge}, ctx)), dtl::status_error);
    if (ctx.size() > 1) {
      // The same element count and row size, other extents: the rows would differ.
      const dtl::nd_extent<3> mine = ctx.rank() == 0 ? dtl::nd_extent<3>{2, 3, 4} : dtl::nd_extent<3>{2, 4, 3};
      auto differ = dtl::distributed_tensor<int, 3>::create(mine, ctx);
      REQUIRE_FALSE(differ.has_value());
      CHECK(differ.error().code() == dtl::status_code::invalid_argument);
    }
  }

  TEST_CASE("distributed_tensor: resize keeps the rows when only the first extent changes") {
    const auto ctx = test_support::world();
    dtl::distributed_tensor<int, 2> t({5, 3}, ctx);
    const std::size_t offset = static_cast<std::size_t>(t.global_offset()[0]) * 3;
    for (std::size_t l = 0; l < t.local_size(); ++l) t.local_linear(l) = value_at(offset + l);
    REQUIRE(t.resize({8, 3}).has_value());
    CHECK(t.size() == 24);
    const auto [first, end] = rows_of(8, ctx.size(), ctx.rank());
    CHECK(t.local_extent(0) == end - first);
    CHECK(t.global_offset()[0] == static_cast<dtl::index_t>(first));
    std::vector<int> ref(24, 0);
    for (std::size_t g = 0; g < 15; ++g) ref[g] = value_at(g);
    auto all = t.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) CHECK(*all == ref);
    REQUIRE(t.resize({2, 2}).has_value());
    CHECK(t.size() == 4);
    all = t.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) CHECK(*all == std::vector<int>(4, 0));
  }

  TEST_CASE("distributed_tensor: dtl::unique changes the first extent, in whole rows only") {
    const auto ctx = test_support::world();
    dtl::distributed_tensor<int, 2> t({6, 2}, ctx);
    REQUIRE(dtl::for_each_indexed(t, [](std::size_t g, int& x) { x = static_cast<int>(g / 2); }).has_value());
    const auto kept = dtl::unique(t);
    REQUIRE(kept.has_value());
    CHECK(kept->new_size == 6);
    CHECK(t.extents() == dtl::nd_extent<2>{3, 2});
    const auto [first, end] = rows_of(3, ctx.size(), ctx.rank());
    CHECK(t.local_extents() == dtl::nd_extent<2>{end - first, 2});
    CHECK(t.global_offset()[0] == static_cast<dtl::index_t>(first));
    const auto all = t.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) CHECK(*all == std::vector<int>{0, 1, 2, 3, 4, 5});
    // 5 elements left would not be whole rows of 2.
    REQUIRE(dtl::for_each_indexed(t, [](std::size_t g, int& x) { x = g == 5 ? 4 : static_cast<int>(g); }).has_value());
    const auto refused = dtl::unique(t);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().code() == dtl::status_code::invalid_argument);
    CHECK(t.extents() == dtl::nd_extent<2>{3, 2});
  }

  TEST_CASE("distributed_tensor: the algorithms take it, in row-major order") {
    const auto ctx = test_support::world();
    dtl::distributed_tensor<int, 3> t({5, 2, 3}, ctx);
    REQUIRE(dtl::iota(t, 0).has_value());
    CHECK(dtl::reduce(t, 0) == 29 * 30 / 2);
    auto view = t.local_view();
    for (std::size_t i = 0; i < view.extent(0); ++i)
      for (std::size_t j = 0; j < view.extent(1); ++j)
        for (std::size_t k = 0; k < view.extent(2); ++k)
          CHECK(view(i, j, k) ==
                static_cast<int>((static_cast<std::size_t>(t.global_offset()[0]) + i) * 6 + j * 3 + k));
  }

  TEST_CASE("distributed_tensor: its nd_partition_map_type answers as the tensor, global() reads and writes its own") {
    const auto ctx = test_support::world();
    for (const std::size_t rows : {0u, 2u, 7u}) {
      CAPTURE(rows);
      dtl::distributed_tensor<int, 2> t({rows, 3}, ctx);
      const std::size_t offset = static_cast<std::size_t>(t.global_offset()[0]) * 3;
      for (std::size_t l = 0; l < t.local_size(); ++l) t.local_linear(l) = value_at(offset + l);
      using map_type = dtl::distributed_tensor<int, 2>::nd_partition_map_type;
      const map_type map(t.extents(), 0, ctx.size(), ctx.rank());
      CHECK(map.local_extents() == t.local_extents());
      CHECK(map.local_offset() == t.global_offset());
      CHECK(map.local_size() == t.local_size());
      for (int r = 0; r < ctx.size(); ++r) CHECK(map.local_size_for_rank(r) == t.local_size_for_rank(r));
      const dtl::distributed_tensor<int, 2>& ct = t;
      for (dtl::index_t i = -1; i <= static_cast<dtl::index_t>(rows); ++i) {
        for (dtl::index_t j = -1; j <= 3; ++j) {
          const dtl::nd_index<2> g{i, j};
          CAPTURE(i);
          CAPTURE(j);
          REQUIRE(map.owner(g) == t.owner(g));
          REQUIRE(map.is_local(g) == t.is_local(g));
          const dtl::remote_ref<int> ref = t.global(g);
          const dtl::remote_ref<const int> cref = ct.global(g);
          CHECK(ref.owner_rank() == t.owner(g));
          CHECK(ref.is_local() == t.is_local(g));
          CHECK(cref.is_local() == t.is_local(g));
          if (t.is_local(g)) {
            REQUIRE(map.to_local(g) == t.to_local(g));
            CHECK(ref.global_index() == dtl::row_major::linearize(g, t.extents()));
            CHECK(ref.get().value() == value_at(static_cast<std::size_t>(i) * 3 + static_cast<std::size_t>(j)));
            REQUIRE(ref.put(-1).has_value());
            CHECK(t.local(t.to_local(g)) == -1);
            CHECK(cref.get().value() == -1);
          } else {
            // Another rank's element, or none: no window reaches it without communication.
            CHECK_FALSE(ref.get().has_value());
            CHECK_FALSE(cref.get().has_value());
          }
        }
      }
    }
  }

  TEST_CASE("distributed_tensor: replace_local_partition, with the same extents and with new ones") {
    const auto ctx = test_support::world();
    using tensor = dtl::distributed_tensor<int, 2>;
    static_assert(std::is_same_v<tensor::storage_type, std::vector<int>>);
    tensor t({7, 2}, ctx);
    const std::size_t offset = static_cast<std::size_t>(t.global_offset()[0]) * 2;
    tensor::storage_type mine(t.local_size());
    for (std::size_t l = 0; l < mine.size(); ++l) mine[l] = value_at(offset + l);
    REQUIRE(t.replace_local_partition(mine).has_value());
    CHECK(std::equal(t.local_span().begin(), t.local_span().end(), mine.begin(), mine.end()));
    CHECK(t.structural_metadata_consistent());
    // Another count: refused on this rank alone, the elements kept.
    const auto wrong = t.replace_local_partition(tensor::storage_type(t.local_size() + 1, 9));
    REQUIRE_FALSE(wrong.has_value());
    CHECK(wrong.error().code() == dtl::status_code::invalid_argument);
    CHECK(std::equal(t.local_span().begin(), t.local_span().end(), mine.begin(), mine.end()));

    // New extents: each rank passes its share of the new rows (the first 5 % p ranks one more).
    const auto [first, end] = rows_of(5, ctx.size(), ctx.rank());
    tensor::storage_type next((end - first) * 4);
    for (std::size_t l = 0; l < next.size(); ++l) next[l] = value_at(100 + first * 4 + l);
    REQUIRE(t.replace_local_partition(next, {5, 4}).has_value());
    CHECK(t.extents() == dtl::nd_extent<2>{5, 4});
    CHECK(t.local_extents() == dtl::nd_extent<2>{end - first, 4});
    CHECK(t.global_offset()[0] == static_cast<dtl::index_t>(first));
    CHECK(t.structural_metadata_consistent());
    std::vector<int> ref(20);
    for (std::size_t g = 0; g < 20; ++g) ref[g] = value_at(100 + g);
    auto all = t.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) CHECK(*all == ref);

    // A rank whose count is not its share fails the call on every rank; the tensor is unchanged.
    tensor::storage_type off = ctx.rank() == 0 ? tensor::storage_type(next.size() + 1) : next;
    const auto refused = t.replace_local_partition(off, {5, 4});
    REQUIRE_FALSE(refused.has_value());
    if (ctx.size() == 1) CHECK(refused.error().code() == dtl::status_code::invalid_argument);
    // Extents that differ between ranks, each rank's count its share of its own: invalid_argument everywhere.
    if (ctx.size() > 1) {
      const dtl::nd_extent<2> differ = ctx.rank() == 0 ? dtl::nd_extent<2>{5, 4} : dtl::nd_extent<2>{4, 5};
      const auto [b, e] = rows_of(differ[0], ctx.size(), ctx.rank());
      const auto mismatched = t.replace_local_partition(tensor::storage_type((e - b) * differ[1]), differ);
      REQUIRE_FALSE(mismatched.has_value());
      CHECK(mismatched.error().code() == dtl::status_code::invalid_argument);
    }
    CHECK(t.extents() == dtl::nd_extent<2>{5, 4});
    all = t.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) CHECK(*all == ref);
  }

  TEST_CASE("distributed_tensor: the allocator and device affinity of host_only") {
    const auto ctx = test_support::world();
    using tensor = dtl::distributed_tensor<double, 3>;
    static_assert(std::is_same_v<tensor::allocator_type, dtl::select_allocator_t<double, dtl::host_only>>);
    static_assert(tensor::is_host_accessible() && !tensor::is_device_accessible());
    const tensor t({4, 3, 2}, ctx);
    CHECK_FALSE(t.has_device_affinity());
    CHECK(t.device_id() == dtl::detail::no_device_affinity);
    const auto alloc = t.get_allocator();
    CHECK(alloc.space() == dtl::shared_host_memory_space());
    double* p = alloc.allocate(t.local_size() + 1);
    p[t.local_size()] = 1.0;
    alloc.deallocate(p, t.local_size() + 1);
  }
}
