// SPDX-License-Identifier: MIT
// Halo exchange and stencil_transform on host placements, against a serial reference: 1 rank (unit
// suite, a CPU context), and 1, 2 and 3 MPI ranks (suite mpi). Sizes that do not divide evenly, ranks
// with empty blocks, periodic or not, widths 1..3, a granularity > 1.
#include "halo_reference.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace {

using namespace halo_reference;
using vec = dtl::distributed_vector<double>;

void fill_owned(vec& v) {
  for (std::size_t i = 0; i < v.local_size(); ++i) v.local_data()[i] = value_of(v.global_offset() + i);
}

/// Checks every ghost of this rank against the reference; ghosts facing no neighbour must hold `boundary`.
void check_ghosts(const vec& v, double boundary) {
  const dtl::halo h = v.halo().spec();
  const std::size_t n = v.global_size(), b = v.global_offset(), e = b + v.local_size();
  if (v.local_size() == 0) {
    CHECK(v.local_size_with_ghosts() == 0);
    return;
  }
  const double* all = v.local_data_with_ghosts();
  for (std::size_t j = 0; j < h.prev; ++j) {
    const std::size_t k = prev_source(b, h.prev, j, n, h.periodic);
    CHECK(all[j] == (k == npos ? boundary : value_of(k)));
  }
  for (std::size_t j = 0; j < h.next; ++j) {
    const std::size_t k = next_source(e, j, n, h.periodic);
    CHECK(all[h.prev + v.local_size() + j] == (k == npos ? boundary : value_of(k)));
  }
}

void exchange_cases(const dtl::context& ctx) {
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{10}, std::size_t{13}})
    for (std::size_t prev = 0; prev <= 3; ++prev)
      for (std::size_t next = 0; next <= 3; ++next)
        for (const bool periodic : {false, true}) {
          CAPTURE(n);
          CAPTURE(prev);
          CAPTURE(next);
          CAPTURE(periodic);
          const dtl::halo h{.prev = prev, .next = next, .periodic = periodic};
          auto made = vec::create(n, ctx, h);
          const auto part = dtl::block_partition<>::create(n, ctx.size()).value();
          if (breaks_width_rule(part, h)) {
            REQUIRE_FALSE(made.has_value());
            CHECK(made.error().code() == dtl::status_code::invalid_argument);
            continue;
          }
          REQUIRE(made.has_value());
          vec v = std::move(made).value();
          CHECK(v.halo().prev() == prev);
          CHECK(v.halo().next() == next);
          CHECK(v.local_size_with_ghosts() == (v.local_size() == 0 ? 0 : prev + v.local_size() + next));
          fill_owned(v);
          if (v.local_size() != 0) {  // before any exchange every ghost is T{}
            const double* all = v.local_data_with_ghosts();
            for (std::size_t j = 0; j < prev; ++j) CHECK(all[j] == 0.0);
            for (std::size_t j = 0; j < next; ++j) CHECK(all[prev + v.local_size() + j] == 0.0);
          }
          REQUIRE(v.halo().exchange().has_value());
          check_ghosts(v, 0.0);
          // The split form, and upstream DTL's spelling, give the same ghosts; a boundary value set in an
          // outer ghost stays.
          if (v.local_size() != 0 && v.global_offset() == 0 && !periodic && prev > 0)
            v.local_data_with_ghosts()[0] = -1.0;
          REQUIRE(v.halo().exchange_begin().has_value());
          CHECK(v.halo().in_flight());
          REQUIRE(v.halo().exchange_end().has_value());
          CHECK_FALSE(v.halo().in_flight());
          REQUIRE(v.sync_halo().has_value());
          if (v.local_size() != 0 && v.global_offset() == 0 && !periodic && prev > 0) {
            CHECK(v.local_data_with_ghosts()[0] == -1.0);
            v.local_data_with_ghosts()[0] = 0.0;
          }
          check_ghosts(v, 0.0);
        }
}

