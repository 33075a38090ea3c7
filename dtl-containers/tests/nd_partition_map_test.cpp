// SPDX-License-Identifier: MIT
// nd_partition_map against a serial reference of the block split (the first n % p ranks one more): every
// rank of 1 to 4 ranks, each dimension split in turn, uneven and empty extents; every global index's owner,
// is_local and the round trips to_local / to_global, the boundaries of each block, the bad arguments.
#include "doctest.hpp"

#include <dtl/containers/nd_partition_map.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/policies/partition/block_partition.hpp>
#include <dtl/policies/partition/cyclic_partition.hpp>
#include <dtl/policies/partition/replicated.hpp>

#include <array>
#include <cstddef>
#include <utility>

namespace {

/// The slices [begin, end) of rank r when n slices are split over p ranks, written out.
std::pair<std::size_t, std::size_t> block_of(std::size_t n, int p, int r) {
  const auto ranks = static_cast<std::size_t>(p), rank = static_cast<std::size_t>(r);
  const std::size_t base = n / ranks, extra = n % ranks;
  const std::size_t begin = rank * base + (rank < extra ? rank : extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

/// The rank holding slice i of n over p ranks, by a walk over the blocks above.
int owner_of(std::size_t n, int p, std::size_t i) {
  int r = 0;
  while (!(block_of(n, p, r).first <= i && i < block_of(n, p, r).second)) ++r;
  return r;
}

/// Calls f(index) for every index of a box of `extents`, row-major.
template <dtl::size_type N, class F>
void for_each_index(const dtl::nd_extent<N>& extents, F&& f) {
  for (std::size_t l = 0; l < dtl::extents_size(extents); ++l)
    f(dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(l), extents));
}

template <dtl::size_type N>
void map_checks(const dtl::nd_extent<N>& extents, dtl::size_type dim, int p, int r) {
  CAPTURE(N);
  CAPTURE(dim);
  CAPTURE(p);
  CAPTURE(r);
  using map_type = dtl::nd_partition_map<dtl::block_partition<>, N>;
  const map_type map(extents, dim, p, r);
  const auto [begin, end] = block_of(extents[dim], p, r);
  const std::size_t slice = dtl::extents_size(extents) / (extents[dim] == 0 ? 1 : extents[dim]);
  CHECK(map.global_extents() == extents);
  CHECK(map.partition_dim() == dim);
  CHECK(map.num_ranks() == p);
  CHECK(map.my_rank() == r);
  for (dtl::size_type d = 0; d < N; ++d) {
    CHECK(map.global_extent(d) == extents[d]);
    CHECK(map.local_extent(d) == (d == dim ? end - begin : extents[d]));
    CHECK(map.local_extents()[d] == map.local_extent(d));
    CHECK(map.local_offset()[d] == (d == dim ? static_cast<dtl::index_t>(begin) : 0));
  }
  CHECK(map.global_size() == dtl::extents_size(extents));
  CHECK(map.local_size() == (extents[dim] == 0 ? 0 : (end - begin) * slice));
  std::size_t total = 0;
  for (int q = 0; q < p; ++q) {
    const auto [b, e] = block_of(extents[dim], p, q);
    const std::size_t size = extents[dim] == 0 ? 0 : (e - b) * slice;
    CHECK(map.local_size_for_rank(q) == size);
    total += size;
  }
  CHECK(total == map.global_size());
  CHECK(map.local_size_for_rank(-1) == 0);
  CHECK(map.local_size_for_rank(p) == 0);

  // Every global index: its owner, and the round trip of this rank's.
  std::size_t mine = 0;
  for_each_index(extents, [&](const dtl::nd_index<N>& g) {
    const int owner = owner_of(extents[dim], p, static_cast<std::size_t>(g[dim]));
    REQUIRE(map.owner(g) == owner);
    REQUIRE(map.is_local(g) == (owner == r));
    if (owner != r) return;
    ++mine;
    const auto l = map.to_local(g);
    for (dtl::size_type d = 0; d < N; ++d) {
      REQUIRE(l[d] == (d == dim ? g[d] - static_cast<dtl::index_t>(begin) : g[d]));
      REQUIRE(l[d] >= 0);
      REQUIRE(static_cast<std::size_t>(l[d]) < map.local_extent(d));
    }
    REQUIRE(map.to_global(l) == g);
  });
  CHECK(mine == map.local_size());
  // Every local index maps to a global one this rank holds, and back.
  for_each_index(map.local_extents(), [&](const dtl::nd_index<N>& l) {
    const auto g = map.to_global(l);
    REQUIRE(map.is_local(g));
    REQUIRE(map.owner(g) == r);
    REQUIRE(map.to_local(g) == l);
  });

  // The block's boundaries along dim, and outside the extents along every dimension.
  if (extents[dim] != 0 && dtl::extents_size(extents) != 0) {
    dtl::nd_index<N> g{};
    g[dim] = static_cast<dtl::index_t>(begin) - 1;
    CHECK_FALSE(map.is_local(g));
    if (begin > 0) {
      CHECK(map.owner(g) == owner_of(extents[dim], p, begin - 1));
      CHECK(map.owner(g) < r);
    }
    g[dim] = static_cast<dtl::index_t>(end);
    CHECK_FALSE(map.is_local(g));
    if (end < extents[dim]) {
      CHECK(map.owner(g) == owner_of(extents[dim], p, end));
      CHECK(map.owner(g) > r);
    }
    if (end > begin) {
      g[dim] = static_cast<dtl::index_t>(begin);
      CHECK(map.is_local(g));
      g[dim] = static_cast<dtl::index_t>(end) - 1;
      CHECK(map.is_local(g));
    }
  }
  for (dtl::size_type d = 0; d < N; ++d) {
    dtl::nd_index<N> g{};
    if (begin < end) g[dim] = static_cast<dtl::index_t>(begin);  // a slice this rank holds, if any
    g[d] = -1;
    CHECK(map.owner(g) == dtl::no_rank);
    CHECK_FALSE(map.is_local(g));
    g[d] = static_cast<dtl::index_t>(extents[d]);
    CHECK(map.owner(g) == dtl::no_rank);
    CHECK_FALSE(map.is_local(g));
  }
}

template <dtl::size_type N>
void every_split(const dtl::nd_extent<N>& extents) {
  for (int p = 1; p <= 4; ++p)
    for (int r = 0; r < p; ++r)
      for (dtl::size_type dim = 0; dim < N; ++dim) map_checks<N>(extents, dim, p, r);
}

}  // namespace

TEST_SUITE("nd_partition_map") {
  TEST_CASE("every rank of 1 to 4, each dimension split: extents, owners, round trips, boundaries") {
    every_split<1>({0});
    every_split<1>({1});
    every_split<1>({9});
    every_split<2>({10, 5});  // 10 rows over 4 ranks: 3, 3, 2, 2
    every_split<2>({7, 3});
    every_split<2>({3, 6});  // fewer slices than ranks along dimension 0: empty blocks
    every_split<2>({0, 4});
    every_split<2>({4, 0});
    every_split<3>({5, 2, 3});
    every_split<3>({2, 7, 1});
  }

  TEST_CASE("upstream's examples: 100 x 50 and 10 x 5 over 4 ranks, rank 1") {
    const dtl::nd_partition_map<dtl::block_partition<>, 2> map({100, 50}, 0, 4, 1);
    CHECK(map.local_extents() == dtl::nd_extent<2>{25, 50});
    CHECK(map.global_size() == 5000);
    CHECK(map.local_size() == 1250);
    const dtl::nd_partition_map<dtl::block_partition<>, 2> rows({10, 5}, 0, 4, 1);  // rows [3, 6)
    CHECK_FALSE(rows.is_local({2, 0}));
    CHECK(rows.is_local({3, 0}));
    CHECK(rows.is_local({5, 4}));
    CHECK_FALSE(rows.is_local({6, 0}));
    CHECK(rows.to_local({3, 2}) == dtl::nd_index<2>{0, 2});
    CHECK(rows.to_global({0, 2}) == dtl::nd_index<2>{3, 2});
    CHECK(rows.local_offset() == dtl::nd_index<2>{3, 0});
  }

  TEST_CASE("usable at compile time") {
    constexpr dtl::nd_partition_map<dtl::block_partition<>, 3> map({7, 4, 2}, 1, 3, 2);  // columns [3, 4)
    static_assert(map.local_extents() == dtl::nd_extent<3>{7, 1, 2});
    static_assert(map.owner({6, 3, 1}) == 2 && map.owner({0, 2, 0}) == 1 && map.owner({0, 4, 0}) == dtl::no_rank);
    static_assert(map.to_global(map.to_local({5, 3, 1})) == dtl::nd_index<3>{5, 3, 1});
    static_assert(map == dtl::nd_partition_map<dtl::block_partition<>, 3>({7, 4, 2}, 1, 3, 2));
    CHECK(map.local_size() == 14);
  }

  TEST_CASE("other policies: block-cyclic and replicated along the split dimension") {
    // 7 rows in blocks of 2 over 2 ranks: rank 0 rows 0, 1, 4, 5; rank 1 rows 2, 3, 6.
    const dtl::nd_partition_map<dtl::cyclic_partition<2>, 2> cyclic({7, 3}, 0, 2, 1);
    CHECK(cyclic.local_extents() == dtl::nd_extent<2>{3, 3});
    const std::array<int, 7> owners{0, 0, 1, 1, 0, 0, 1};
    for (dtl::index_t row = 0; row < 7; ++row) {
      CHECK(cyclic.owner({row, 1}) == owners[static_cast<std::size_t>(row)]);
      CHECK(cyclic.is_local({row, 1}) == (owners[static_cast<std::size_t>(row)] == 1));
      if (cyclic.is_local({row, 1})) CHECK(cyclic.to_global(cyclic.to_local({row, 1})) == dtl::nd_index<2>{row, 1});
    }
    CHECK(cyclic.to_global({2, 0}) == dtl::nd_index<2>{6, 0});
    CHECK(cyclic.local_offset() == dtl::nd_index<2>{2, 0});
    // replicated: every rank holds everything (its own is_local), at the same indices.
    const dtl::nd_partition_map<dtl::replicated, 2> all({4, 2}, 1, 3, 2);
    CHECK(all.local_extents() == dtl::nd_extent<2>{4, 2});
    CHECK(all.is_local({3, 1}));
    CHECK_FALSE(all.is_local({3, 2}));
    CHECK(all.to_local({3, 1}) == dtl::nd_index<2>{3, 1});
  }

  TEST_CASE("bad arguments: invalid_argument from create(), status_error from the constructor") {
    using map_type = dtl::nd_partition_map<dtl::block_partition<>, 2>;
    const struct {
      dtl::size_type dim;
      int ranks, rank;
    } bad[] = {{2, 4, 0}, {5, 1, 0}, {0, 0, 0}, {0, -1, 0}, {0, 4, -1}, {0, 4, 4}, {1, 1, 1}};
    for (const auto& b : bad) {
      CAPTURE(b.dim);
      CAPTURE(b.ranks);
      CAPTURE(b.rank);
      const auto made = map_type::create({3, 3}, b.dim, b.ranks, b.rank);
      REQUIRE_FALSE(made.has_value());
      CHECK(made.error().code() == dtl::status_code::invalid_argument);
      CHECK_THROWS_AS(map_type({3, 3}, b.dim, b.ranks, b.rank), dtl::status_error);
    }
    const auto fine = map_type::create({3, 3}, 1, 2, 1);
    REQUIRE(fine.has_value());
    CHECK(fine->local_extents() == dtl::nd_extent<2>{3, 1});
  }
}
