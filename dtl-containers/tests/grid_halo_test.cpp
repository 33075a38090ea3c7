// SPDX-License-Identifier: MIT
// dtl::grid_decomposition (suite grid_decomposition, one process): blocks, padding, the transfers of star
// and box ghost regions, closed edges, bad arguments; and over it (suite mpi.grid_halo, 1 to 4 ranks) the N-d
// halo exchange, its reverse (reduce), and a stencil over the owned block after an exchange: N = 1 to 4,
// uneven blocks, grids 1 x P, P x 1 and 2 x 2, periodic and not in each dimension, widths 1 and 2, star and
// box, every element against a serial reference (a ghost the shape does not fill, or past a closed edge, is
// never written).
#include <dtl/containers/grid_decomposition.hpp>  // first: the header compiles on its own

#include "grid_reference.hpp"
#include "test_environment.hpp"

#include <dtl/containers/detail/grid_halo_exchange.hpp>
#include <dtl/containers/detail/nd_stencil.hpp>
#include <dtl/containers/stencil_accessor.hpp>
#include <dtl/core/status_error.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace grid_reference;

constexpr std::int64_t sentinel = -1;

/// Fills rank's owned block, exchanges, and checks every element of the padded allocation.
template <std::size_t N>
void exchange_checks(const dtl::context& ctx, const dtl::grid_decomposition<N>& dec) {
  std::vector<std::int64_t> data = owned_values(dec, ctx.rank(), sentinel);
  auto plan = dtl::detail::make_grid_halo_plan(ctx, dec, sizeof(std::int64_t));
  REQUIRE(plan.has_value());
  REQUIRE(dtl::detail::grid_halo_exchange(**plan, data.data()).ok());
  // Twice: the plan is reusable, and the result the same.
  REQUIRE(dtl::detail::grid_halo_exchange(**plan, data.data()).ok());
  check_same(data, after_exchange(dec, ctx.rank(), sentinel), "exchange");
}

/// The reverse exchange: a sum adds into each owned element the values of the ghosts (on every rank) that
/// copy it; the ghosts keep their values.
template <std::size_t N>
void reduce_checks(const dtl::context& ctx, const dtl::grid_decomposition<N>& dec) {
  std::vector<std::int64_t> data = reduce_input(dec, ctx.rank());
  auto plan = dtl::detail::make_grid_halo_plan(ctx, dec, sizeof(std::int64_t));
  REQUIRE(plan.has_value());
  REQUIRE(dtl::detail::grid_halo_reduce(**plan, data.data(), dtl::detail::datatype::i64, dtl::reduce_op::sum).ok());
  check_same(data, after_reduce(dec, ctx.rank()), "reduce");
}

/// Exchange, then a stencil of the decomposition's shape and width over the owned block (the accessor's
/// s(offsets...)): equal to the same stencil over the serial global array, wrapped where periodic and 0
/// (the allocation's T{}) past a closed edge.
template <std::size_t N>
void stencil_checks(const dtl::context& ctx, const dtl::grid_decomposition<N>& dec) {
  const int rank = ctx.rank();
  std::vector<std::int64_t> in = owned_values(dec, rank, 0), out(dec.padded_size(rank), sentinel);
  auto plan = dtl::detail::make_grid_halo_plan(ctx, dec, sizeof(std::int64_t));
  REQUIRE(plan.has_value());
  REQUIRE(dtl::detail::grid_halo_exchange(**plan, in.data()).ok());
  const auto offsets = stencil_offsets<N>(dec.halo_width(), dec.shape());
  auto op = [&offsets](dtl::stencil_accessor<const std::int64_t, N> s) {
    std::int64_t sum = 0;
    for (const auto& o : offsets) sum += weight_of<N>(o) * std::apply([&s](auto... k) { return s(k...); }, o);
    return sum;
  };
  dtl::detail::nd_stencil_host(dec.padded_extents(rank), dec.owned_in_padded(rank), in.data(), out.data(), op);
  check_same(out, after_stencil(dec, rank, sentinel), "stencil");
}