/// 3-point stencil with zero boundary ghosts, against the serial result.
void stencil_cases(const dtl::context& ctx) {
  for (const std::size_t n : {std::size_t{5}, std::size_t{11}})
    for (const bool periodic : {false, true}) {
      CAPTURE(n);
      CAPTURE(periodic);
      vec u(n, ctx, dtl::halo{.prev = 1, .next = 1, .periodic = periodic});
      vec out(n, ctx);  // no halo: same partition
      fill_owned(u);
      REQUIRE(u.halo().exchange().has_value());
      auto op = [](const double* p) { return p[-1] - 2 * p[0] + 3 * p[1]; };
      REQUIRE(dtl::stencil_transform(u, out, op).has_value());
      auto at = [&](std::ptrdiff_t k) {
        const auto nn = static_cast<std::ptrdiff_t>(n);
        if (k < 0 || k >= nn) return periodic ? value_of(static_cast<std::size_t>((k + nn) % nn)) : 0.0;
        return value_of(static_cast<std::size_t>(k));
      };
      for (std::size_t i = 0; i < out.local_size(); ++i) {
        const auto k = static_cast<std::ptrdiff_t>(out.global_offset() + i);
        CHECK(out.local_data()[i] == at(k - 1) - 2 * at(k) + 3 * at(k + 1));
      }
      // par, and a range: the interior first, then the edges, as an overlapping caller does.
      vec out2(n, ctx);
      REQUIRE(u.halo().exchange_begin().has_value());
      const std::size_t m = out2.local_size();
      if (m >= 2) REQUIRE(dtl::stencil_transform(dtl::par{}, u, out2, op, dtl::index_range{1, m - 1}).has_value());
      REQUIRE(u.halo().exchange_end().has_value());
      if (m >= 1) REQUIRE(dtl::try_stencil_transform(dtl::seq{}, u, out2, op, dtl::index_range{0, 1}).has_value());
      if (m >= 2) REQUIRE(dtl::stencil_transform(u, out2, op, dtl::index_range{m - 1, m}).has_value());
      for (std::size_t i = 0; i < m; ++i) CHECK(out2.local_data()[i] == out.local_data()[i]);
      // Errors: one vector as in and out, a range past the block.
      auto same = dtl::stencil_transform(u, u, op);
      REQUIRE_FALSE(same.has_value());
      CHECK(same.error().code() == dtl::status_code::invalid_argument);
      auto past = dtl::stencil_transform(u, out, op, dtl::index_range{0, m + 1});
      REQUIRE_FALSE(past.has_value());
      CHECK(past.error().code() == dtl::status_code::out_of_range);
    }
}

/// Rows of a 2-D grid: granularity g, halos of whole rows, a 5-point stencil.
void granularity_cases(const dtl::context& ctx) {
  const std::size_t g = 4;
  for (const std::size_t rows : {std::size_t{3}, std::size_t{5}, std::size_t{8}})
    for (const std::size_t halo_rows : {std::size_t{1}, std::size_t{2}}) {
      CAPTURE(rows);
      CAPTURE(halo_rows);
      const dtl::halo h{.prev = halo_rows * g, .next = halo_rows * g, .periodic = false, .granularity = g};
      auto made = vec::create(rows * g, ctx, h);
      const auto row_part = dtl::block_partition<>::create(rows * g, ctx.size(), g).value();
      if (breaks_width_rule(row_part, h)) {
        REQUIRE_FALSE(made.has_value());
        CHECK(made.error().code() == dtl::status_code::invalid_argument);
        continue;
      }
      REQUIRE(made.has_value());
      vec v = std::move(made).value();
      CHECK(v.local_size() % g == 0);
      CHECK(v.global_offset() % g == 0);
      CHECK(v.local_range() == row_part.local_range(ctx.rank()).value());
      fill_owned(v);
      REQUIRE(v.halo().exchange().has_value());
      check_ghosts(v, 0.0);
      vec out(rows * g, ctx, dtl::halo{.granularity = g});
      const auto w = static_cast<std::ptrdiff_t>(g);
      REQUIRE(dtl::stencil_transform(v, out, [w](const double* p) { return p[-w] + p[w] + p[0]; }).has_value());
      for (std::size_t i = 0; i < out.local_size(); ++i) {
        const std::size_t k = out.global_offset() + i;
        const double up = k >= g ? value_of(k - g) : 0.0;
        const double down = k + g < rows * g ? value_of(k + g) : 0.0;
        CHECK(out.local_data()[i] == up + down + value_of(k));
      }
    }
}

/// reduce(op): every ghost travels back to the element it copies.
void reduce_cases(const dtl::context& ctx) {
  for (const std::size_t n : {std::size_t{4}, std::size_t{9}})
    for (const bool periodic : {false, true})
      for (const dtl::reduce_op op : {dtl::reduce_op::sum, dtl::reduce_op::max}) {
        CAPTURE(n);
        CAPTURE(periodic);
        const dtl::halo h{.prev = 1, .next = 2, .periodic = periodic};
        const auto part = dtl::block_partition<>::create(n, ctx.size()).value();
        if (breaks_width_rule(part, h)) continue;
        vec v(n, ctx, h);
        fill_owned(v);
        auto ghost_value = [](int rank, std::size_t slot) { return 100.0 * (rank + 1) + static_cast<double>(slot); };
        // The reference: owned values combined with every ghost of every rank that copies them.
        std::vector<double> expected(n);
        for (std::size_t k = 0; k < n; ++k) expected[k] = value_of(k);
        auto combine = [op](double a, double b) { return op == dtl::reduce_op::sum ? a + b : (a < b ? b : a); };
        for (int r = 0; r < ctx.size(); ++r) {
          const auto range = part.local_range(r).value();
          if (range.size() == 0) continue;
          for (std::size_t j = 0; j < h.prev; ++j)
            if (const auto k = prev_source(range.begin, h.prev, j, n, periodic); k != npos)
              expected[k] = combine(expected[k], ghost_value(r, j));
          for (std::size_t j = 0; j < h.next; ++j)
            if (const auto k = next_source(range.end, j, n, periodic); k != npos)
              expected[k] = combine(expected[k], ghost_value(r, h.prev + j));
        }
        if (v.local_size() != 0) {
          double* all = v.local_data_with_ghosts();
          for (std::size_t j = 0; j < h.prev; ++j) all[j] = ghost_value(ctx.rank(), j);
          for (std::size_t j = 0; j < h.next; ++j)
            all[h.prev + v.local_size() + j] = ghost_value(ctx.rank(), h.prev + j);
        }
        REQUIRE(v.halo().reduce(op).has_value());
        for (std::size_t i = 0; i < v.local_size(); ++i) CHECK(v.local_data()[i] == expected[v.global_offset() + i]);
      }
}

