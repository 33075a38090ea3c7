// SPDX-License-Identifier: MIT
// dtl::process_grid (suite process_grid, one process): fitting, given extents, coordinates, neighbours and
// bad arguments; against MPI's own MPI_Dims_create, MPI_Cart_coords and MPI_Cart_shift (suite
// mpi.process_grid, under the run's MPI environment).
#include <dtl/containers/process_grid.hpp>  // first: the header compiles on its own

#include "test_environment.hpp"

#include <array>
#include <set>

#if DTL_CONTAINERS_HAS_MPI
#include <mpi.h>
#endif

namespace {

template <std::size_t N>
using ext = std::array<int, N>;

}  // namespace

TEST_SUITE("process_grid") {
  TEST_CASE("fitted extents: balanced, non-increasing, their product the rank count") {
    CHECK(dtl::process_grid<1>(7).extents() == ext<1>{7});
    CHECK(dtl::process_grid<2>(12).extents() == ext<2>{4, 3});
    CHECK(dtl::process_grid<3>(12).extents() == ext<3>{3, 2, 2});
    CHECK(dtl::process_grid<2>(16).extents() == ext<2>{4, 4});
    CHECK(dtl::process_grid<3>(8).extents() == ext<3>{2, 2, 2});
    CHECK(dtl::process_grid<2>(7).extents() == ext<2>{7, 1});
    CHECK(dtl::process_grid<4>(1).extents() == ext<4>{1, 1, 1, 1});
    for (int p = 1; p <= 200; ++p) {
      const dtl::process_grid<3> g(p);
      CHECK(g.size() == p);
      CHECK(g.extent(0) >= g.extent(1));
      CHECK(g.extent(1) >= g.extent(2));
    }
  }

  TEST_CASE("given extents are kept; the free ones share what is left") {
    CHECK(dtl::process_grid<2>(12, {0, 2}).extents() == ext<2>{6, 2});
    CHECK(dtl::process_grid<3>(24, {0, 3, 0}).extents() == ext<3>{4, 3, 2});
    CHECK(dtl::process_grid<2>(6, {1, 6}).extents() == ext<2>{1, 6});
  }

  TEST_CASE("coordinates are row-major, and rank_of inverts coords") {
    const dtl::process_grid<3> g(24, {2, 3, 4});
    CHECK(g.coords(0) == ext<3>{0, 0, 0});
    CHECK(g.coords(1) == ext<3>{0, 0, 1});
    CHECK(g.coords(4) == ext<3>{0, 1, 0});
    CHECK(g.coords(23) == ext<3>{1, 2, 3});
    std::set<ext<3>> seen;
    for (int r = 0; r < g.size(); ++r) {
      CHECK(g.rank_of(g.coords(r)) == r);
      seen.insert(g.coords(r));
    }
    CHECK(seen.size() == 24u);
  }

  TEST_CASE("neighbours: wrapped where periodic, none past a closed edge") {
    const dtl::process_grid<2> g(12, {3, 4}, {true, false});
    const int r = g.rank_of({0, 0});
    CHECK(g.neighbour(r, 0, -1) == g.rank_of({2, 0}));  // periodic: wraps
    CHECK(g.neighbour(r, 0, +1) == g.rank_of({1, 0}));
    CHECK(g.neighbour(r, 0, 7) == g.rank_of({1, 0}));  // 7 steps round 3
    CHECK(g.neighbour(r, 0, -7) == g.rank_of({2, 0}));
    CHECK(g.neighbour(r, 1, -1) == dtl::process_grid<2>::none);  // closed
    CHECK(g.neighbour(r, 1, +3) == g.rank_of({0, 3}));
    CHECK(g.neighbour(r, 1, +4) == dtl::process_grid<2>::none);
    CHECK(g.neighbour(r, 1, -100) == dtl::process_grid<2>::none);
    const dtl::process_grid<1> one(1, {}, {true});
    CHECK(one.neighbour(0, 0, +1) == 0);  // periodic with one rank: itself
  }

  TEST_CASE("blocks tile the index space, uneven and empty ones included, and owner() agrees") {
    const dtl::process_grid<2> g(6, {3, 2});
    const dtl::nd_extent<2> global{10, 7};
    CHECK(g.block(0, global).offset == dtl::nd_extent<2>{0, 0});
    CHECK(g.block(0, global).extents == dtl::nd_extent<2>{4, 4});  // 10 = 4 + 3 + 3, 7 = 4 + 3
    CHECK(g.block(5, global).offset == dtl::nd_extent<2>{7, 4});
    CHECK(g.block(5, global).extents == dtl::nd_extent<2>{3, 3});
    for (const dtl::nd_extent<2> shape : {dtl::nd_extent<2>{10, 7}, dtl::nd_extent<2>{2, 1}, dtl::nd_extent<2>{0, 5}}) {
      CAPTURE(shape[0]);
      CAPTURE(shape[1]);
      std::size_t total = 0;
      for (int r = 0; r < g.size(); ++r) {
        const auto b = g.block(r, shape);
        total += b.size();
        for (std::size_t i = 0; i < b.extents[0]; ++i)
          for (std::size_t j = 0; j < b.extents[1]; ++j) {
            const dtl::nd_index<2> at{static_cast<dtl::index_t>(b.offset[0] + i),
                                      static_cast<dtl::index_t>(b.offset[1] + j)};
            CHECK(g.owner(at, shape) == r);
          }
      }
      CHECK(total == dtl::extents_size(shape));  // every index in exactly one block
    }
    CHECK(g.block(4, {2, 1}).size() == 0u);  // more ranks than rows: empty blocks
  }

  TEST_CASE("blocks of an extent near the top of size_t: contiguous, no wrap") {
    const dtl::process_grid<2> g(3, {3, 1});
    const dtl::nd_extent<2> global{static_cast<std::size_t>(-1), 5};
    std::size_t next = 0, total = 0;
    for (int r = 0; r < g.size(); ++r) {
      const auto b = g.block(r, global);
      CHECK(b.offset[0] == next);
      CHECK(b.extents[1] == 5u);
      next = b.offset[0] + b.extents[0];
      total += b.extents[0];
    }
    CHECK(total == global[0]);
  }

  TEST_CASE("bad arguments: invalid_argument, thrown by the constructor") {
    CHECK(dtl::process_grid<2>::create(0).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::process_grid<2>::create(-3).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::process_grid<2>::create(12, {5, 0}).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::process_grid<2>::create(12, {3, 3}).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::process_grid<2>::create(12, {-2, 0}).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::process_grid<3>::create(4, {1 << 30, 1 << 30, 0}).error().code() ==
          dtl::status_code::invalid_argument);  // the product does not overflow into a divisor
    const auto bad = dtl::process_grid<2>::create(12, {3, 3});
    CHECK(bad.error().message().find("3 x 3") != std::string::npos);
    CHECK_THROWS_AS(dtl::process_grid<2>(12, {5, 0}), dtl::status_error);
  }
}

