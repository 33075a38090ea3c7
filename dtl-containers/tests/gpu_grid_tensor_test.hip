// SPDX-License-Identifier: MIT
// dtl::grid_tensor on device placements (device_only_runtime, device_only<0>, unified_memory), on 1 rank and
// on 2 sharing a GPU: the halo exchange (one box-copy kernel on the device, MPI between ranks; blocking,
// begin/end and on the caller's stream), its reverse,
// stencil_transform's kernel over the owned block and over a box, gather and the host copies; N = 1 to 3,
// uneven blocks, every periodicity, widths 1 and 2, star and box, every element of the allocation against
// the serial reference (grid_reference.hpp). Compiled by dtl-hip-kc (the stencil's kernel is the caller's).
#include "grid_reference.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms/inner_product.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/stencil.hpp>
#include <dtl/containers/grid_tensor.hpp>

#include <hip/hip_runtime.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

namespace {

using namespace grid_reference;

/// The whole allocation (ghosts included), read after the device's work on it.
template <class Tensor>
std::vector<std::int64_t> allocation(const Tensor& t) {
  REQUIRE(t.synchronize().has_value());
  std::vector<std::int64_t> out(t.local_size_with_ghosts());
  if (!out.empty())
    REQUIRE(hipMemcpy(out.data(), t.data_with_ghosts(), out.size() * sizeof(std::int64_t), hipMemcpyDefault) ==
            hipSuccess);
  return out;
}
template <class Tensor>
void load(Tensor& t, const std::vector<std::int64_t>& padded) {
  REQUIRE(t.synchronize().has_value());
  REQUIRE(padded.size() == t.local_size_with_ghosts());
  if (!padded.empty())
    REQUIRE(hipMemcpy(t.data_with_ghosts(), padded.data(), padded.size() * sizeof(std::int64_t), hipMemcpyDefault) ==
            hipSuccess);
  // A copy from pageable memory may return before its DMA lands (CUDA's rule): the calls after it run on
  // other streams, so the device finishes it first.
  REQUIRE(hipDeviceSynchronize() == hipSuccess);
}

template <class P, std::size_t N>
void tensor_checks(const dtl::context& ctx, const dtl::grid_decomposition<N>& dec) {
  using tensor = dtl::grid_tensor<std::int64_t, N, P>;
  const int rank = ctx.rank();
  tensor t(dec, ctx);
  CHECK(allocation(t) == std::vector<std::int64_t>(dec.padded_size(rank), 0));

  // The owned elements from the host, then exchanges (twice: the plan is reused).
  const auto block = owned_block(dec, rank);
  REQUIRE(t.copy_from_host(block.data(), block.size()).has_value());
  CHECK(t.copy_to_host().value() == block);
  REQUIRE(t.halo().exchange().has_value());
  REQUIRE(t.halo().exchange().has_value());
  check_same(allocation(t), after_exchange(dec, rank, 0), "exchange");
  REQUIRE(t.halo().exchange_begin().has_value());
  REQUIRE(t.halo().exchange_end().has_value());
  check_same(allocation(t), after_exchange(dec, rank, 0), "exchange");
  // The stream form, on a stream of the caller's, over ghosts reset to -1: the future's wait, then the same
  // ghosts (those past a closed edge keep the -1).
  load(t, owned_values(dec, rank, -1));
  {
    hipStream_t stream = nullptr;
    REQUIRE(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) == hipSuccess);
    REQUIRE(t.halo().exchange(dtl::hip::stream_ref(stream)).get_result(std::chrono::seconds(60)).has_value());
    REQUIRE(hipStreamSynchronize(stream) == hipSuccess);
    check_same(allocation(t), after_exchange(dec, rank, -1), "exchange on a stream");
    REQUIRE(hipStreamDestroy(stream) == hipSuccess);
  }
  load(t, owned_values(dec, rank, 0));
  REQUIRE(t.halo().exchange().has_value());

  // The stencil's kernel over the owned block into a tensor without a halo, and over the upper half.
  const auto op = weighted_stencil<N>::of(dec.halo_width(), dec.shape());
  REQUIRE(op.fits);
  const dtl::grid_decomposition<N> plain(dec.grid(), dec.global_extents(), {}, dec.shape());
  tensor out(plain, ctx), part(plain, ctx);
  REQUIRE(dtl::stencil_transform(t, out, op).has_value());
  const auto expected_padded = after_stencil(dec, rank, 0);
  std::vector<std::int64_t> expected;
  for (std::size_t linear = 0; linear < expected_padded.size(); ++linear)
    if (classify(dec, rank, linear).kind == cell_kind::owned) expected.push_back(expected_padded[linear]);
  check_same(out.copy_to_host().value(), expected, "stencil");
  if (t.local_size() != 0) {
    dtl::nd_box<N> box{{}, t.local_extents()};
    box.offset[0] = box.extents[0] / 2;
    box.extents[0] -= box.offset[0];
    REQUIRE(dtl::stencil_transform(dtl::par{}, t, part, op, box).has_value());
    const auto some = part.copy_to_host().value();
    const std::size_t row = t.local_size() / t.local_extents()[0];
    for (std::size_t i = 0; i < expected.size(); ++i) CHECK(some[i] == (i / row >= box.offset[0] ? expected[i] : 0));
  }

