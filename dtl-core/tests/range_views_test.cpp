// SPDX-License-Identifier: MIT
// The views over any range: chunk_view, window_view, chunk_by_view (range_slice pieces) and tile_view.
#include "doctest.hpp"

#include <dtl/core/status_error.hpp>
#include <dtl/views/chunk_by_view.hpp>
#include <dtl/views/chunk_view.hpp>
#include <dtl/views/tile_view.hpp>
#include <dtl/views/window_view.hpp>

#include <array>
#include <span>
#include <vector>

TEST_SUITE("range_views") {
  TEST_CASE("chunk_view: whole chunks then the rest, writable") {
    std::vector<int> data{1, 2, 3, 4, 5, 6, 7};
    dtl::chunk_view chunks(data, 3);
    CHECK(chunks.num_chunks() == 3);
    std::vector<std::size_t> sizes;
    for (auto c : chunks) {
      sizes.push_back(c.size());
      c.front() = 0;
    }
    CHECK(sizes == std::vector<std::size_t>{3, 3, 1});
    CHECK(data == std::vector<int>{0, 2, 3, 0, 5, 6, 0});
    // A temporary span is borrowed: its chunks point into data.
    CHECK((*dtl::make_chunk_view(std::span<int>(data), 4).begin()).back() == 0);
    CHECK_THROWS_AS(dtl::chunk_view(data, 0), dtl::status_error);
  }
  TEST_CASE("window_view: whole windows at each stride") {
    const std::vector<int> data{1, 2, 3, 4, 5};
    dtl::window_view windows(data, 3);
    CHECK(windows.num_windows() == 3);
    std::vector<int> centres;
    for (auto w : windows) centres.push_back(w.center());
    CHECK(centres == std::vector<int>{2, 3, 4});
    CHECK(dtl::window_view(data, 2, 3).num_windows() == 2);
    CHECK(dtl::window_view(data, 6).empty());
    CHECK_THROWS_AS(dtl::window_view(data, 2, 0), dtl::status_error);
  }
  TEST_CASE("chunk_by_view: runs while the predicate holds") {
    const std::vector<int> data{1, 3, 2, 4, 6, 5};
    std::vector<std::size_t> runs;
    for (auto r : dtl::chunk_by_view(data, [](int a, int b) { return a % 2 == b % 2; })) runs.push_back(r.size());
    CHECK(runs == std::vector<std::size_t>{2, 3, 1});
    const std::vector<int> none;
    auto empty = dtl::make_chunk_by_equal(none);
    CHECK(empty.begin() == empty.end());
  }
  TEST_CASE("tile_view: tiles clamped at the far edges, dimension 0 fastest") {
    int space = 0;
    dtl::tile_view view(space, dtl::tile_extent<2>{{4, 3}}, {10, 3});
    CHECK(view.total_tiles() == 3);
    std::vector<dtl::index_t> starts;
    for (auto t : view) starts.push_back(t.origin[0]);
    CHECK(starts == std::vector<dtl::index_t>{0, 4, 8});
    const auto last = view.tile_at(2);
    CHECK(last.extent.size(0) == 2);
    CHECK(last.is_boundary_in_dim(0));
    CHECK_FALSE(last.is_boundary_in_dim(1));
    CHECK(last.tile_linear_index(view.num_tiles()) == 2);
    CHECK_THROWS_AS((void)dtl::make_tile_view(space, 4, 0), dtl::status_error);
  }
}
