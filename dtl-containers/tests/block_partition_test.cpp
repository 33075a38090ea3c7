// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/policies/partition/block_nd_partition.hpp>
#include <dtl/policies/partition/dynamic_block.hpp>

#include <vector>

TEST_SUITE("block_partition") {
  TEST_CASE("blocks cover [0, n) exactly once and differ in size by at most one") {
    for (std::size_t n : {0u, 1u, 7u, 64u, 1000u, 1001u}) {
      for (int ranks : {1, 2, 3, 8, 13}) {
        const auto p = dtl::block_partition<>::create(n, ranks).value();
        std::size_t next = 0, smallest = n, largest = 0;
        for (int r = 0; r < ranks; ++r) {
          const auto range = p.local_range(r).value();
          CHECK(range.begin == next);
          next = range.end;
          smallest = std::min(smallest, range.size());
          largest = std::max(largest, range.size());
          for (std::size_t i = range.begin; i < range.end; ++i) REQUIRE(p.owner(i).value() == r);
        }
        CHECK(next == n);
        CHECK(largest - smallest <= 1);
      }
    }
  }

  TEST_CASE("bad input is a status") {
    CHECK(dtl::block_partition<>::create(10, 0).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition<>::create(10, -2).error() == dtl::status_code::invalid_argument);
    const auto p = dtl::block_partition<>::create(10, 3).value();
    CHECK(p.local_range(3).error() == dtl::status_code::invalid_rank);
    CHECK(p.local_range(-1).error() == dtl::status_code::invalid_rank);
    CHECK(p.owner(10).error() == dtl::status_code::out_of_range);
    CHECK(p.local_range(0).value() == dtl::index_range{0, 4});
    CHECK(p.local_range(2).value() == dtl::index_range{7, 10});
  }

  TEST_CASE("units: blocks of whole rows, split like elements are") {
    for (const std::size_t unit : {std::size_t{1}, std::size_t{3}, std::size_t{16}})
      for (const std::size_t units : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{11}})
        for (int ranks = 1; ranks <= 4; ++ranks) {
          CAPTURE(unit);
          CAPTURE(units);
          CAPTURE(ranks);
          const auto p = dtl::block_partition<>::create(units * unit, ranks, unit).value();
          const auto rows = dtl::block_partition<>::create(units, ranks).value();  // the same split, in rows
          CHECK(p.unit() == unit);
          for (int r = 0; r < ranks; ++r) {
            const auto range = p.local_range(r).value();
            const auto row_range = rows.local_range(r).value();
            CHECK(range == dtl::index_range{row_range.begin * unit, row_range.end * unit});
            for (std::size_t i = range.begin; i < range.end; ++i) CHECK(p.owner(i).value() == r);
          }
        }
    CHECK(dtl::block_partition<>::create(10, 2, 3).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition<>::create(12, 2, 0).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition<>::create(12, 0, 3).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition<>::create(12, 2).value().unit() == 1);
  }

  TEST_CASE("layout moves: every element goes to its owner in the new layout, once") {
    const std::vector<std::vector<std::size_t>> layouts = {{0, 0, 0}, {3, 3, 4},  {10, 0, 0}, {0, 0, 10},
                                                           {1, 8, 1}, {0, 10, 0}, {5, 0, 5}};
    for (const auto& a : layouts) {
      for (const auto& b : layouts) {
        std::size_t total_a = 0, total_b = 0;
        for (auto x : a) total_a += x;
        for (auto x : b) total_b += x;
        if (total_a != total_b) continue;
        const auto from = dtl::detail::layout_offsets(a), to = dtl::detail::layout_offsets(b);
        // Simulate the alltoallv: global index g goes from its old owner to its new one.
        std::vector<int> seen(total_a, 0);
        for (std::size_t r = 0; r < a.size(); ++r) {
          const auto m = dtl::detail::moves_between(from, to, r);
          for (std::size_t q = 0; q < a.size(); ++q) {
            const auto peer = dtl::detail::moves_between(from, to, q);
            CHECK(m.send_counts[q] == peer.recv_counts[r]);  // what r sends, q expects
            for (std::size_t k = 0; k < m.send_counts[q]; ++k) {
              const std::size_t g = from[r] + m.send_displs[q] + k;
              REQUIRE(g < to[q + 1]);
              CHECK(g >= to[q]);
              CHECK(g - to[q] == peer.recv_displs[r] + k);  // lands at its place in q's new block
              ++seen[g];
            }
          }
          std::size_t stays = m.send_counts[r];
          CHECK(m.sent_elsewhere(r) + stays == a[r]);
        }
        for (int s : seen) CHECK(s == 1);
      }
    }
  }

  TEST_CASE("from_sizes: explicit per-rank sizes, empty ranks too; local_range and owner agree") {
    const std::vector<std::vector<std::size_t>> layouts = {
        {5}, {0}, {3, 0, 4}, {0, 0, 7}, {7, 0, 0}, {0, 2, 0, 2, 0}, {1, 1, 1, 1}, {0, 0}, {10, 1}};
    for (const auto& sizes : layouts) {
      const auto p = dtl::block_partition<>::from_sizes(sizes).value();
      CHECK(p.is_irregular());
      CHECK(p.ranks() == static_cast<int>(sizes.size()));
      CHECK(p.unit() == 1);
      std::size_t begin = 0;
      for (int r = 0; r < p.ranks(); ++r) {
        const auto range = p.local_range(r).value();
        CHECK(range == dtl::index_range{begin, begin + sizes[static_cast<std::size_t>(r)]});
        for (std::size_t i = range.begin; i < range.end; ++i) REQUIRE(p.owner(i).value() == r);
        begin = range.end;
      }
      CHECK(p.global_size() == begin);
      CHECK(p.owner(begin).error() == dtl::status_code::out_of_range);
      CHECK(p.local_range(p.ranks()).error() == dtl::status_code::invalid_rank);
      CHECK(p.local_range(-1).error() == dtl::status_code::invalid_rank);
      const auto copy = p;  // shares the offsets
      CHECK(copy.same_layout(p));
    }
    CHECK(dtl::block_partition<>::from_sizes(std::vector<std::size_t>{}).error() == dtl::status_code::invalid_argument);
    const std::size_t huge = ~std::size_t{0};
    CHECK(dtl::block_partition<>::from_sizes(std::vector<std::size_t>{huge, 1}).error() ==
          dtl::status_code::invalid_argument);
  }

  TEST_CASE("same_layout compares blocks, whichever way the partitions were made") {
    const auto even = dtl::block_partition<>::create(10, 3).value();
    CHECK_FALSE(even.is_irregular());
    CHECK(even.same_layout(dtl::block_partition<>::from_sizes(std::vector<std::size_t>{4, 3, 3}).value()));
    CHECK_FALSE(even.same_layout(dtl::block_partition<>::from_sizes(std::vector<std::size_t>{3, 4, 3}).value()));
    CHECK_FALSE(even.same_layout(dtl::block_partition<>::from_sizes(std::vector<std::size_t>{4, 3, 3, 0}).value()));
    CHECK_FALSE(even.same_layout(dtl::block_partition<>::create(11, 3).value()));
    CHECK(dtl::detail::partition_offsets(even) == std::vector<std::size_t>{0, 4, 7, 10});
  }

  TEST_CASE("check_layout_sizes: one size per rank, adding up to the total") {
    const std::vector<std::size_t> ok = {2, 0, 3};
    CHECK(dtl::detail::check_layout_sizes("t", ok, 3, 5).ok());
    CHECK(dtl::detail::check_layout_sizes("t", ok, 3, 6).code() == dtl::status_code::invalid_argument);
    CHECK(dtl::detail::check_layout_sizes("t", ok, 3, 4).code() == dtl::status_code::invalid_argument);
    CHECK(dtl::detail::check_layout_sizes("t", ok, 2, 5).code() == dtl::status_code::invalid_argument);
    const std::size_t huge = ~std::size_t{0};
    CHECK(dtl::detail::check_layout_sizes("t", std::vector<std::size_t>{huge, huge}, 2, huge).code() ==
          dtl::status_code::invalid_argument);
    CHECK(dtl::detail::sizes_fingerprint(ok) != dtl::detail::sizes_fingerprint(std::vector<std::size_t>{0, 2, 3}));
  }

  TEST_CASE("plan_relayout: what stays, what moves and what is new, when the total changes too") {
    // Serial simulation: old blocks hold global indices, the plan builds the new blocks.
    const std::vector<std::vector<std::size_t>> layouts = {{5, 0, 3}, {0, 0, 8}, {3, 3, 2}, {1, 0, 0},
                                                           {0, 0, 0}, {6, 6, 6}, {2, 9, 1}};
    for (const auto& a : layouts)
      for (const auto& b : layouts) {
        const auto from = dtl::detail::layout_offsets(a), to = dtl::detail::layout_offsets(b);
        const std::size_t old_n = from.back(), new_n = to.back(), ranks = a.size();
        std::vector<std::vector<long>> blocks(ranks);
        for (std::size_t q = 0; q < ranks; ++q) blocks[q].assign(b[q], -1);
        bool moves = false;
        for (std::size_t r = 0; r < ranks; ++r) {
          const auto plan = dtl::detail::plan_relayout(from, to, r);
          CHECK(plan.moves.send_counts[r] == 0);
          CHECK(plan.moves.recv_counts[r] == 0);
          for (std::size_t k = 0; k < plan.keep_count; ++k)
            blocks[r][plan.keep_to + k] = static_cast<long>(from[r] + plan.keep_from + k);
          for (std::size_t q = 0; q < ranks; ++q) {
            const auto peer = dtl::detail::plan_relayout(from, to, q);
            CHECK(plan.moves.send_counts[q] == peer.moves.recv_counts[r]);
            for (std::size_t k = 0; k < plan.moves.send_counts[q]; ++k)
              blocks[q][peer.moves.recv_displs[r] + k] = static_cast<long>(from[r] + plan.moves.send_displs[q] + k);
            moves = moves || plan.moves.send_counts[q] != 0;
          }
          for (std::size_t k = 0; k < plan.fill_count; ++k) blocks[r][plan.fill_begin + k] = -2;
          CHECK(plan.any_rank_exchanges == dtl::detail::plan_relayout(from, to, 0).any_rank_exchanges);
        }
        if (moves) CHECK(dtl::detail::plan_relayout(from, to, 0).any_rank_exchanges);
        std::size_t g = 0;
        for (std::size_t q = 0; q < ranks; ++q)
          for (const long x : blocks[q]) {
            CHECK(x == (g < old_n ? static_cast<long>(g) : -2));  // kept in global order, the rest new
            ++g;
          }
        CHECK(g == new_n);
      }
  }

  TEST_CASE("the static policy (upstream's block_partition<0>) agrees with a partition object") {
    static_assert(dtl::PartitionPolicyConcept<dtl::block_partition<>>);
    for (int ranks = 1; ranks <= 5; ++ranks)
      for (std::size_t n : {0u, 3u, 10u, 31u}) {
        const auto p = dtl::block_partition<>::create(n, ranks).value();
        for (int r = 0; r < ranks; ++r) {
          const auto range = p.local_range(r).value();
          const auto info = dtl::block_partition<>::make_info(n, ranks, r);
          CHECK(info.local_start == static_cast<dtl::index_t>(range.begin));
          CHECK(info.local_size == range.size());
          for (std::size_t i = range.begin; i < range.end; ++i) {
            CHECK(dtl::block_partition<>::owner(static_cast<dtl::index_t>(i), n, ranks) == r);
            CHECK(dtl::block_partition<>::to_local(static_cast<dtl::index_t>(i), n, ranks, r) ==
                  static_cast<dtl::index_t>(i - range.begin));
          }
        }
      }
  }

  TEST_CASE("dynamic_block: explicit boundaries, empty blocks, and the even fallback") {
    const auto db = dtl::dynamic_block::from_sizes({2, 0, 5});
    CHECK(db.owner(1, 7, 3) == 0);
    CHECK(db.owner(2, 7, 3) == 2);  // rank 1 is empty
    CHECK(db.local_size(7, 3, 1) == 0);
    CHECK(db.to_global(4, 7, 3, 2) == 6);
    const dtl::dynamic_block even;
    CHECK(even.owner(4, 10, 3) == dtl::block_partition<>::owner(4, 10, 3));
  }

  TEST_CASE("block_nd_partition: a 2 x 2 grid over 5 x 3, every element owned once") {
    const dtl::block_2d_partition part(dtl::block_2d_partition::grid_type{2, 2});
    const dtl::nd_extent<2> global{5, 3};
    CHECK(part.local_extents(global, 3) == dtl::nd_extent<2>{2, 1});
    CHECK(part.local_starts(global, 3) == dtl::nd_index<2>{3, 2});
    std::size_t total = 0;
    for (dtl::index_t i = 0; i < 5; ++i)
      for (dtl::index_t j = 0; j < 3; ++j) {
        const dtl::nd_index<2> idx{i, j};
        const dtl::rank_t owner = part.owner(idx, global);
        CHECK(part.is_local(idx, global, owner));
        CHECK(part.to_global(part.to_local(idx, global, owner), global, owner) == idx);
        ++total;
      }
    std::size_t sizes = 0;
    for (dtl::rank_t r = 0; r < part.total_ranks(); ++r) sizes += part.local_size(global, r);
    CHECK(sizes == total);
  }
}