#if DTL_CONTAINERS_HAS_MPI
TEST_SUITE("mpi.process_grid") {
  TEST_CASE("the same extents as MPI_Dims_create, the same coordinates and shifts as a Cartesian communicator") {
    for (int p = 1; p <= 128; ++p) {
      CAPTURE(p);
      std::array<int, 2> d2{};
      std::array<int, 3> d3{};
      std::array<int, 4> d4{};
      REQUIRE(MPI_Dims_create(p, 2, d2.data()) == MPI_SUCCESS);
      REQUIRE(MPI_Dims_create(p, 3, d3.data()) == MPI_SUCCESS);
      REQUIRE(MPI_Dims_create(p, 4, d4.data()) == MPI_SUCCESS);
      CHECK(dtl::process_grid<2>(p).extents() == d2);
      CHECK(dtl::process_grid<3>(p).extents() == d3);
      CHECK(dtl::process_grid<4>(p).extents() == d4);
      std::array<int, 3> fixed{0, 2, 0};
      if (p % 2 == 0) {
        REQUIRE(MPI_Dims_create(p, 3, fixed.data()) == MPI_SUCCESS);
        CHECK(dtl::process_grid<3>(p, {0, 2, 0}).extents() == fixed);
      }
    }
    // This run's ranks as a periodic-in-0 grid: every rank's coordinates and shifts as MPI's.
    int size = 0, me = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const dtl::process_grid<2> g(size, {}, {true, false});
    const int periods[2] = {1, 0};
    MPI_Comm cart = MPI_COMM_NULL;
    REQUIRE(MPI_Cart_create(MPI_COMM_WORLD, 2, g.extents().data(), periods, 0, &cart) == MPI_SUCCESS);
    for (int r = 0; r < size; ++r) {
      std::array<int, 2> c{};
      MPI_Cart_coords(cart, r, 2, c.data());
      CHECK(g.coords(r) == c);
    }
    for (int d = 0; d < 2; ++d)
      for (int step : {-3, -1, 1, 2}) {
        int source = 0, dest = 0;
        MPI_Cart_shift(cart, d, step, &source, &dest);
        const auto mine = [&](int r) { return r == MPI_PROC_NULL ? dtl::process_grid<2>::none : r; };
        CHECK(g.neighbour(me, static_cast<std::size_t>(d), step) == mine(dest));
        CHECK(g.neighbour(me, static_cast<std::size_t>(d), -step) == mine(source));
      }
    MPI_Comm_free(&cart);
  }
}
#endif