  // The element-wise algorithms over the owned elements (kernels over the block; the ghosts untouched).
  {
    tensor a(dec, ctx), b(dec, ctx), c(plain, ctx);
    REQUIRE(a.copy_from_host(block.data(), block.size()).has_value());
    REQUIRE(dtl::fill(b, 5).has_value());
    REQUIRE(dtl::for_each(b, [] __device__(std::int64_t & x) { x += 1; }).has_value());
    REQUIRE(dtl::transform(a, b, c, [] __device__(std::int64_t x, std::int64_t y) { return 2 * x - y; }).has_value());
    std::vector<std::int64_t> want(block.size());
    for (std::size_t i = 0; i < block.size(); ++i) want[i] = 2 * block[i] - 6;
    check_same(c.copy_to_host().value(), want, "transform");
    std::size_t ghosts = 0;
    for (const std::int64_t x : allocation(b)) ghosts += x == 0 ? 1 : 0;
    CHECK(ghosts == dec.padded_size(rank) - block.size());
    REQUIRE(dtl::transform(dtl::par{}, c, b, [] __device__(std::int64_t x) { return (x + 6) / 2; }).has_value());
    REQUIRE(dtl::copy(b, a).has_value());
    check_same(a.copy_to_host().value(), block, "copy");
    std::uint64_t sum = 0, squares = 0;  // unsigned: wrapping is defined (the values stay small)
    for (std::size_t g = 0; g < dtl::extents_size(dec.global_extents()); ++g) {
      const std::int64_t v = value_at<N>(
          dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(g), dec.global_extents()), dec.global_extents());
      sum += static_cast<std::uint64_t>(v);
      squares += static_cast<std::uint64_t>(v) * static_cast<std::uint64_t>(v);
    }
    CHECK(dtl::reduce(a) == static_cast<std::int64_t>(sum));
    CHECK(dtl::try_reduce(a, std::int64_t{1}).value() == static_cast<std::int64_t>(sum) + 1);
    CHECK(dtl::transform_reduce(a, std::int64_t{0}, std::plus<>{}, [] __device__(std::int64_t x) { return x * x; }) ==
          static_cast<std::int64_t>(squares));
    CHECK(dtl::dot(a, b) == static_cast<std::int64_t>(squares));
  }

  // The reverse exchange (through the host on device memory).
  load(t, reduce_input(dec, rank));
  REQUIRE(t.halo().reduce(dtl::reduce_op::sum).has_value());
  check_same(allocation(t), after_reduce(dec, rank), "reduce");

  // gather.
  load(t, owned_values(dec, rank, 0));
  const auto all = t.gather(0);
  REQUIRE(all.has_value());
  if (rank == 0)
    for (std::size_t i = 0; i < all->size(); ++i)
      CHECK((*all)[i] == value_at<N>(dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(i), dec.global_extents()),
                                     dec.global_extents()));
}

template <class P, std::size_t N>
void all_variants(const dtl::context& ctx, const ext<N>& global) {
  std::array<int, N> fitted{};
  for_each_variant<N>(ctx.size(), global, fitted,
                      [&](const dtl::grid_decomposition<N>& dec) { tensor_checks<P, N>(ctx, dec); });
}

template <class P>
void placement_checks(const dtl::context& ctx) {
  all_variants<P, 1>(ctx, {11});
  all_variants<P, 2>(ctx, {9, 7});
  all_variants<P, 3>(ctx, {7, 6, 5});
}

}  // namespace

TEST_SUITE("gpu.grid_tensor") {
  TEST_CASE("device_only_runtime") { placement_checks<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("device_only<0>") {
    const dtl::context ctx = test_support::world();
    all_variants<dtl::device_only<0>, 3>(ctx, {9, 8, 7});
  }
  TEST_CASE("the stencil's two kernels: rows of 1024 cells or more, and many short rows") {
    // Rows of at least 1024 cells take the rows kernel, 4 cells a thread (the last block's tail partly idle);
    // short rows the grid-stride kernel over the cells. Periodic in some dimensions, star and box, width 1.
    const dtl::context ctx = test_support::world();
    const dtl::grid_decomposition<2> wide(dtl::process_grid<2>(ctx.size(), {}, {false, true}), {5, 2500}, {1, 1},
                                          dtl::stencil_shape::box);
    tensor_checks<dtl::device_only_runtime, 2>(ctx, wide);
    const dtl::grid_decomposition<3> many(dtl::process_grid<3>(ctx.size(), {}, {true, false, true}), {600, 230, 3},
                                          {1, 1, 1}, dtl::stencil_shape::star);
    tensor_checks<dtl::device_only_runtime, 3>(ctx, many);
  }
  TEST_CASE("unified_memory") {
    const dtl::context ctx = test_support::world();
    all_variants<dtl::unified_memory, 2>(ctx, {9, 7});
  }
  TEST_CASE("a rank that is its own neighbour in every dimension: one kernel, nothing through the host") {
    const dtl::context ctx = test_support::world();
    const dtl::process_grid<3> grid(ctx.size(), {}, {true, true, true});
    const dtl::grid_decomposition<3> dec(grid, {32, 16, 8}, {1, 1, 1});
    dtl::grid_tensor<float, 3, dtl::device_only_runtime> t(dec, ctx);
    for (int step = 0; step < 50; ++step) REQUIRE(t.halo().exchange().has_value());
    CHECK(t.synchronize().has_value());
  }
}
