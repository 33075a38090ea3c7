// SPDX-License-Identifier: MIT
// Searches, extremes and inner products on host placements over 1, 2 and 3 ranks, against a serial
// reference of the whole vector: empty vectors, sizes the ranks do not divide, ranks without elements
// (n < ranks), matches on the first and last element and on a rank boundary, duplicates (the lowest
// global index wins), no match, user functions, and vectors of different layouts failing on every rank.
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/status_error.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <vector>

namespace {

const std::size_t sizes[] = {0, 1, 2, 3, 5, 7, 1000, 100003};

/// A vector whose element g is f(g), and the same values serially.
template <class T, class F>
dtl::distributed_vector<T> vector_of(const dtl::context& ctx, std::size_t n, F f, std::vector<T>& reference) {
  dtl::distributed_vector<T> v(n, ctx);
  for (std::size_t i = 0; i < v.local_size(); ++i) v.local_data()[i] = f(v.global_offset() + i);
  reference.resize(n);
  for (std::size_t g = 0; g < n; ++g) reference[g] = f(g);
  return v;
}

/// The rank whose block holds global index g.
template <class T>
int owner_of(const dtl::distributed_vector<T>& v, std::size_t g) {
  const int mine = v.local_range().contains(g) ? v.rank() : -1;
  return v.get_context().allreduce_value(mine, dtl::reduce_op::max).value();
}

/// find_result against the serial std::find_if.
template <class T, class It>
void check_found(const dtl::distributed_vector<T>& v, const std::vector<T>& ref, It it, const dtl::find_result<T>& r) {
  if (it == ref.end()) {
    CHECK_FALSE(r.found);
    CHECK_FALSE(static_cast<bool>(r));
    CHECK(r.owner_rank == -1);
    CHECK_FALSE(r.value.has_value());
    return;
  }
  const auto g = static_cast<std::size_t>(it - ref.begin());
  REQUIRE(r.found);
  CHECK(r.global_index == static_cast<std::ptrdiff_t>(g));
  CHECK(r.owner_rank == owner_of(v, g));
  REQUIRE(r.value.has_value());
  CHECK(*r.value == *it);
}

template <class T, class It>
void check_extreme(const dtl::distributed_vector<T>& v, const std::vector<T>& ref, It it,
                   const dtl::minmax_result<T>& r) {
  if (it == ref.end()) {
    CHECK_FALSE(r.valid);
    CHECK(r.owner_rank == -1);
    return;
  }
  const auto g = static_cast<std::size_t>(it - ref.begin());
  REQUIRE(r.valid);
  CHECK(r.global_index == static_cast<std::ptrdiff_t>(g));
  CHECK(r.owner_rank == owner_of(v, g));
  CHECK(r.value == *it);
}

/// The first global index of the last rank that has elements (a rank boundary when there are two).
template <class T>
std::size_t last_block_start(const dtl::distributed_vector<T>& v) {
  const std::uint64_t mine = v.local_size() > 0 ? v.global_offset() : 0;
  return static_cast<std::size_t>(v.get_context().allreduce_value(mine, dtl::reduce_op::max).value());
}

using test_support::failed_everywhere;

struct max_abs_difference {  // a user operator with no native collective
  double operator()(double a, double b) const { return std::max(a, b); }
};

}  // namespace

