// SPDX-License-Identifier: MIT
// Halo exchange, reduce and stencil_transform on device placements, against the serial reference:
// 1 rank (a periodic halo is its own neighbour: device copies, or RCCL/NCCL self send/recv with
// DTL_COLLECTIVES=nccl) and 2 ranks sharing a GPU (the MPI paths). A .hip file: the stencils are
// device lambdas.
#include "halo_reference.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace halo_reference;
using vec = dtl::distributed_vector<double, dtl::device_only_runtime>;

// Raw copies of the ghosts: after the fence, since an exchange returns once it is enqueued.
std::vector<double> with_ghosts(const vec& v) {
  REQUIRE(v.synchronize().has_value());
  std::vector<double> all(v.local_size_with_ghosts());
  if (!all.empty())
    REQUIRE(dtl::hip::hip_memory_transfer::copy(all.data(), v.local_data_with_ghosts(), all.size() * sizeof(double),
                                                dtl::transfer_kind::device_to_host)
                .has_value());
  return all;
}

void set_with_ghosts(vec& v, const std::vector<double>& all) {
  REQUIRE(v.synchronize().has_value());
  if (!all.empty())
    REQUIRE(dtl::hip::hip_memory_transfer::copy(v.local_data_with_ghosts(), all.data(), all.size() * sizeof(double),
                                                dtl::transfer_kind::host_to_device)
                .has_value());
}

void fill_owned(vec& v) {
  std::vector<double> mine(v.local_size());
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = value_of(v.global_offset() + i);
  REQUIRE(v.copy_from_host(mine.data(), mine.size()).has_value());
}

void check_ghosts(const vec& v) {
  if (v.local_size() == 0) return;
  const dtl::halo h = v.halo().spec();
  const std::size_t n = v.global_size(), b = v.global_offset(), e = b + v.local_size();
  const std::vector<double> all = with_ghosts(v);
  for (std::size_t j = 0; j < h.prev; ++j) {
    const std::size_t k = prev_source(b, h.prev, j, n, h.periodic);
    CHECK(all[j] == (k == npos ? 0.0 : value_of(k)));
  }
  for (std::size_t j = 0; j < h.next; ++j) {
    const std::size_t k = next_source(e, j, n, h.periodic);
    CHECK(all[h.prev + v.local_size() + j] == (k == npos ? 0.0 : value_of(k)));
  }
}

}  // namespace

