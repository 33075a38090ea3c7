#include "doctest.hpp"

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/detail/layout_moves.hpp>

#include <vector>

TEST_SUITE("block_partition") {
  TEST_CASE("blocks cover [0, n) exactly once and differ in size by at most one") {
    for (std::size_t n : {0u, 1u, 7u, 64u, 1000u, 1001u}) {
      for (int ranks : {1, 2, 3, 8, 13}) {
        const auto p = dtl::block_partition::create(n, ranks).value();
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
    CHECK(dtl::block_partition::create(10, 0).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition::create(10, -2).error() == dtl::status_code::invalid_argument);
    const auto p = dtl::block_partition::create(10, 3).value();
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
          const auto p = dtl::block_partition::create(units * unit, ranks, unit).value();
          const auto rows = dtl::block_partition::create(units, ranks).value();  // the same split, in rows
          CHECK(p.unit() == unit);
          for (int r = 0; r < ranks; ++r) {
            const auto range = p.local_range(r).value();
            const auto row_range = rows.local_range(r).value();
            CHECK(range == dtl::index_range{row_range.begin * unit, row_range.end * unit});
            for (std::size_t i = range.begin; i < range.end; ++i) CHECK(p.owner(i).value() == r);
          }
        }
    CHECK(dtl::block_partition::create(10, 2, 3).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition::create(12, 2, 0).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition::create(12, 0, 3).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::block_partition::create(12, 2).value().unit() == 1);
  }

  TEST_CASE("layout moves: every element goes to its owner in the new layout, once") {
    const std::vector<std::vector<std::size_t>> layouts = {{0, 0, 0}, {3, 3, 4}, {10, 0, 0}, {0, 0, 10},
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
}
