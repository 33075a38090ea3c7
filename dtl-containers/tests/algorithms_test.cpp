// SPDX-License-Identifier: MIT
// Every host algorithm against a sequential reference, on one rank (the MPI tests cover several).
#include "doctest.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

const std::size_t sizes[] = {0, 1, 2, 3, 257, 100003};

template <class T>
std::vector<T> values_of(const dtl::distributed_vector<T>& v) {
  return std::vector<T>(v.local_view().begin(), v.local_view().end());
}

struct bit_or {  // associative and commutative, with no native collective
  std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a | b; }
};

struct functor_failure : std::runtime_error {  // what a user function throws
  using std::runtime_error::runtime_error;
};

}  // namespace

TEST_SUITE("algorithms") {
  TEST_CASE_TEMPLATE("fill, iota, for_each, transform, copy", Policy, dtl::seq, dtl::par) {
    const auto ctx = dtl::make_cpu_context();
    for (const std::size_t n : sizes) {
      dtl::distributed_vector<int> a(n, ctx), b(n, ctx);
      REQUIRE(dtl::fill(Policy{}, a, 3).has_value());
      CHECK(std::all_of(a.local_view().begin(), a.local_view().end(), [](int x) { return x == 3; }));
      REQUIRE(dtl::iota(Policy{}, a, 5).has_value());
      std::vector<int> ref(n);
      std::iota(ref.begin(), ref.end(), 5);
      CHECK(values_of(a) == ref);
      REQUIRE(dtl::for_each(Policy{}, a, [](int& x) { x *= 2; }).has_value());
      for (auto& x : ref) x *= 2;
      CHECK(values_of(a) == ref);
      REQUIRE(
          dtl::for_each_indexed(Policy{}, b, [](std::size_t i, int& x) { x = static_cast<int>(i % 11); }).has_value());
      REQUIRE(dtl::transform(Policy{}, a, b, a, [](int x, int y) { return x - y; }).has_value());
      for (std::size_t i = 0; i < n; ++i) ref[i] -= static_cast<int>(i % 11);
      CHECK(values_of(a) == ref);
      REQUIRE(dtl::transform(Policy{}, a, b, [](int x) { return x + 1; }).has_value());
      for (auto& x : ref) x += 1;
      CHECK(values_of(b) == ref);
      dtl::distributed_vector<int> c(n, ctx);
      const auto copied = dtl::copy(Policy{}, b, c);  // upstream's copy_result: this rank's elements
      REQUIRE(copied.has_value());
      CHECK(copied->count == c.local_size());
      CHECK(copied->success);
      CHECK(values_of(c) == ref);
    }
  }

  TEST_CASE_TEMPLATE("reductions", Policy, dtl::seq, dtl::par) {
    const auto ctx = dtl::make_cpu_context();
    for (const std::size_t n : sizes) {
      dtl::distributed_vector<std::int64_t> v(n, ctx);
      REQUIRE(dtl::iota(v, 1).has_value());
      const auto N = static_cast<std::int64_t>(n);
      CHECK(dtl::reduce(Policy{}, v, std::int64_t{10}) == 10 + N * (N + 1) / 2);
      CHECK(dtl::try_reduce(Policy{}, v, 0, std::plus<>{}).value() == N * (N + 1) / 2);
      CHECK(dtl::reduce(Policy{}, v, std::int64_t{1} << 40, dtl::reduce_min<std::int64_t>{}) ==
            (n == 0 ? std::int64_t{1} << 40 : 1));
      CHECK(dtl::reduce(Policy{}, v, 0, dtl::reduce_max<>{}) == N);
      CHECK(dtl::reduce(Policy{}, v, std::int64_t{0}, dtl::reduce_sum<>{}) ==
            N * (N + 1) / 2);  // upstream's name, native
      const auto r = dtl::distributed_reduce(Policy{}, v, 0, std::plus<>{});
      CHECK(r.has_global);
      CHECK(r.local_value == N * (N + 1) / 2);
      CHECK(r.global_value == N * (N + 1) / 2);
      const auto root = dtl::reduce_to_root(Policy{}, v, 0, std::plus<>{}, 0);
      CHECK(root.has_global);
      CHECK(root.value() == N * (N + 1) / 2);
      CHECK(dtl::local_reduce(Policy{}, v, 2) == 2 + N * (N + 1) / 2);
      CHECK(dtl::transform_reduce(Policy{}, v, 0.0, std::plus<>{}, [](std::int64_t x) {
              return 0.5 * static_cast<double>(x);
            }) == doctest::Approx(0.25 * static_cast<double>(N * (N + 1))));
      CHECK(dtl::count_if(Policy{}, v, [](std::int64_t x) { return x % 3 == 0; }) == n / 3);
      CHECK(dtl::count(Policy{}, v, 2) == (n >= 2 ? 1u : 0u));
      // An operator without a native collective (combined after an allgather).
      dtl::distributed_vector<std::uint32_t> bits(n, ctx);
      REQUIRE(dtl::for_each_indexed(bits, [](std::size_t i, std::uint32_t& x) { x = 1u << (i % 17); }).has_value());
      CHECK(dtl::reduce(Policy{}, bits, std::uint32_t{1u << 30}, bit_or{}) ==
            ((1u << 30) | (n >= 17 ? 0x1FFFFu : (1u << n) - 1u)));
    }
  }

  TEST_CASE("scans, in place and not") {
    const auto ctx = dtl::make_cpu_context();
    for (const std::size_t n : sizes) {
      dtl::distributed_vector<std::int64_t> in(n, ctx), out(n, ctx);
      REQUIRE(dtl::iota(in, 1).has_value());
      std::vector<std::int64_t> x = values_of(in), inc(n), exc(n);
      std::inclusive_scan(x.begin(), x.end(), inc.begin(), std::plus<>{}, std::int64_t{7});
      std::exclusive_scan(x.begin(), x.end(), exc.begin(), std::int64_t{7});
      REQUIRE(dtl::inclusive_scan(in, out, 7).has_value());
      CHECK(values_of(out) == inc);
      REQUIRE(dtl::exclusive_scan(in, out, 7).has_value());
      CHECK(values_of(out) == exc);
      REQUIRE(dtl::inclusive_scan(dtl::par{}, in, in, 7, std::plus<>{}).has_value());  // in place
      CHECK(values_of(in) == inc);
    }
  }

  TEST_CASE("upstream's scans over a communicator: the vectors' own, else invalid_argument") {
    const auto ctx = dtl::make_cpu_context();
    const auto other = dtl::make_cpu_context();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    auto& wrong = other.get<dtl::mpi_domain>().communicator();
    dtl::distributed_vector<int> in(5, 1, ctx), out(5, ctx);
    REQUIRE(dtl::inclusive_scan(dtl::seq{}, in, out, 0, std::plus<>{}, comm).has_value());
    CHECK(values_of(out) == std::vector<int>{1, 2, 3, 4, 5});
    REQUIRE(dtl::exclusive_scan(dtl::seq{}, in, out, 10, std::plus<>{}, comm).has_value());
    CHECK(values_of(out) == std::vector<int>{10, 11, 12, 13, 14});
    const auto square = [](int x) { return 3 * x; };
    REQUIRE(dtl::transform_inclusive_scan(dtl::seq{}, in, out, 0, std::plus<>{}, square, comm).has_value());
    CHECK(values_of(out) == std::vector<int>{3, 6, 9, 12, 15});
    REQUIRE(dtl::transform_exclusive_scan(dtl::seq{}, in, out, 0, std::plus<>{}, square, comm).has_value());
    CHECK(values_of(out) == std::vector<int>{0, 3, 6, 9, 12});
    CHECK(dtl::inclusive_scan(dtl::seq{}, in, out, 0, std::plus<>{}, wrong).error() ==
          dtl::status_code::invalid_argument);
    CHECK(dtl::transform_exclusive_scan(dtl::seq{}, in, out, 0, std::plus<>{}, square, wrong).error() ==
          dtl::status_code::invalid_argument);
  }

  TEST_CASE("mismatched vectors are statuses") {
    const auto ctx = dtl::make_cpu_context();
    const auto other = dtl::make_cpu_context();
    dtl::distributed_vector<int> a(10, ctx), b(11, ctx), c(10, other);
    CHECK(dtl::transform(a, b, [](int x) { return x; }).error() == dtl::status_code::extent_mismatch);
    CHECK(dtl::copy(a, c).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::inclusive_scan(a, b).error() == dtl::status_code::extent_mismatch);
    CHECK(dtl::transform(a, a, b, [](int x, int y) { return x + y; }).error() == dtl::status_code::extent_mismatch);
  }

  TEST_CASE("every value algorithm has a try_ twin, with and without a policy") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> v(6, ctx);
    REQUIRE(dtl::iota(v, 1).has_value());  // 1 .. 6
    const auto odd = [](int x) { return x % 2 == 1; };
    const auto twice = [](int x) { return 2 * x; };
    CHECK(dtl::reduce(v) == 21);  // init T{}, std::plus<>
    CHECK(dtl::reduce(dtl::par{}, v) == 21);
    CHECK(dtl::try_reduce(v).value() == 21);
    CHECK(dtl::try_reduce(v, 1).value() == 22);
    CHECK(dtl::try_reduce(dtl::seq{}, v, 0, dtl::reduce_max<>{}).value() == 6);
    CHECK(dtl::try_distributed_reduce(v, 0).value().global_value == 21);
    CHECK(dtl::try_distributed_reduce(dtl::par{}, v).value().local_value == 21);
    CHECK(dtl::distributed_reduce(v).global_value == 21);
    CHECK(dtl::try_reduce_to_root(v, 0, std::plus<>{}, 0).value().value() == 21);
    CHECK(dtl::try_reduce_to_root(dtl::par{}, v, 0, std::plus<>{}, 0).value().has_global);
    CHECK(dtl::try_local_reduce(v, 0).value() == 21);
    CHECK(dtl::try_local_reduce(dtl::par{}, v).value() == 21);
    CHECK(dtl::local_reduce(v) == 21);
    // Under seq, local_reduce is std::accumulate: a left fold from init, so an operator that is not
    // associative (init + x*x for each x) gives the same answer.
    const auto add_square = [](int acc, int x) { return acc + x * x; };
    CHECK(dtl::local_reduce(v, 0, add_square) == 91);
    CHECK(dtl::local_reduce(dtl::seq{}, v, 1, add_square) == 92);
    CHECK(dtl::try_transform_reduce(v, 0, std::plus<>{}, twice).value() == 42);
    CHECK(dtl::try_transform_reduce(dtl::par{}, v, 0, std::plus<>{}, twice).value() == 42);
    CHECK(dtl::try_count_if(v, odd).value() == 3);
    CHECK(dtl::try_count_if(dtl::par{}, v, odd).value() == 3);
    CHECK(dtl::try_count(v, 4).value() == 1);
    CHECK(dtl::try_count(dtl::seq{}, v, 7).value() == 0);
  }

  TEST_CASE("the try_ forms return what the bare forms throw") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> v(4, ctx);
    const auto bad_root = dtl::try_reduce_to_root(v, 0, std::plus<>{}, 1);
    REQUIRE_FALSE(bad_root.has_value());
    CHECK(bad_root.error() == dtl::status_code::invalid_rank);
    CHECK_THROWS_AS(dtl::reduce_to_root(v, 0, std::plus<>{}, -1), dtl::status_error);
    try {
      static_cast<void>(dtl::reduce_to_root(dtl::par{}, v, 0, std::plus<>{}, 5));
      FAIL("reduce_to_root with a root that is no rank did not throw");
    } catch (const dtl::status_error& e) {
      CHECK(e.code() == dtl::status_code::invalid_rank);
    }
  }

  TEST_CASE_TEMPLATE("a user function that throws: the exception reaches the caller", Policy, dtl::seq, dtl::par) {
    // Large enough for par to split the block over threads; element 0 is in a worker's chunk (the
    // calling thread takes the last one), the last element in the caller's.
    const std::size_t n = std::size_t{1} << 17;
    if (std::is_same_v<Policy, dtl::par> && std::thread::hardware_concurrency() < 2)
      MESSAGE("one hardware thread: par runs on the calling thread only");
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> v(n, ctx);
    REQUIRE(dtl::iota(Policy{}, v, 0).has_value());
    for (const int bad : {0, static_cast<int>(n) - 1}) {
      CHECK_THROWS_AS(static_cast<void>(dtl::for_each(Policy{}, v,
                                                      [bad](int& x) {
                                                        if (x == bad) throw functor_failure("for_each");
                                                      })),
                      functor_failure);
      const auto throws_at_bad = [bad](int x) {  // in 64 bits: the sum of 2^17 elements overflows an int
        if (x == bad) throw functor_failure("transform_reduce");
        return std::int64_t{x};
      };
      CHECK_THROWS_AS(
          static_cast<void>(dtl::try_transform_reduce(Policy{}, v, std::int64_t{0}, std::plus<>{}, throws_at_bad)),
          functor_failure);
      CHECK_THROWS_AS(
          static_cast<void>(dtl::transform_reduce(Policy{}, v, std::int64_t{0}, std::plus<>{}, throws_at_bad)),
          functor_failure);
    }
    // Every chunk throws (several threads at once): one exception, the others are dropped.
    CHECK_THROWS_WITH_AS(static_cast<void>(dtl::for_each(Policy{}, v, [](int&) { throw functor_failure("all"); })),
                         "all", functor_failure);
    // Nothing was left running: the vector is usable and as it was.
    CHECK(dtl::try_count(Policy{}, v, 5).value() == 1);
    CHECK(v.local_view()[n - 1] == static_cast<int>(n) - 1);
  }

  TEST_CASE("scans without init start from T{}") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> in(5, ctx), out(5, ctx);
    REQUIRE(dtl::iota(in, 1).has_value());
    REQUIRE(dtl::exclusive_scan(in, out).has_value());
    CHECK(values_of(out) == std::vector<int>{0, 1, 3, 6, 10});
    REQUIRE(dtl::inclusive_scan(dtl::par{}, in, out).has_value());
    CHECK(values_of(out) == std::vector<int>{1, 3, 6, 10, 15});
  }

  TEST_CASE("every algorithm checks the layout of all its vectors first") {
    const auto ctx = dtl::make_cpu_context();
    dtl::distributed_vector<int> a(10, ctx), b(11, ctx);
    dtl::distributed_vector<int> out(10, ctx);
    // The mismatch is the second input (a, b, out): found before any element is written.
    REQUIRE(dtl::fill(out, 9).has_value());
    CHECK(dtl::transform(a, b, out, [](int x, int y) { return x + y; }).error() == dtl::status_code::extent_mismatch);
    CHECK(std::all_of(out.local_view().begin(), out.local_view().end(), [](int x) { return x == 9; }));
    CHECK(dtl::exclusive_scan(dtl::par{}, a, b, 0).error() == dtl::status_code::extent_mismatch);
    // copy alone says it as upstream's does: invalid_argument, "incompatible partitions".
    const dtl::result<dtl::copy_result> copied = dtl::copy(dtl::seq{}, b, a);
    CHECK(copied.error() == dtl::status_code::invalid_argument);
    CHECK(copied.error().message().find("incompatible partitions") != std::string::npos);
    CHECK(copied.error().message().find("11 and 10 elements") != std::string::npos);
    // Vectors of two contexts too: the same words, naming the contexts.
    dtl::distributed_vector<int> elsewhere(10, dtl::make_cpu_context());
    const dtl::result<dtl::copy_result> apart = dtl::copy(a, elsewhere);
    CHECK(apart.error() == dtl::status_code::invalid_argument);
    CHECK(apart.error().message().find("incompatible partitions") != std::string::npos);
    CHECK(apart.error().message().find("different contexts") != std::string::npos);
    CHECK(dtl::transform(a, elsewhere, [](int x) { return x; }).error().message().find("incompatible") ==
          std::string::npos);
  }
}

// Upstream's algorithm concepts, as a user's own template would name them.
static_assert(dtl::ExecutionPolicyType<dtl::par> && !dtl::ExecutionPolicyType<int>);
static_assert(dtl::DistributedAlgorithmTarget<dtl::distributed_vector<int>>);
static_assert(dtl::InPlaceModifiable<dtl::distributed_vector<int>> && dtl::RankAware<dtl::distributed_vector<int>>);
static_assert(dtl::BinaryReductionOp<std::plus<>, double> && !dtl::BinaryReductionOp<std::plus<>, std::vector<int>>);
static_assert(dtl::SortComparator<std::greater<>, int> && !dtl::ElementPredicate<std::plus<>, int>);
static_assert(dtl::SortableIterator<int*> && !dtl::SortableIterator<const int*>);
