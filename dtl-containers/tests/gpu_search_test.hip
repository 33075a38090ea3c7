// SPDX-License-Identifier: MIT
// find, all_of, min_element, dot and their kin on device placements (device_only_runtime, unified_memory),
// under every policy, on 1 rank and on 2 (a GPU each, or shared), against a serial reference of the whole
// vector: empty vectors, ranks without elements, matches on a rank boundary, duplicates (the lowest
// index wins), no match, device functions, and vectors of different layouts failing on every rank.
// Also upstream's helpers over one device_view (dtl::algorithms::device: fill, reduce_*, sort_*), per
// rank, against std:: on the same values.
#include "gpu_algorithm_checks.hpp"
#include "same_on_every_rank.hpp"

#include <dtl/algorithms/device/device_fill.hpp>
#include <dtl/algorithms/device/device_reduce.hpp>
#include <dtl/algorithms/device/device_sort.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

using algorithm_checks::settle;

/// 12 bytes, ordered by a alone: for the device_view helpers' paths that are not for numbers.
struct triple {
  int a, b, c;
  __host__ __device__ bool operator<(const triple& o) const { return a < o.a; }
};

namespace {

/// A vector whose element g is f(g), and the same values serially.
template <class T, class P, class F>
dtl::distributed_vector<T, P> vector_of(const dtl::context& ctx, std::size_t n, F f, std::vector<T>& reference) {
  dtl::distributed_vector<T, P> v(n, ctx);
  reference.resize(n);
  for (std::size_t g = 0; g < n; ++g) reference[g] = f(g);
  REQUIRE(v.copy_from_host(reference.data() + v.global_offset(), v.local_size()).has_value());
  return v;
}

template <class V>
int owner_of(const V& v, std::size_t g) {
  const int mine = v.local_range().contains(g) ? v.rank() : -1;
  return v.get_context().allreduce_value(mine, dtl::reduce_op::max).value();
}

template <class V, class T, class It>
void check_found(const V& v, const std::vector<T>& ref, It it, const dtl::find_result<T>& r) {
  if (it == ref.end()) {
    CHECK_FALSE(r.found);
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

template <class V, class T, class It>
void check_extreme(const V& v, const std::vector<T>& ref, It it, const dtl::minmax_result<T>& r) {
  if (it == ref.end()) {
    CHECK_FALSE(r.valid);
    return;
  }
  const auto g = static_cast<std::size_t>(it - ref.begin());
  REQUIRE(r.valid);
  CHECK(r.global_index == static_cast<std::ptrdiff_t>(g));
  CHECK(r.owner_rank == owner_of(v, g));
  CHECK(r.value == *it);
}

struct by_magnitude {  // a user comparator, callable on both sides
  __host__ __device__ bool operator()(double a, double b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
};
struct larger {  // a user reduction without a native collective
  __host__ __device__ double operator()(double a, double b) const { return a < b ? b : a; }
};

template <class P, class Policy>
void searches(const dtl::context& ctx, Policy policy, dtl::hip::hip_stream* stream) {
  for (const std::size_t n : algorithm_checks::sizes) {
    CAPTURE(n);
    std::vector<int> ref;
    auto v = vector_of<int, P>(
        ctx, n, [](std::size_t g) { return static_cast<int>(g % 7); }, ref);
    for (const int target : {0, 3, 6, 7}) {
      CAPTURE(target);
      check_found(v, ref, std::find(ref.begin(), ref.end(), target),
                  settle(dtl::try_find(policy, v, target), stream).value());
    }
    auto big = [] __device__(int x) { return x > 4; };
    auto host_big = [](int x) { return x > 4; };
    check_found(v, ref, std::find_if(ref.begin(), ref.end(), host_big),
                settle(dtl::try_find_if(policy, v, big), stream).value());
    check_found(v, ref, std::find_if_not(ref.begin(), ref.end(), [](int x) { return x < 2; }),
                settle(dtl::try_find_if_not(policy, v, [] __device__(int x) { return x < 2; }), stream).value());
    CHECK(settle(dtl::try_any_of(policy, v, big), stream).value() == std::any_of(ref.begin(), ref.end(), host_big));
    CHECK(settle(dtl::try_none_of(policy, v, big), stream).value() == std::none_of(ref.begin(), ref.end(), host_big));
    CHECK(settle(dtl::try_all_of(policy, v, [] __device__(int x) { return x < 7; }), stream).value());
    CHECK(settle(dtl::try_all_of(policy, v, big), stream).value() == std::all_of(ref.begin(), ref.end(), host_big));
    if (n == 0) continue;
    // One mark on the first element of the last block (a rank boundary with two ranks) and one at the end.
    const std::size_t boundary = static_cast<std::size_t>(
        ctx.allreduce_value(static_cast<std::uint64_t>(v.local_size() > 0 ? v.global_offset() : 0), dtl::reduce_op::max)
            .value());
    auto marked = vector_of<int, P>(
        ctx, n, [&](std::size_t g) { return g == boundary || g == n - 1 ? 9 : 0; }, ref);
    check_found(marked, ref, std::find(ref.begin(), ref.end(), 9),
                settle(dtl::try_find(policy, marked, 9), stream).value());
  }
}

template <class P, class Policy>
void extremes(const dtl::context& ctx, Policy policy, dtl::hip::hip_stream* stream) {
  for (const std::size_t n : algorithm_checks::sizes) {
    CAPTURE(n);
    std::vector<double> ref;
    auto v = vector_of<double, P>(
        ctx, n, [](std::size_t g) { return static_cast<double>((g * 37) % 11) - 5.0; }, ref);
    check_extreme(v, ref, std::min_element(ref.begin(), ref.end()),
                  settle(dtl::try_min_element(policy, v), stream).value());
    check_extreme(v, ref, std::max_element(ref.begin(), ref.end()),
                  settle(dtl::try_max_element(policy, v), stream).value());
    check_extreme(v, ref, std::min_element(ref.begin(), ref.end(), by_magnitude{}),
                  settle(dtl::try_min_element(policy, v, by_magnitude{}), stream).value());
    check_extreme(v, ref, std::min_element(ref.begin(), ref.end(), std::greater<>{}),
                  settle(dtl::try_min_element(policy, v, std::greater<>{}), stream).value());
    const auto device_less = [] __device__(double a, double b) { return a < b; };
    check_extreme(v, ref, std::max_element(ref.begin(), ref.end()),
                  settle(dtl::try_max_element(policy, v, device_less), stream).value());
    const auto both = settle(dtl::try_minmax_element(policy, v), stream).value();
    check_extreme(v, ref, std::min_element(ref.begin(), ref.end()), both.min);
    check_extreme(v, ref, std::max_element(ref.begin(), ref.end()), both.max);
  }
}

template <class P, class Policy>
void inner_products(const dtl::context& ctx, Policy policy, dtl::hip::hip_stream* stream) {
  for (const std::size_t n : algorithm_checks::sizes) {
    CAPTURE(n);
    std::vector<std::int64_t> ia, ib;
    auto xa = vector_of<std::int64_t, P>(
        ctx, n, [](std::size_t g) { return static_cast<std::int64_t>(g % 13) - 6; }, ia);
    auto xb = vector_of<std::int64_t, P>(
        ctx, n, [](std::size_t g) { return static_cast<std::int64_t>(g % 5) + 1; }, ib);
    CHECK(settle(dtl::try_dot(policy, xa, xb), stream).value() ==
          std::inner_product(ia.begin(), ia.end(), ib.begin(), std::int64_t{0}));
    CHECK(settle(dtl::try_inner_product(policy, xa, xb, std::int64_t{100}), stream).value() ==
          std::inner_product(ia.begin(), ia.end(), ib.begin(), std::int64_t{100}));
    std::vector<double> da, db;
    auto ya = vector_of<double, P>(
        ctx, n, [](std::size_t g) { return 0.25 * static_cast<double>(g % 17); }, da);
    auto yb = vector_of<double, P>(
        ctx, n, [](std::size_t g) { return 2.0 - 0.5 * static_cast<double>(g % 3); }, db);
    const double ref_dot = std::inner_product(da.begin(), da.end(), db.begin(), 0.0);
    CHECK(settle(dtl::try_dot(policy, ya, yb), stream).value() == ref_dot);  // exact: multiples of 1/8
    auto difference = [] __host__ __device__(double a, double b) { return a < b ? b - a : a - b; };
    const double ref_max = std::inner_product(da.begin(), da.end(), db.begin(), -1.0, larger{}, difference);
    CHECK(settle(dtl::try_inner_product(policy, ya, yb, -1.0, dtl::reduce_max<double>{}, difference), stream).value() ==
          ref_max);
    CHECK(settle(dtl::try_inner_product(policy, ya, yb, -1.0, larger{}, difference), stream).value() == ref_max);
    CHECK(settle(dtl::try_transform_reduce(policy, ya, yb, 1.0, std::plus<>{},
                                           [] __device__(double a, double b) { return a * b; }),
                 stream)
              .value() == 1.0 + ref_dot);
  }
}

/// find and the extremes over blocks that start `ahead` elements past their allocation (a halo before
/// them), so that the 16-byte loads have a scalar head as well as a tail: marks at the first, last and
/// middle elements, ties to the lowest index.
template <class T>
void off_boundary_blocks(const dtl::context& ctx, std::size_t ahead) {
  for (const std::size_t per_rank : {std::size_t{3}, std::size_t{17}, std::size_t{4099}, std::size_t{300007}}) {
    const std::size_t n = per_rank * static_cast<std::size_t>(ctx.size());
    CAPTURE(n);
    CAPTURE(ahead);
    dtl::distributed_vector<T, dtl::device_only_runtime> v(n, ctx, dtl::halo{.prev = ahead, .next = ahead});
    std::vector<T> ref(n);
    for (std::size_t g = 0; g < n; ++g) ref[g] = static_cast<T>(g % 5 + 10);
    ref[n / 2] = static_cast<T>(3);  // the minimum twice: the lower index wins
    ref[n - 1] = static_cast<T>(3);
    ref[0] = static_cast<T>(40);  // the maximum twice
    ref[n / 3 + 1] = static_cast<T>(40);
    REQUIRE(v.copy_from_host(ref.data() + v.global_offset(), v.local_size()).has_value());
    check_extreme(v, ref, std::min_element(ref.begin(), ref.end()), dtl::try_min_element(v).value());
    check_extreme(v, ref, std::max_element(ref.begin(), ref.end()), dtl::try_max_element(v).value());
    const auto both = dtl::try_minmax_element(v).value();
    check_extreme(v, ref, std::min_element(ref.begin(), ref.end()), both.min);
    check_extreme(v, ref, std::max_element(ref.begin(), ref.end()), both.max);
    for (const T target : {static_cast<T>(3), static_cast<T>(12), static_cast<T>(40), static_cast<T>(99)})
      check_found(v, ref, std::find(ref.begin(), ref.end(), target), dtl::try_find(v, target).value());
  }
}

template <class P>
void every_policy(const dtl::context& ctx) {
  dtl::hip::hip_stream stream =
      dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
          .value();
  SUBCASE("seq") {
    searches<P>(ctx, dtl::seq{}, nullptr);
    extremes<P>(ctx, dtl::seq{}, nullptr);
    inner_products<P>(ctx, dtl::seq{}, nullptr);
  }
  SUBCASE("par") {
    searches<P>(ctx, dtl::par{}, nullptr);
    extremes<P>(ctx, dtl::par{}, nullptr);
    inner_products<P>(ctx, dtl::par{}, nullptr);
  }
  SUBCASE("async") {
    searches<P>(ctx, dtl::async{}, nullptr);
    extremes<P>(ctx, dtl::async{}, nullptr);
    inner_products<P>(ctx, dtl::async{}, nullptr);
  }
  SUBCASE("on_stream") {
    searches<P>(ctx, dtl::on_stream{stream}, &stream);
    extremes<P>(ctx, dtl::on_stream{stream}, &stream);
    inner_products<P>(ctx, dtl::on_stream{stream}, &stream);
  }
}

}  // namespace

TEST_SUITE("gpu.search") {
  TEST_CASE("device_only_runtime") { every_policy<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("unified_memory") { every_policy<dtl::unified_memory>(test_support::world()); }
  TEST_CASE_TEMPLATE("blocks that do not start on a 16-byte boundary", T, double, float, std::int16_t, std::uint8_t) {
    for (const std::size_t ahead : {std::size_t{1}, std::size_t{2}, std::size_t{3}})
      off_boundary_blocks<T>(test_support::world(), ahead);
  }
  TEST_CASE("vectors of different layouts: the same error on every rank") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<double, dtl::device_only_runtime> a(10, ctx), b(11, ctx);
    const auto r = dtl::try_dot(a, b);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code() == dtl::status_code::extent_mismatch);
    test_support::same_code_everywhere(ctx, r.error());
    REQUIRE(dtl::fill(a, 2.0).has_value());
    CHECK(dtl::dot(a, a) == 40.0);  // still works
  }

  TEST_CASE("upstream's dtl::algorithms::device helpers on this rank's device_view") {
    namespace device = dtl::algorithms::device;
    const auto ctx = test_support::world();
    constexpr std::size_t n = 100003;  // odd, and more than one block of every kernel
    dtl::distributed_vector<int, dtl::device_only_runtime> v(n * static_cast<std::size_t>(ctx.size()), ctx);
    const int before = dtl::hip::current_device_id();
    const auto dv = v.device_view();
    REQUIRE(dv.size() == n);

    device::fill(dv, 7);
    std::vector<int> host(n);
    REQUIRE(v.copy_to_host(host.data(), n).has_value());
    CHECK(std::all_of(host.begin(), host.end(), [](int x) { return x == 7; }));

    // Values in a scrambled order, negative ones included.
    for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>((i * 7919) % 1009) - 504 + ctx.rank();
    REQUIRE(v.copy_from_host(host.data(), n).has_value());
    const dtl::device_view<const int> cv{dv.data(), dv.size(), dv.device()};
    long long expect_sum = 0;
    for (int x : host) expect_sum += x;
    CHECK(device::reduce_sum(cv) == static_cast<int>(expect_sum));
    CHECK(device::reduce_min(cv) == *std::min_element(host.begin(), host.end()));
    CHECK(device::reduce_max(cv) == *std::max_element(host.begin(), host.end()));
    CHECK(device::reduce_sum(cv.first(0)) == 0);  // empty: T{}, as upstream's

    std::vector<int> sorted = host;
    device::sort_ascending(dv);
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> got(n);
    REQUIRE(v.copy_to_host(got.data(), n).has_value());
    CHECK(got == sorted);
    device::sort_descending(dv);
    std::reverse(sorted.begin(), sorted.end());
    REQUIRE(v.copy_to_host(got.data(), n).has_value());
    CHECK(got == sorted);
    CHECK(dtl::hip::current_device_id() == before);  // each helper restores the caller's device

    // An element of 12 bytes (triple): fill by the library's byte-pattern kernel, min / max by operator< from the first
    // element, the sort by a merge sort.
    dtl::distributed_vector<triple, dtl::device_only_runtime> t(1000 * static_cast<std::size_t>(ctx.size()), ctx);
    const auto tv = t.device_view();
    device::fill(tv, triple{1, 2, 3});
    std::vector<triple> th(tv.size());
    REQUIRE(t.copy_to_host(th.data(), th.size()).has_value());
    CHECK(std::all_of(th.begin(), th.end(), [](const triple& x) { return x.a == 1 && x.b == 2 && x.c == 3; }));
    for (std::size_t i = 0; i < th.size(); ++i)
      th[i] = triple{static_cast<int>((i * 37) % 1000), static_cast<int>(i), 0};
    REQUIRE(t.copy_from_host(th.data(), th.size()).has_value());
    const dtl::device_view<const triple> ctv{tv.data(), tv.size(), tv.device()};
    CHECK(device::reduce_min(ctv).a == 0);
    CHECK(device::reduce_max(ctv).a == 999);
    device::sort_ascending(tv);
    REQUIRE(t.copy_to_host(th.data(), th.size()).has_value());
    CHECK(std::is_sorted(th.begin(), th.end()));

    // A view of memory that is not the GPU's: the helper's failure names it, as a status_error.
    const dtl::device_view<int> bad{dv.data(), dv.size(), 1 << 20};
    CHECK_THROWS_AS(device::fill(bad, 1), dtl::status_error);
    CHECK(dtl::hip::current_device_id() == before);
  }
}
