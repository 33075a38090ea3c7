// SPDX-License-Identifier: MIT
// dtl::grid_tensor on host memory (suite mpi.grid_tensor, 1 to 4 ranks; 4 gives a 2 x 2 grid): its blocks and
// views, the halo exchange and its reverse through t.halo(), stencil_transform over the owned block and over a
// box of it, gather and the host copies, for N = 1 to 4, uneven blocks, grids 1 x P, P x 1 and fitted, every
// periodicity, widths 1 and 2, star and box; every element against the serial reference (grid_reference.hpp).
// Bad input: a grid of another rank count, mismatched tensors, a box past the block.
#include <dtl/containers/grid_tensor.hpp>  // first: the header compiles on its own

#include "grid_reference.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms/inner_product.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/stencil.hpp>
#include <dtl/core/status_error.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

namespace {

using namespace grid_reference;

template <std::size_t N>
using tensor = dtl::grid_tensor<std::int64_t, N>;

/// The whole allocation of t, ghosts included (through the view with ghosts: every element once).
template <std::size_t N>
std::vector<std::int64_t> allocation(const tensor<N>& t) {
  const auto v = t.local_view_with_ghosts();
  std::vector<std::int64_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i];
  return out;
}
template <std::size_t N>
void load(tensor<N>& t, const std::vector<std::int64_t>& padded) {
  auto v = t.local_view_with_ghosts();
  REQUIRE(v.size() == padded.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = padded[i];
}

template <std::size_t N>
void tensor_checks(const dtl::context& ctx, const dtl::grid_decomposition<N>& dec) {
  const int rank = ctx.rank();
  tensor<N> t(dec, ctx);
  // The block and its views.
  CHECK(t.local_extents() == dec.owned(rank).extents);
  CHECK(t.padded_extents() == dec.padded_extents(rank));
  CHECK(t.local_size_with_ghosts() == dec.padded_size(rank));
  for (std::size_t d = 0; d < N; ++d)
    CHECK(t.global_offset()[d] == static_cast<dtl::index_t>(dec.owned(rank).offset[d]));
  CHECK(allocation(t) == std::vector<std::int64_t>(dec.padded_size(rank), 0));  // ghosts and all: T{}

  // The owned elements from the host, then an exchange: every ghost it fills, the others still T{}.
  const auto block = owned_block(dec, rank);
  REQUIRE(t.copy_from_host(block.data(), block.size()).has_value());
  CHECK(t.copy_to_host().value() == block);
  CHECK(allocation(t) == owned_values(dec, rank, 0));
  const auto view = t.local_view();
  if (t.local_size() != 0) {
    CHECK(view.data() == t.local_data());
    CHECK(view[0] == block.front());
    CHECK(view[view.size() - 1] == block.back());
    // Exhaustive exactly when the owned elements are one run of the allocation (N = 1, or a single row).
    const bool one_run = static_cast<std::size_t>(&view[view.size() - 1] - view.data()) + 1 == view.size();
    CHECK(view.is_exhaustive() == one_run);
  }
  REQUIRE(t.halo().exchange().has_value());
  check_same(allocation(t), after_exchange(dec, rank, 0), "exchange");
  REQUIRE(t.halo().exchange_begin().has_value());
  CHECK(t.halo().in_flight());
  REQUIRE(t.halo().exchange_end().has_value());
  check_same(allocation(t), after_exchange(dec, rank, 0), "exchange");

  // The stencil over the owned block (out has no halo), and over a box of it.
  const dtl::grid_decomposition<N> plain(dec.grid(), dec.global_extents(), {}, dec.shape());
  tensor<N> out(plain, ctx);
  const auto offsets = stencil_offsets<N>(dec.halo_width(), dec.shape());
  auto op = [&offsets](dtl::stencil_accessor<const std::int64_t, N> s) {
    std::int64_t sum = 0;
    for (const auto& o : offsets) sum += weight_of<N>(o) * std::apply([&s](auto... k) { return s(k...); }, o);
    return sum;
  };
  load(t, owned_values(dec, rank, 0));
  REQUIRE(t.halo().exchange().has_value());
  REQUIRE(dtl::stencil_transform(t, out, op).has_value());
  {
    // after_stencil over `dec`'s allocation; out's allocation is the owned block alone.
    const auto expected_padded = after_stencil(dec, rank, 0);
    std::vector<std::int64_t> expected;
    for (std::size_t linear = 0; linear < expected_padded.size(); ++linear)
      if (classify(dec, rank, linear).kind == cell_kind::owned) expected.push_back(expected_padded[linear]);
    check_same(out.copy_to_host().value(), expected, "stencil");
  }
  if (t.local_size() != 0) {
    tensor<N> part(plain, ctx);
    dtl::nd_box<N> box{{}, t.local_extents()};
    box.offset[0] = box.extents[0] / 2;  // the upper half of the first dimension
    box.extents[0] -= box.offset[0];
    REQUIRE(dtl::stencil_transform(dtl::seq{}, t, part, op, box).has_value());
    const auto all = out.copy_to_host().value(), some = part.copy_to_host().value();
    const std::size_t row = t.local_size() / t.local_extents()[0];
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(some[i] == (i / row >= box.offset[0] ? all[i] : 0));
  }

  // The element-wise algorithms over the owned elements (the ghosts untouched), against the block.
  {
    tensor<N> a(dec, ctx), b(dec, ctx), c(plain, ctx);
    REQUIRE(a.copy_from_host(block.data(), block.size()).has_value());
    REQUIRE(dtl::fill(b, 5).has_value());
    REQUIRE(dtl::for_each(b, [](std::int64_t& x) { x += 1; }).has_value());
    REQUIRE(dtl::transform(a, b, c, [](std::int64_t x, std::int64_t y) { return 2 * x - y; }).has_value());
    std::vector<std::int64_t> want(block.size());
    for (std::size_t i = 0; i < block.size(); ++i) want[i] = 2 * block[i] - 6;
    check_same(c.copy_to_host().value(), want, "transform");
    const auto filled = b.copy_to_host().value();
    for (const std::int64_t x : filled) CHECK(x == 6);
    std::size_t ghosts = 0;
    for (const std::int64_t x : allocation(b)) ghosts += x == 0 ? 1 : 0;
    CHECK(ghosts == dec.padded_size(rank) - block.size());  // fill and for_each left the ghosts T{}
    REQUIRE(dtl::transform(dtl::par{}, c, b, [](std::int64_t x) { return (x + 6) / 2; }).has_value());
    REQUIRE(dtl::copy(b, a).has_value());
    check_same(a.copy_to_host().value(), block, "copy");
    // The reductions, over every rank's block: value_at of every global index.
    std::uint64_t sum = 0, squares = 0;  // unsigned: wrapping is defined (the values stay small)
    for (std::size_t g = 0; g < dtl::extents_size(dec.global_extents()); ++g) {
      const std::int64_t v = value_at<N>(
          dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(g), dec.global_extents()), dec.global_extents());
      sum += static_cast<std::uint64_t>(v);
      squares += static_cast<std::uint64_t>(v) * static_cast<std::uint64_t>(v);
    }
    CHECK(dtl::reduce(a) == static_cast<std::int64_t>(sum));
    CHECK(dtl::reduce(dtl::par{}, a, std::int64_t{1}, std::plus<>{}) == static_cast<std::int64_t>(sum) + 1);
    CHECK(dtl::try_reduce(a, std::int64_t{0}).value() == static_cast<std::int64_t>(sum));
    CHECK(dtl::transform_reduce(a, std::int64_t{0}, std::plus<>{}, [](std::int64_t x) { return x * x; }) ==
          static_cast<std::int64_t>(squares));
    CHECK(dtl::dot(a, b) == static_cast<std::int64_t>(squares));
    CHECK(dtl::try_dot(a, b).value() == static_cast<std::int64_t>(squares));
    // Mismatched tensors: invalid_argument on every rank.
    tensor<N> wider(dtl::grid_decomposition<N>(
                        dec.grid(),
                        [&] {
                          auto e = dec.global_extents();
                          e[0] += 1;
                          return e;
                        }(),
                        {}, dec.shape()),
                    ctx);
    CHECK(dtl::copy(a, wider).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::try_dot(a, wider).error().code() == dtl::status_code::invalid_argument);
  }

  // The reverse exchange.
  load(t, reduce_input(dec, rank));
  REQUIRE(t.halo().reduce(dtl::reduce_op::sum).has_value());
  check_same(allocation(t), after_reduce(dec, rank), "reduce");

  // gather: the global array, row-major, on the root.
  load(t, owned_values(dec, rank, 0));
  const int root = ctx.size() - 1;
  const auto all = t.gather(root);
  REQUIRE(all.has_value());
  if (rank == root) {
    REQUIRE(all->size() == dtl::extents_size(dec.global_extents()));
    for (std::size_t i = 0; i < all->size(); ++i)
      CHECK((*all)[i] == value_at<N>(dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(i), dec.global_extents()),
                                     dec.global_extents()));
  } else {
    CHECK(all->empty());
  }
}