TEST_SUITE("gpu.halo") {
  TEST_CASE("exchange: blocking, split and on a stream") {
    const auto ctx = test_support::world();
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
            .value();
    for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000003}})
      for (std::size_t w = 1; w <= 3; ++w)
        for (const bool periodic : {false, true}) {
          CAPTURE(n);
          CAPTURE(w);
          CAPTURE(periodic);
          const dtl::halo h{.prev = w, .next = w == 3 ? 1 : w, .periodic = periodic};
          auto made = vec::create(n, ctx, h);
          if (breaks_width_rule(dtl::block_partition<>::create(n, ctx.size()).value(), h)) {
            REQUIRE_FALSE(made.has_value());
            CHECK(made.error().code() == dtl::status_code::invalid_argument);
            continue;
          }
          REQUIRE(made.has_value());
          vec v = std::move(made).value();
          if (ctx.rank() == 0 && n == 7 && w == 1 && periodic) std::printf("halo path: %s\n", v.halo().path());
          fill_owned(v);
          REQUIRE(v.halo().exchange().has_value());
          check_ghosts(v);
          set_with_ghosts(v, std::vector<double>(v.local_size_with_ghosts(), 0.0));
          fill_owned(v);
          REQUIRE(v.halo().exchange_begin().has_value());
          REQUIRE(v.halo().exchange_end().has_value());
          check_ghosts(v);
          set_with_ghosts(v, std::vector<double>(v.local_size_with_ghosts(), 0.0));
          fill_owned(v);
          REQUIRE(v.halo()
                      .exchange(dtl::hip::stream_ref(stream.native_handle()))
                      .get_result(std::chrono::seconds(60))
                      .has_value());
          check_ghosts(v);
        }
  }

  TEST_CASE("reduce adds the ghosts into their owners") {
    const auto ctx = test_support::world();
    for (const bool periodic : {false, true}) {
      const std::size_t n = 9;
      const dtl::halo h{.prev = 2, .next = 1, .periodic = periodic};
      const auto part = dtl::block_partition<>::create(n, ctx.size()).value();
      vec v(n, ctx, h);
      fill_owned(v);
      std::vector<double> expected(n);
      for (std::size_t k = 0; k < n; ++k) expected[k] = value_of(k);
      for (int r = 0; r < ctx.size(); ++r) {
        const auto range = part.local_range(r).value();
        if (range.size() == 0) continue;  // an empty block has no ghosts
        for (std::size_t j = 0; j < h.prev; ++j)
          if (const auto k = prev_source(range.begin, h.prev, j, n, periodic); k != npos) expected[k] += 10.0 * (r + 1);
        for (std::size_t j = 0; j < h.next; ++j)
          if (const auto k = next_source(range.end, j, n, periodic); k != npos) expected[k] += 10.0 * (r + 1);
      }
      if (v.local_size() != 0) {
        std::vector<double> all = with_ghosts(v);
        for (std::size_t j = 0; j < h.prev; ++j) all[j] = 10.0 * (ctx.rank() + 1);
        for (std::size_t j = 0; j < h.next; ++j) all[h.prev + v.local_size() + j] = 10.0 * (ctx.rank() + 1);
        set_with_ghosts(v, all);
      }
      REQUIRE(v.halo().reduce(dtl::reduce_op::sum).has_value());
      const auto mine = v.copy_to_host().value();
      for (std::size_t i = 0; i < mine.size(); ++i) CHECK(mine[i] == expected[v.global_offset() + i]);
    }
  }

  TEST_CASE("stencil_transform of rows, every policy, the interior while the halo is in flight") {
    const auto ctx = test_support::world();
    const std::size_t g = 64, rows = 37;
    vec u(rows * g, ctx, dtl::halo{.prev = g, .next = g, .granularity = g});
    const auto w = static_cast<std::ptrdiff_t>(u.halo().granularity());  // captured by the device lambda
    vec out(rows * g, ctx, dtl::halo{.granularity = g});
    fill_owned(u);
    auto op = [w] __host__ __device__(const double* p) { return p[-w] + p[w] - 2 * p[0]; };
    auto reference = [&](std::size_t k) {
      const double up = k >= g ? value_of(k - g) : 0.0;
      const double down = k + g < rows * g ? value_of(k + g) : 0.0;
      return up + down - 2 * value_of(k);
    };
    auto check_out = [&]() {
      const auto mine = out.copy_to_host().value();
      for (std::size_t i = 0; i < mine.size(); ++i) CHECK(mine[i] == reference(out.global_offset() + i));
      REQUIRE(dtl::fill(out, -1.0).has_value());
    };
    REQUIRE(u.halo().exchange().has_value());
    REQUIRE(dtl::stencil_transform(u, out, op).has_value());
    check_out();
    REQUIRE(dtl::stencil_transform(dtl::async{}, u, out, op).get_result(std::chrono::seconds(60)).has_value());
    check_out();
    // Overlap: the interior rows on the context's stream while the edge rows travel, then the edges.
    const std::size_t m = u.local_size();
    REQUIRE(u.halo().exchange_begin().has_value());
    if (m > 2 * g) REQUIRE(dtl::stencil_transform(dtl::par{}, u, out, op, dtl::index_range{g, m - g}).has_value());
    REQUIRE(u.halo().exchange_end().has_value());
    if (m >= g) REQUIRE(dtl::stencil_transform(u, out, op, dtl::index_range{0, g}).has_value());
    if (m >= 2 * g) REQUIRE(dtl::stencil_transform(u, out, op, dtl::index_range{m - g, m}).has_value());
    check_out();
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::high, ctx.device())
            .value();
    REQUIRE(
        dtl::stencil_transform(dtl::on_stream(dtl::hip::stream_ref(stream.native_handle())), u, out, op).has_value());
    REQUIRE(stream.synchronize().has_value());
    check_out();
  }
}