void error_cases(const dtl::context& ctx) {
  for (const dtl::halo h :
       {dtl::halo{.granularity = 0}, dtl::halo{.prev = 3, .granularity = 2}, dtl::halo{.next = 2, .granularity = 4}}) {
    auto made = vec::create(12 * 2 + 2, ctx, h);  // 26: not whole rows of 4
    REQUIRE_FALSE(made.has_value());
    CHECK(made.error().code() == dtl::status_code::invalid_argument);
  }
  CHECK_THROWS_AS(vec(ctx.size(), ctx, dtl::halo{.prev = 2, .next = 2, .periodic = true}), dtl::status_error);
  vec v(10, ctx, dtl::halo{.prev = 1, .next = 1});
  // The logical and bitwise reductions take integers: refused on these doubles, on every rank.
  const auto bitwise = v.halo().reduce(dtl::reduce_op::bor);
  REQUIRE_FALSE(bitwise.has_value());
  CHECK(bitwise.error().code() == dtl::status_code::invalid_argument);
  REQUIRE(v.halo().exchange_begin().has_value());
  auto twice = v.halo().exchange_begin();
  REQUIRE_FALSE(twice.has_value());
  CHECK(twice.error().code() == dtl::status_code::invalid_state);
  auto reducing = v.halo().reduce();
  REQUIRE_FALSE(reducing.has_value());
  CHECK(reducing.error().code() == dtl::status_code::invalid_state);
  REQUIRE(v.halo().exchange_end().has_value());
  auto unmatched = v.halo().exchange_end();
  REQUIRE_FALSE(unmatched.has_value());
  CHECK(unmatched.error().code() == dtl::status_code::invalid_state);
  // A vector without a halo exchanges nothing; a moved-from one says invalid_state.
  vec plain(10, ctx);
  CHECK(plain.halo().exchange().has_value());
  CHECK(std::string(plain.halo().path()) == "none");
  vec moved = std::move(v);
  CHECK(std::string(moved.halo().path()) == "host");
  CHECK(moved.halo().exchange().has_value());
  auto gone = v.halo().exchange();  // NOLINT(bugprone-use-after-move): what a moved-from vector says
  REQUIRE_FALSE(gone.has_value());
  CHECK(gone.error().code() == dtl::status_code::invalid_state);
  // A halo() made before a change of layout refers to the old plan: refused, and the new one works.
  const auto old_halo = moved.halo();
  REQUIRE(moved.resize(moved.global_size() + 2).has_value());
  for (const auto& stale :
       {old_halo.exchange(), old_halo.exchange_begin(), old_halo.exchange_end(), old_halo.reduce()}) {
    REQUIRE_FALSE(stale.has_value());
    CHECK(stale.error().code() == dtl::status_code::invalid_state);
  }
  CHECK_FALSE(old_halo.in_flight());
  CHECK(moved.halo().exchange().has_value());
  // clone() keeps the halo and the ghosts.
  fill_owned(moved);
  REQUIRE(moved.halo().exchange().has_value());
  vec copy = moved.clone().value();
  CHECK(copy.halo().prev() == 1);
  check_ghosts(copy, 0.0);
  REQUIRE(copy.halo().exchange().has_value());
  check_ghosts(copy, 0.0);
  CHECK(copy.local_view_with_ghosts().size() == copy.local_size_with_ghosts());
  CHECK(copy.local_view().size() == copy.local_size());
}

}  // namespace

TEST_SUITE("halo") {
  TEST_CASE("exchange on a CPU context") { exchange_cases(dtl::make_cpu_context()); }
  TEST_CASE("stencil_transform on a CPU context") { stencil_cases(dtl::make_cpu_context()); }
  TEST_CASE("granularity on a CPU context") { granularity_cases(dtl::make_cpu_context()); }
  TEST_CASE("reduce on a CPU context") { reduce_cases(dtl::make_cpu_context()); }
  TEST_CASE("errors on a CPU context") { error_cases(dtl::make_cpu_context()); }
}

TEST_SUITE("mpi.halo") {
  TEST_CASE("exchange") { exchange_cases(test_support::world()); }
  TEST_CASE("stencil_transform") { stencil_cases(test_support::world()); }
  TEST_CASE("granularity") { granularity_cases(test_support::world()); }
  TEST_CASE("reduce") { reduce_cases(test_support::world()); }
  TEST_CASE("errors") { error_cases(test_support::world()); }
}