TEST_SUITE("mpi.search") {
  TEST_CASE_TEMPLATE("find, find_if, find_if_not: the first match in global order", Policy, dtl::seq, dtl::par) {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<int> ref;
      auto v = vector_of<int>(
          ctx, n, [](std::size_t g) { return static_cast<int>(g % 7); }, ref);
      for (const int target : {0, 3, 6, 7}) {  // 7: no match
        CAPTURE(target);
        check_found(v, ref, std::find(ref.begin(), ref.end(), target), dtl::find(Policy{}, v, target));
        auto r = dtl::try_find(Policy{}, v, target);
        REQUIRE(r.has_value());
        check_found(v, ref, std::find(ref.begin(), ref.end(), target), *r);
        auto above = [target](int x) { return x > target - 2; };
        check_found(v, ref, std::find_if(ref.begin(), ref.end(), above), dtl::find_if(Policy{}, v, above));
        check_found(v, ref, std::find_if_not(ref.begin(), ref.end(), above), dtl::find_if_not(Policy{}, v, above));
      }
    }
  }

  TEST_CASE_TEMPLATE("find: first element, last element, a rank boundary, duplicates", Policy, dtl::seq, dtl::par) {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      if (n == 0) continue;
      CAPTURE(n);
      std::vector<int> zeros, ref;
      auto v = vector_of<int>(
          ctx, n, [](std::size_t) { return 0; }, zeros);
      const std::size_t boundary = last_block_start(v);
      for (const std::size_t g : {std::size_t{0}, n - 1, boundary, boundary > 0 ? boundary - 1 : 0}) {
        CAPTURE(g);
        auto marked = vector_of<int>(
            ctx, n, [g](std::size_t i) { return i == g ? 1 : 0; }, ref);
        check_found(marked, ref, std::find(ref.begin(), ref.end(), 1), dtl::find(Policy{}, marked, 1));
      }
      // Two marks, on each side of the boundary: the lower one wins.
      auto both = vector_of<int>(
          ctx, n, [boundary, n](std::size_t i) { return i == boundary || i == n - 1 ? 1 : 0; }, ref);
      check_found(both, ref, std::find(ref.begin(), ref.end(), 1), dtl::find(Policy{}, both, 1));
      // Every element matches: index 0.
      check_found(v, zeros, zeros.begin(), dtl::find(Policy{}, v, 0));
    }
  }

  TEST_CASE_TEMPLATE("all_of, any_of, none_of", Policy, dtl::seq, dtl::par) {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<int> ref;
      auto v = vector_of<int>(
          ctx, n, [](std::size_t g) { return static_cast<int>(g % 5); }, ref);
      for (const int bound : {-1, 0, 3, 4, 5}) {
        auto below = [bound](int x) { return x < bound; };
        CHECK(dtl::all_of(Policy{}, v, below) == std::all_of(ref.begin(), ref.end(), below));
        CHECK(dtl::any_of(Policy{}, v, below) == std::any_of(ref.begin(), ref.end(), below));
        CHECK(dtl::none_of(Policy{}, v, below) == std::none_of(ref.begin(), ref.end(), below));
        CHECK(dtl::try_all_of(Policy{}, v, below).value() == std::all_of(ref.begin(), ref.end(), below));
        CHECK(dtl::try_any_of(v, below).value() == std::any_of(ref.begin(), ref.end(), below));
        CHECK(dtl::try_none_of(v, below).value() == std::none_of(ref.begin(), ref.end(), below));
      }
    }
  }

  TEST_CASE_TEMPLATE("min_element, max_element, minmax_element: lowest index on ties", Policy, dtl::seq, dtl::par) {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<double> ref;
      auto v = vector_of<double>(
          ctx, n, [](std::size_t g) { return static_cast<double>((g * 37) % 11) - 5.0; }, ref);
      check_extreme(v, ref, std::min_element(ref.begin(), ref.end()), dtl::min_element(Policy{}, v));
      check_extreme(v, ref, std::max_element(ref.begin(), ref.end()), dtl::max_element(Policy{}, v));
      auto by_magnitude = [](double a, double b) { return std::abs(a) < std::abs(b); };
      check_extreme(v, ref, std::min_element(ref.begin(), ref.end(), by_magnitude),
                    dtl::min_element(Policy{}, v, by_magnitude));
      check_extreme(v, ref, std::max_element(ref.begin(), ref.end(), by_magnitude),
                    dtl::try_max_element(Policy{}, v, by_magnitude).value());
      check_extreme(v, ref, std::min_element(ref.begin(), ref.end(), std::greater<>{}),
                    dtl::min_element(Policy{}, v, std::greater<>{}));
      const auto both = dtl::minmax_element(Policy{}, v);
      CHECK(static_cast<bool>(both) == (n > 0));
      check_extreme(v, ref, std::min_element(ref.begin(), ref.end()), both.min);
      check_extreme(v, ref, std::max_element(ref.begin(), ref.end()), both.max);  // the first largest
      const auto both_magnitude = dtl::try_minmax_element(Policy{}, v, by_magnitude).value();
      check_extreme(v, ref, std::min_element(ref.begin(), ref.end(), by_magnitude), both_magnitude.min);
      check_extreme(v, ref, std::max_element(ref.begin(), ref.end(), by_magnitude), both_magnitude.max);
    }
  }

  TEST_CASE_TEMPLATE("sum, product: every element from the identity; the value forms of min/max_element", Policy,
                     dtl::seq, dtl::par) {
    const auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<long long> ref;
      // A few 2s, then signs: the product stays exact at every size.
      auto v = vector_of<long long>(
          ctx, n, [](std::size_t g) { return g < 20 ? 2LL : (g % 3 == 0 ? -1LL : 1LL); }, ref);
      const long long ref_sum = std::accumulate(ref.begin(), ref.end(), 0LL);
      const long long ref_product = std::accumulate(ref.begin(), ref.end(), 1LL, std::multiplies<>{});
      CHECK(dtl::sum(Policy{}, v) == ref_sum);
      CHECK(dtl::product(Policy{}, v) == ref_product);  // 1 when empty, not 0
      CHECK(dtl::try_sum(Policy{}, v).value() == ref_sum);
      CHECK(dtl::try_product(Policy{}, v).value() == ref_product);
      CHECK(dtl::sum(Policy{}, v, comm) == ref_sum);
      CHECK(dtl::product(Policy{}, v, ctx) == ref_product);
      if (n == 0) {
        CHECK_FALSE(dtl::min_element(Policy{}, v) == 0LL);  // no element: equal to no value
        continue;
      }
      CHECK(dtl::min_element(Policy{}, v) == *std::min_element(ref.begin(), ref.end()));
      CHECK(dtl::max_element(Policy{}, v) == *std::max_element(ref.begin(), ref.end()));
      CHECK_FALSE(dtl::max_element(Policy{}, v) == *std::min_element(ref.begin(), ref.end()) - 1);
    }
    CHECK(dtl::sum(dtl::distributed_vector<double>(7, ctx)) == 0.0);
  }

  TEST_CASE_TEMPLATE("dot, inner_product, transform_reduce of two vectors", Policy, dtl::seq, dtl::par) {
    const auto ctx = test_support::world();
    for (const std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<std::int64_t> ia, ib;
      auto xa = vector_of<std::int64_t>(
          ctx, n, [](std::size_t g) { return static_cast<std::int64_t>(g % 13) - 6; }, ia);
      auto xb = vector_of<std::int64_t>(
          ctx, n, [](std::size_t g) { return static_cast<std::int64_t>(g % 5) + 1; }, ib);
      CHECK(dtl::dot(Policy{}, xa, xb) == std::inner_product(ia.begin(), ia.end(), ib.begin(), std::int64_t{0}));
      CHECK(dtl::try_inner_product(Policy{}, xa, xb, std::int64_t{100}).value() ==
            std::inner_product(ia.begin(), ia.end(), ib.begin(), std::int64_t{100}));

      std::vector<double> da, db;
      auto ya = vector_of<double>(
          ctx, n, [](std::size_t g) { return 0.25 * static_cast<double>(g % 17); }, da);
      auto yb = vector_of<double>(
          ctx, n, [](std::size_t g) { return 2.0 - 0.5 * static_cast<double>(g % 3); }, db);
      const double ref_dot = std::inner_product(da.begin(), da.end(), db.begin(), 0.0);
      // Exact: every product and partial sum is a multiple of 1/8 well below 2^53.
      CHECK(dtl::dot(Policy{}, ya, yb) == ref_dot);
      CHECK(dtl::try_dot(Policy{}, ya, yb).value() == ref_dot);
      auto difference = [](double a, double b) { return std::abs(a - b); };
      const double ref_max = std::inner_product(
          da.begin(), da.end(), db.begin(), -1.0, [](double a, double b) { return std::max(a, b); }, difference);
      // A native reduction (reduce_max: allreduce) and a user one (the allgather path).
      CHECK(dtl::inner_product(Policy{}, ya, yb, -1.0, dtl::reduce_max<double>{}, difference) == ref_max);
      CHECK(dtl::inner_product(Policy{}, ya, yb, -1.0, max_abs_difference{}, difference) == ref_max);
      CHECK(dtl::transform_reduce(Policy{}, ya, yb, 1.0, std::plus<>{}, std::multiplies<>{}) == 1.0 + ref_dot);
      CHECK(dtl::try_transform_reduce(Policy{}, xa, xb, std::int64_t{0}, std::plus<>{},
                                      [](std::int64_t a, std::int64_t b) { return a - b; })
                .value() == std::inner_product(ia.begin(), ia.end(), ib.begin(), std::int64_t{0}, std::plus<>{},
                                               [](std::int64_t a, std::int64_t b) { return a - b; }));
      // The one-vector transform_reduce is still itself.
      CHECK(dtl::transform_reduce(Policy{}, ya, 0.0, std::plus<>{}, [](double x) { return 2 * x; }) ==
            2 * std::accumulate(da.begin(), da.end(), 0.0));
    }
  }

