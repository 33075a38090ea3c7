// SPDX-License-Identifier: MIT
// Global and local indices and the block and cyclic index translations (dtl/index/).
#include "doctest.hpp"

#include <dtl/index/index_translation.hpp>

#include <vector>

namespace block = dtl::block_partition_translation;
namespace cyclic = dtl::cyclic_partition_translation;

TEST_SUITE("index") {
  TEST_CASE("indices are invalid until given a value, and keep their numbering") {
    CHECK_FALSE(dtl::global_index<>().valid());
    auto g = dtl::make_global_index<dtl::index_t>(10);
    g += 5;
    CHECK(g.value() == 15);
    CHECK(g - dtl::make_global_index<dtl::index_t>(3) == 12);
    static_assert(!std::is_same_v<dtl::global_index<>, dtl::local_index<>>);
  }
  TEST_CASE("block translation: 10 over 4 ranks is 3, 3, 2, 2, and every index goes there and back") {
    const dtl::index_t n = 10;
    CHECK(block::local_size(n, 4, 1) == 3);
    CHECK(block::local_size(n, 4, 2) == 2);
    CHECK(block::rank_offset(n, 4, 3) == 8);
    CHECK(block::owner(dtl::index_t{6}, n, 4) == 2);
    CHECK(block::owner(n, n, 4) == dtl::no_rank);
    for (dtl::index_t i = 0; i < n; ++i) {
      const dtl::rank_t r = block::owner(i, n, 4);
      CHECK(block::to_global(block::to_local(i, n, 4, r).value(), n, 4, r).value() == i);
    }
    CHECK_FALSE(block::to_local(dtl::index_t{0}, n, 4, 1).valid());
    std::vector<dtl::index_t> mine;
    for (dtl::index_t i : block::owned_range(n, 4, 1)) mine.push_back(i);
    CHECK(mine == std::vector<dtl::index_t>{3, 4, 5});
  }
  TEST_CASE("cyclic translation: element i on rank i % p") {
    CHECK(cyclic::owner(dtl::index_t{7}, 4) == 3);
    CHECK(cyclic::to_local(dtl::index_t{10}, 4, 2).value() == 2);
    CHECK(cyclic::to_global(dtl::index_t{2}, 4, 2).value() == 10);
    CHECK(cyclic::local_size(dtl::index_t{10}, 4, 3) == 2);
    CHECK_FALSE(cyclic::is_local(dtl::index_t{0}, 4, 1));
  }
}