template <std::size_t N>
void all_variants(const dtl::context& ctx, const ext<N>& global, const std::array<int, N>& grid_extents) {
  for_each_variant<N>(ctx.size(), global, grid_extents,
                      [&](const dtl::grid_decomposition<N>& dec) { tensor_checks<N>(ctx, dec); });
}

}  // namespace

TEST_SUITE("mpi.grid_tensor") {
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

  TEST_CASE("a process grid of another rank count: invalid_argument on every rank") {
    const dtl::context ctx = test_support::world();
    const dtl::grid_decomposition<2> wrong(dtl::process_grid<2>(ctx.size() + 1), {16, 16}, {1, 1});
    const auto made = tensor<2>::create(wrong, ctx);
    REQUIRE_FALSE(made.has_value());
    CHECK(made.error().code() == dtl::status_code::invalid_argument);
    CHECK_THROWS_AS(tensor<2>(wrong, ctx), dtl::status_error);
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("distributed_vector::create_with_sizes: sizes that differ between ranks, or not one per rank") {
    const dtl::context ctx = test_support::world();
    std::vector<std::size_t> sizes(static_cast<std::size_t>(ctx.size()), 3);
    const auto made = dtl::distributed_vector<int>::create_with_sizes(sizes, ctx);
    REQUIRE(made.has_value());
    CHECK(made->local_size() == 3);
    CHECK(made->global_size() == 3 * sizes.size());
    std::vector<std::size_t> mine = sizes;
    if (ctx.rank() == 0) mine[0] = 4;  // rank 0 alone asks for another layout
    const auto differ = dtl::distributed_vector<int>::create_with_sizes(mine, ctx);
    if (ctx.size() > 1) {
      REQUIRE_FALSE(differ.has_value());
      CHECK(differ.error().code() == dtl::status_code::invalid_argument);
    }
    std::vector<std::size_t> short_list(sizes.size() + 1, 1);
    const auto wrong_count = dtl::distributed_vector<int>::create_with_sizes(short_list, ctx);
    REQUIRE_FALSE(wrong_count.has_value());
    CHECK(wrong_count.error().code() == dtl::status_code::invalid_argument);
    std::vector<std::size_t> huge(sizes.size(), std::numeric_limits<std::size_t>::max() / 2 + 1);
    const auto overflow = dtl::distributed_vector<int>::create_with_sizes(huge, ctx);
    CHECK_FALSE(overflow.has_value());
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("stencil_transform: one tensor as in and out, other extents or grids, a box past the block") {
    const dtl::context ctx = test_support::world();
    const dtl::process_grid<2> grid(ctx.size(), {}, {true, true});
    const dtl::grid_decomposition<2> dec(grid, {8, 9}, {1, 1});
    tensor<2> a(dec, ctx), b(dec, ctx);
    tensor<2> other(dtl::grid_decomposition<2>(grid, {8, 10}, {1, 1}), ctx);
    auto op = [](dtl::stencil_accessor<const std::int64_t, 2> s) { return s(0, 0); };
    CHECK(dtl::stencil_transform(a, a, op).error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::stencil_transform(a, other, op).error().code() == dtl::status_code::invalid_argument);
    dtl::nd_box<2> past{{}, a.local_extents()};
    past.extents[1] += 1;
    CHECK(dtl::stencil_transform(a, b, op, past).error().code() == dtl::status_code::out_of_range);
    dtl::nd_box<2> wrapping{{1, 0}, a.local_extents()};  // offset + extents wraps past SIZE_MAX to 0
    wrapping.extents[0] = std::numeric_limits<std::size_t>::max();
    CHECK(dtl::stencil_transform(a, b, op, wrapping).error().code() == dtl::status_code::out_of_range);
    // The owned block from the host: a count other than its size is refused, and nothing is written.
    std::vector<std::int64_t> ones(a.local_size() + 1, 1);
    CHECK(a.copy_from_host(ones.data(), ones.size()).error().code() == dtl::status_code::extent_mismatch);
    CHECK(a.copy_from_host(ones.data(), std::numeric_limits<std::size_t>::max()).error().code() ==
          dtl::status_code::extent_mismatch);
    const auto untouched = a.copy_to_host().value();
    for (const std::int64_t x : untouched) CHECK(x == 0);
    CHECK(dtl::try_stencil_transform(a, b, op).has_value());
  }
}