#if DTL_CONTAINERS_HAS_HIP
  TEST_CASE("async on host placements: ready futures with the same answers") {
    const auto ctx = test_support::world();
    std::vector<int> ref;
    auto v = vector_of<int>(
        ctx, 1000, [](std::size_t g) { return static_cast<int>(g % 7); }, ref);
    const auto wait = std::chrono::seconds(30);
    check_found(v, ref, std::find(ref.begin(), ref.end(), 5), dtl::find(dtl::async{}, v, 5).get_result(wait).value());
    check_found(v, ref, std::find(ref.begin(), ref.end(), 5),
                dtl::try_find(dtl::async{}, v, 5).get_result(wait).value());
    CHECK(dtl::any_of(dtl::async{}, v, [](int x) { return x == 6; }).get_result(wait).value());
    check_extreme(v, ref, std::max_element(ref.begin(), ref.end()),
                  dtl::max_element(dtl::async{}, v).get_result(wait).value());
    CHECK(dtl::dot(dtl::async{}, v, v).get_result(wait).value() ==
          std::inner_product(ref.begin(), ref.end(), ref.begin(), 0));
  }
#endif

  TEST_CASE("vectors of different layouts: the same error on every rank") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<double> a(10, ctx), b(11, ctx);
    REQUIRE(dtl::fill(a, 1.0).has_value());
    REQUIRE(dtl::fill(b, 1.0).has_value());
    failed_everywhere(ctx, dtl::try_dot(a, b));
    failed_everywhere(ctx, dtl::try_inner_product(dtl::par{}, a, b, 0.0));
    failed_everywhere(ctx, dtl::try_transform_reduce(a, b, 0.0, std::plus<>{}, std::multiplies<>{}));
    CHECK(dtl::try_dot(a, b).error().code() == dtl::status_code::extent_mismatch);
    CHECK_THROWS_AS(static_cast<void>(dtl::dot(a, b)), dtl::status_error);
    // Another context (this rank alone): every rank refuses it.
    dtl::distributed_vector<double> c(10, dtl::make_cpu_context());
    failed_everywhere(ctx, dtl::try_dot(a, c));
    // The vectors still work.
    CHECK(dtl::dot(a, a) == 10.0);
  }
}