/// Every shape and periodicity of one global extent over `grid_extents` (0: fitted).
template <std::size_t N>
void all_variants(const dtl::context& ctx, const ext<N>& global, const std::array<int, N>& grid_extents) {
  for_each_variant<N>(ctx.size(), global, grid_extents, [&](const dtl::grid_decomposition<N>& dec) {
    exchange_checks<N>(ctx, dec);
    reduce_checks<N>(ctx, dec);
    stencil_checks<N>(ctx, dec);
  });
}

}  // namespace

TEST_SUITE("grid_decomposition") {
  TEST_CASE("blocks, padding and the owned block inside the allocation") {
    const dtl::process_grid<2> grid(6, {3, 2});
    const dtl::grid_decomposition<2> dec(grid, {10, 7}, {1, 2});
    // Rows 10 over 3: 4, 3, 3; columns 7 over 2: 4, 3.
    CHECK(dec.owned(0).offset == ext<2>{0, 0});
    CHECK(dec.owned(0).extents == ext<2>{4, 4});
    CHECK(dec.owned(5).offset == ext<2>{7, 4});
    CHECK(dec.owned(5).extents == ext<2>{3, 3});
    CHECK(dec.padded_extents(5) == ext<2>{5, 7});
    CHECK(dec.padded_size(5) == 35);
    CHECK(dec.owned_in_padded(5).offset == ext<2>{1, 2});
    CHECK(dec.owned_in_padded(5).extents == ext<2>{3, 3});
  }

  TEST_CASE("transfers: 2N faces for star, 3^N - 1 regions for box, none past a closed edge") {
    const dtl::process_grid<3> periodic(27, {3, 3, 3}, {true, true, true});
    CHECK(dtl::grid_decomposition<3>(periodic, {9, 9, 9}, {1, 1, 1}).transfers(13).size() == 6);
    CHECK(dtl::grid_decomposition<3>(periodic, {9, 9, 9}, {1, 1, 1}, dtl::stencil_shape::box).transfers(0).size() ==
          26);
    const dtl::process_grid<3> closed(27, {3, 3, 3});
    // The corner rank 0 has a neighbour only on the + side of each dimension.
    CHECK(dtl::grid_decomposition<3>(closed, {9, 9, 9}, {1, 1, 1}).transfers(0).size() == 3);
    CHECK(dtl::grid_decomposition<3>(closed, {9, 9, 9}, {1, 1, 1}, dtl::stencil_shape::box).transfers(0).size() == 7);
    CHECK(dtl::grid_decomposition<3>(closed, {9, 9, 9}, {1, 1, 1}, dtl::stencil_shape::box).transfers(13).size() == 26);
    // Width 0 in a dimension: nothing crosses it.
    CHECK(dtl::grid_decomposition<3>(periodic, {9, 9, 9}, {1, 0, 1}, dtl::stencil_shape::box).transfers(13).size() ==
          8);
    // One rank, periodic: every region is this rank's own.
    const dtl::process_grid<2> one(1, {}, {true, true});
    const auto self = dtl::grid_decomposition<2>(one, {4, 5}, {1, 1}, dtl::stencil_shape::box).transfers(0);
    CHECK(self.size() == 8);
    for (const auto& t : self) CHECK(t.peer == 0);
  }

  TEST_CASE("a face's boxes: the last owned layers go up, the ghosts below take the neighbour's") {
    const dtl::process_grid<2> grid(2, {2, 1});
    const dtl::grid_decomposition<2> dec(grid, {6, 4}, {2, 1});
    const auto t0 = dec.transfers(0);
    REQUIRE(t0.size() == 1);  // closed: rank 0 has only the neighbour below it (+1 in dimension 0)
    CHECK(t0[0].direction == std::array<int, 2>{1, 0});
    CHECK(t0[0].peer == 1);
    CHECK(t0[0].send.offset == ext<2>{3, 1});  // owned rows 2..4 of the padded 7 x 6; the last 2: 3, 4
    CHECK(t0[0].send.extents == ext<2>{2, 4});
    CHECK(t0[0].receive.offset == ext<2>{5, 1});
    CHECK(t0[0].receive.extents == ext<2>{2, 4});
    const auto t1 = dec.transfers(1);
    REQUIRE(t1.size() == 1);
    CHECK(t1[0].direction == std::array<int, 2>{-1, 0});
    CHECK(t1[0].send.offset == ext<2>{2, 1});
    CHECK(t1[0].receive.offset == ext<2>{0, 1});
  }

  TEST_CASE("bad arguments: a halo wider than a block it is read from, overflow") {
    const dtl::process_grid<2> grid(4, {4, 1});
    // 6 rows over 4 ranks: 2, 2, 1, 1; width 2 reads 2 rows of a 1-row block.
    const auto wide = dtl::grid_decomposition<2>::create(grid, {6, 8}, {2, 1});
    REQUIRE_FALSE(wide.has_value());
    CHECK(wide.error().code() == dtl::status_code::invalid_argument);
    CHECK(wide.error().message().find("wider than the blocks") != std::string::npos);
    CHECK_THROWS_AS(dtl::grid_decomposition<2>(grid, {6, 8}, {2, 1}), dtl::status_error);
    // An empty block next to a neighbour: 3 rows over 4 ranks.
    CHECK(dtl::grid_decomposition<2>::create(grid, {3, 8}, {1, 0}).error().code() ==
          dtl::status_code::invalid_argument);
    // Width 0 there: nothing is read, so empty blocks are fine.
    CHECK(dtl::grid_decomposition<2>::create(grid, {3, 8}, {0, 1}).has_value());
    // One rank in a closed dimension: nobody reads it.
    CHECK(dtl::grid_decomposition<2>::create(grid, {8, 1}, {1, 3}).has_value());
    // ... but periodic it reads itself.
    const dtl::process_grid<2> wrapped(4, {4, 1}, {false, true});
    CHECK_FALSE(dtl::grid_decomposition<2>::create(wrapped, {8, 1}, {1, 3}).has_value());
    const std::size_t big = std::size_t{1} << 40;
    CHECK(dtl::grid_decomposition<2>::create(dtl::process_grid<2>(1), {big, big}).error().code() ==
          dtl::status_code::invalid_argument);
    CHECK(dtl::grid_decomposition<1>::create(dtl::process_grid<1>(1), {8}, {SIZE_MAX / 2}).error().code() ==
          dtl::status_code::invalid_argument);
  }
}

TEST_SUITE("mpi.grid_halo") {
  TEST_CASE("N = 1 to 4, fitted grids, uneven blocks, every periodicity, widths 1 and 2, star and box") {
    const dtl::context ctx = test_support::world();
    all_variants<1>(ctx, {11}, {0});
    all_variants<2>(ctx, {9, 7}, {0, 0});
    all_variants<3>(ctx, {7, 6, 5}, {0, 0, 0});
    all_variants<4>(ctx, {7, 4, 4, 3}, {0, 0, 0, 0});
  }

  TEST_CASE("grids 1 x P and P x 1") {
    const dtl::context ctx = test_support::world();
    const auto p = static_cast<std::size_t>(ctx.size());
    all_variants<2>(ctx, {5, 4 * p + 1}, {1, 0});
    all_variants<2>(ctx, {4 * p + 3, 5}, {0, 1});
  }

  TEST_CASE("a rank count that the extents do not divide, and a dimension of width 0") {
    const dtl::context ctx = test_support::world();
    const dtl::process_grid<3> grid(ctx.size(), {}, {true, false, true});
    exchange_checks<3>(ctx, dtl::grid_decomposition<3>(grid, {13, 6, 5}, {2, 0, 1}, dtl::stencil_shape::box));
    exchange_checks<3>(ctx, dtl::grid_decomposition<3>(grid, {13, 6, 5}, {1, 1, 0}, dtl::stencil_shape::star));
    reduce_checks<3>(ctx, dtl::grid_decomposition<3>(grid, {13, 6, 5}, {2, 0, 1}, dtl::stencil_shape::box));
    stencil_checks<3>(ctx, dtl::grid_decomposition<3>(grid, {13, 6, 5}, {2, 0, 1}, dtl::stencil_shape::box));
  }

  TEST_CASE(
      "a plan over a grid of another rank count, or over decompositions that differ between ranks: "
      "invalid_argument on every rank") {
    const dtl::context ctx = test_support::world();
    const dtl::grid_decomposition<2> wrong(dtl::process_grid<2>(ctx.size() + 1), {16, 16}, {1, 1});
    const auto refused = dtl::detail::make_grid_halo_plan(ctx, wrong, sizeof(double));
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().code() == dtl::status_code::invalid_argument);
    CHECK(refused.error().message().find("ranks, the context") != std::string::npos);
    // Rank 0 with a halo one wider than the others'.
    const std::size_t w = ctx.rank() == 0 ? 2 : 1;
    const dtl::grid_decomposition<2> mine(dtl::process_grid<2>(ctx.size(), {}, {true, true}), {16, 16}, {w, w});
    const auto mixed = dtl::detail::make_grid_halo_plan(ctx, mine, sizeof(double));
    if (ctx.size() > 1) {
      REQUIRE_FALSE(mixed.has_value());
      CHECK(mixed.error().code() == dtl::status_code::invalid_argument);
    } else {
      CHECK(mixed.has_value());
    }
    REQUIRE(ctx.barrier().has_value());  // the context still pairs its ranks' calls
  }

  TEST_CASE(
      "host memory: every message travels as an MPI datatype from and into the allocation, unless it is "
      "past one piece (DTL_MPI_MESSAGE_LIMIT)") {
    const dtl::context ctx = test_support::world();
    const dtl::grid_decomposition<3> dec(dtl::process_grid<3>(ctx.size(), {}, {true, true, true}), {6, 7, 5}, {1, 1, 1},
                                         dtl::stencil_shape::box);
    auto plan = dtl::detail::make_grid_halo_plan(ctx, dec, sizeof(std::int64_t));
    REQUIRE(plan.has_value());
    const auto counts = dtl::detail::grid_halo_message_counts(**plan);
    // 26 regions of a periodic box; those whose neighbour is this rank are copies, not messages.
    CHECK(counts.messages <= 26);
    if (ctx.size() > 1) CHECK(counts.messages > 0);
    const char* limit = std::getenv("DTL_MPI_MESSAGE_LIMIT");
    if (limit == nullptr || std::stoul(limit) >= 6 * 7 * 5 * sizeof(std::int64_t))
      CHECK(counts.as_box_types == counts.messages);
    else if (ctx.size() > 1)
      CHECK(counts.as_box_types < counts.messages);  // faces past the limit are packed and go in pieces
    std::vector<std::int64_t> data = owned_values(dec, ctx.rank(), sentinel);
    REQUIRE(dtl::detail::grid_halo_exchange(**plan, data.data()).ok());
    check_same(data, after_exchange(dec, ctx.rank(), sentinel), "exchange");
  }

  TEST_CASE("reduce: a bitwise op on floating-point elements, and an exchange in flight, are refused") {
    const dtl::context ctx = test_support::world();
    const dtl::process_grid<2> grid(ctx.size(), {}, {true, true});
    const dtl::grid_decomposition<2> dec(grid, {8, 9}, {1, 1}, dtl::stencil_shape::box);
    std::vector<double> data(dec.padded_size(ctx.rank()), 1.0);
    auto plan = dtl::detail::make_grid_halo_plan(ctx, dec, sizeof(double));
    REQUIRE(plan.has_value());
    CHECK(dtl::detail::grid_halo_reduce(**plan, data.data(), dtl::detail::datatype::f64, dtl::reduce_op::bxor).code() ==
          dtl::status_code::invalid_argument);
    REQUIRE(dtl::detail::grid_halo_exchange_begin(**plan, data.data()).ok());
    CHECK(dtl::detail::grid_halo_reduce(**plan, data.data(), dtl::detail::datatype::f64, dtl::reduce_op::sum).code() ==
          dtl::status_code::invalid_state);
    CHECK(dtl::detail::grid_halo_exchange_begin(**plan, data.data()).code() == dtl::status_code::invalid_state);
    CHECK(dtl::detail::grid_halo_in_flight(**plan));
    REQUIRE(dtl::detail::grid_halo_exchange_end(**plan).ok());
    CHECK_FALSE(dtl::detail::grid_halo_in_flight(**plan));
    CHECK(dtl::detail::grid_halo_exchange_end(**plan).code() == dtl::status_code::invalid_state);
    // Every ghost of a periodic box grid is filled: with all ones everywhere, a max leaves them ones.
    REQUIRE(dtl::detail::grid_halo_reduce(**plan, data.data(), dtl::detail::datatype::f64, dtl::reduce_op::max).ok());
    for (const double x : data) CHECK(x == 1.0);
  }
}
