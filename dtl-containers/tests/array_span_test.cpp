// SPDX-License-Identifier: MIT
// distributed_array, distributed_span, segmented_view's upstream names and strided_view on host
// placements (run with 1, 2 and 3 MPI ranks), against a serial reference of the whole sequence: sizes
// that the ranks do not divide, fewer elements than ranks (empty blocks), 0 elements, and irregular
// layouts for the span.
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/distributed_array.hpp>
#include <dtl/containers/distributed_span.hpp>
#include <dtl/containers/distributed_tensor.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/strided_view.hpp>
#include <dtl/containers/views.hpp>
#include <dtl/core/status_error.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <numeric>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

namespace {

/// DTL's even block layout, serially: rank r's [begin, end) of n elements over p ranks.
std::pair<std::size_t, std::size_t> block_of(std::size_t n, int p, int r) {
  const auto ranks = static_cast<std::size_t>(p), rank = static_cast<std::size_t>(r);
  const std::size_t base = n / ranks, extra = n % ranks;
  const std::size_t begin = rank * base + std::min(rank, extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

std::size_t sum_over_ranks(const dtl::context& ctx, std::size_t v) {
  return ctx.allreduce_value(v, dtl::reduce_op::sum).value();
}

template <class A>
concept has_local_view = requires(A& a) {
  a.local_view();
};
template <class A>
concept has_device_view = requires(A& a) {
  a.device_view();
};

int value_at(std::size_t g) { return static_cast<int>((g * 37 + 11) % 101) - 50; }

/// Every check of one array size N.
template <dtl::size_type N>
void array_checks(const dtl::context& ctx) {
  CAPTURE(N);
  using array = dtl::distributed_array<int, N>;
  static_assert(array::extent == N && array::size() == N && array::global_size() == N && array::max_size() == N);
  static_assert(array::empty() == (N == 0));
  static_assert(dtl::is_distributed_array_v<array> && !dtl::is_distributed_array_v<dtl::distributed_vector<int>>);
  static_assert(std::is_same_v<typename array::placement_policy, dtl::host_only>);
  const int p = ctx.size(), me = ctx.rank();
  array a(ctx);
  CHECK(a.rank() == me);
  CHECK(a.num_ranks() == p);
  CHECK(a.is_host_accessible());
  CHECK_FALSE(a.is_device_accessible());
  CHECK(a.device_id() == dtl::no_device);
  CHECK_FALSE(a.has_device_affinity());
  const auto [begin, end] = block_of(N, p, me);
  CHECK(a.local_size() == end - begin);
  CHECK(a.global_offset() == static_cast<dtl::index_t>(begin));
  CHECK(sum_over_ranks(ctx, a.local_size()) == N);
  for (int r = 0; r < p; ++r) {
    const auto [b, e] = block_of(N, p, r);
    CHECK(a.local_size_for_rank(r) == e - b);
  }
  CHECK(a.local_size_for_rank(p) == 0);
  CHECK(std::ranges::all_of(a.local_view(), [](int x) { return x == 0; }));  // value-initialised

  // Index maps, on every global index and just outside.
  for (std::size_t g = 0; g < N; ++g) {
    const auto gi = static_cast<dtl::index_t>(g);
    const bool mine = g >= begin && g < end;
    CHECK(a.is_local(gi) == mine);
    int owner = 0;
    while (!(g >= block_of(N, p, owner).first && g < block_of(N, p, owner).second)) ++owner;
    CHECK(a.owner(gi) == owner);
    if (mine) {
      CHECK(a.to_local(gi) == static_cast<dtl::index_t>(g - begin));
      CHECK(a.to_global(a.to_local(gi)) == gi);
    }
  }
  CHECK(a.owner(-1) == dtl::no_rank);
  CHECK(a.owner(static_cast<dtl::index_t>(N)) == dtl::no_rank);
  CHECK_FALSE(a.is_local(-1));
  CHECK_FALSE(a.is_local(static_cast<dtl::index_t>(N)));

  // Local writes through local_view() and local(i), read back globally.
  std::vector<int> ref(N);
  for (std::size_t g = 0; g < N; ++g) ref[g] = value_at(g);
  auto local = a.local_view();
  for (std::size_t i = 0; i < local.size(); ++i)
    local[i] = value_at(static_cast<std::size_t>(a.to_global(static_cast<dtl::index_t>(i))));
  for (std::size_t i = 0; i < a.local_size(); ++i) CHECK(a.local(i) == ref[begin + i]);
  CHECK(a.local_data() == local.data());
  auto all = a.gather(0);
  REQUIRE(all.has_value());
  if (me == 0) CHECK(*all == ref);

  // The algorithms take the array as they take a vector.
  CHECK(dtl::reduce(a, 0) == std::accumulate(ref.begin(), ref.end(), 0));
  CHECK(dtl::count_if(a, [](int x) { return x < 0; }) ==
        static_cast<std::size_t>(std::count_if(ref.begin(), ref.end(), [](int x) { return x < 0; })));
  const auto& ca = a;
  // Another operator under par (a product of 13 or more of these values would overflow int).
  CHECK(dtl::reduce(dtl::par{}, ca, -1000, dtl::reduce_max<int>{}) ==
        std::accumulate(ref.begin(), ref.end(), -1000, [](int x, int y) { return std::max(x, y); }));
  const auto least = dtl::min_element(a);
  CHECK(least.valid == (N != 0));
  if (N != 0) CHECK(least.value == *std::min_element(ref.begin(), ref.end()));
  REQUIRE(dtl::sort(a).has_value());
  std::vector<int> sorted = ref;
  std::sort(sorted.begin(), sorted.end());
  CHECK(dtl::is_sorted(a));
  all = a.gather(0);
  REQUIRE(all.has_value());
  if (me == 0) CHECK(*all == sorted);
  CHECK(a.local_size() == end - begin);  // the sort keeps the block sizes
  REQUIRE(dtl::iota(a, 5).has_value());
  REQUIRE(dtl::transform(a, a, [](int x) { return 3 * x; }).has_value());
  std::vector<int> tripled(N);
  for (std::size_t g = 0; g < N; ++g) tripled[g] = 3 * (5 + static_cast<int>(g));
  // An array and a vector of the same layout meet in one algorithm.
  dtl::distributed_vector<int> v(N, ctx);
  REQUIRE(dtl::copy(a, v).has_value());
  all = v.gather(0);
  REQUIRE(all.has_value());
  if (me == 0) CHECK(*all == tripled);
  REQUIRE(dtl::transform(a, v, a, [](int x, int y) { return x - y + 1; }).has_value());
  CHECK(dtl::reduce(a, 0) == static_cast<int>(N));
  CHECK(dtl::dot(a, v) == std::accumulate(tripled.begin(), tripled.end(), 0));
  // One of another size does not: the same error on every rank.
  dtl::distributed_array<int, N + 1> longer(ctx);
  CHECK(dtl::copy(longer, a).error() == dtl::status_code::invalid_argument);  // upstream's code for copy

  // The member fill is local (no communication), dtl::fill global.
  a.fill(7);
  CHECK(std::ranges::all_of(a.local_view(), [](int x) { return x == 7; }));
  CHECK(dtl::reduce(a, 0) == 7 * static_cast<int>(N));
  REQUIRE(dtl::fill(a, -2).has_value());
  CHECK(dtl::reduce(a, 0) == -2 * static_cast<int>(N));

  // (value, ctx), create(), the segmented view.
  dtl::distributed_array<double, N> b(2.5, ctx);
  CHECK(std::ranges::all_of(b.local_view(), [](double x) { return x == 2.5; }));
  auto made = dtl::distributed_array<double, N>::create(-1.0, ctx);
  REQUIRE(made.has_value());
  CHECK(dtl::reduce(*made, 0.0) == -1.0 * static_cast<double>(N));
  auto made_zero = array::create(ctx);
  REQUIRE(made_zero.has_value());
  CHECK(made_zero->local_size() == end - begin);
  const auto segments = a.segmented_view();
  CHECK(segments.num_segments() == p);
  CHECK(segments.total_size() == N);
  CHECK(segments.local_segment().data == a.local_data());
  for (int r = 0; r < p; ++r) CHECK(segments.offset_for_rank(r) == static_cast<dtl::index_t>(block_of(N, p, r).first));
  CHECK(segments.offset_for_rank(p) == static_cast<dtl::index_t>(N));
  CHECK(a.barrier().has_value());
  CHECK(a.fence().has_value());
  CHECK(a.sync().has_value());

  // Moves.
  array moved(std::move(a));
  CHECK(moved.local_size() == end - begin);
  CHECK(dtl::reduce(moved, 0) == -2 * static_cast<int>(N));
}

template <dtl::size_type... Ns>
void array_sizes(const dtl::context& ctx, std::index_sequence<Ns...>) {
  (array_checks<Ns>(ctx), ...);
}

/// A vector of n elements, element g = value_at(g), in the layout `sizes` (the even one when empty).
dtl::distributed_vector<int> vector_of(const dtl::context& ctx, std::size_t n, const std::vector<std::size_t>& sizes) {
  dtl::distributed_vector<int> v(n, ctx);
  if (!sizes.empty()) REQUIRE(v.redistribute(sizes).has_value());
  auto local = v.local_view();
  for (std::size_t i = 0; i < local.size(); ++i) local[i] = value_at(v.global_offset() + i);
  return v;
}

/// The span `s` covers global elements [first, first + count) of the sequence value_at(g), this rank's
/// part being its block [block_begin, block_end) cut to that range.
template <class Span>
void check_part(const dtl::context& ctx, const Span& s, std::size_t first, std::size_t count, std::size_t block_begin,
                std::size_t block_end) {
  CAPTURE(first);
  CAPTURE(count);
  const std::size_t lo = std::clamp(block_begin, first, first + count);
  const std::size_t hi = std::clamp(block_end, first, first + count);
  CHECK(s.size() == count);
  CHECK(s.empty() == (count == 0));
  CHECK(s.local_size() == hi - lo);
  CHECK(s.global_offset() == lo - first);
  CHECK(s.rank() == ctx.rank());
  CHECK(s.num_ranks() == ctx.size());
  CHECK(s.size_bytes() == (hi - lo) * sizeof(int));
  CHECK(static_cast<std::size_t>(std::distance(s.begin(), s.end())) == s.local_size());
  for (std::size_t i = 0; i < s.local_size(); ++i) CHECK(s[i] == value_at(first + s.global_offset() + i));
  if (s.local_size() != 0) {
    CHECK(s.front() == value_at(lo));
    CHECK(s.back() == value_at(hi - 1));
  }
  CHECK(sum_over_ranks(ctx, s.local_size()) == count);
}

void span_checks(const dtl::context& ctx, std::size_t n, const std::vector<std::size_t>& sizes) {
  CAPTURE(n);
  CAPTURE(sizes.size());
  auto v = vector_of(ctx, n, sizes);
  const std::size_t begin = v.global_offset(), end = begin + v.local_size();
  dtl::distributed_span<int> s(v);
  static_assert(decltype(s)::extent == dtl::dynamic_extent);
  static_assert(std::is_trivially_copyable_v<dtl::distributed_span<int>>);
  CHECK(s.data() == v.local_data());
  check_part(ctx, s, 0, n, begin, end);
  // Global subranges: every start and count (past the end too, clamped).
  for (std::size_t first = 0; first <= n + 1; ++first) {
    for (std::size_t count = 0; count <= n + 1 - std::min(first, n); ++count) {
      const std::size_t f = std::min(first, n), c = std::min(count, n - f);
      check_part(ctx, s.subspan(first, count), f, c, begin, end);
    }
    const std::size_t f = std::min(first, n);
    check_part(ctx, s.subspan(first), f, n - f, begin, end);
    check_part(ctx, s.first(first), 0, std::min(first, n), begin, end);
    check_part(ctx, s.last(first), n - std::min(first, n), std::min(first, n), begin, end);
  }
  // A subspan of a subspan.
  if (n >= 4) check_part(ctx, s.subspan(1).subspan(1, n - 3), 2, n - 3, begin, end);
  // The local forms (upstream's first/last/subspan): this rank's elements.
  const std::size_t mine = v.local_size();
  for (std::size_t k = 0; k <= mine + 1; ++k) {
    const std::size_t kk = std::min(k, mine);
    const std::span<int> head = s.local_first(k), tail = s.local_last(k), rest = s.local_subspan(k);
    CHECK(head.size() == kk);
    CHECK(tail.size() == kk);
    CHECK(rest.size() == mine - kk);
    for (std::size_t i = 0; i < kk; ++i) {
      CHECK(head[i] == value_at(begin + i));
      CHECK(tail[i] == value_at(end - kk + i));
    }
    for (std::size_t i = 0; i < rest.size(); ++i) CHECK(rest[i] == value_at(begin + kk + i));
    if (kk < mine) {
      const std::span<int> one = s.local_subspan(kk, 1);
      REQUIRE(one.size() == 1);
      CHECK(one[0] == value_at(begin + kk));
    }
  }
  CHECK(s.local().size() == mine);
  // Writes through the span reach the vector.
  for (int& x : s) x = -x;
  for (std::size_t i = 0; i < mine; ++i) CHECK(v.local_view()[i] == -value_at(begin + i));
  for (int& x : s) x = -x;
  // The factory, const elements, the conversion to span<const T>.
  const auto& cv = v;
  auto cs = dtl::make_distributed_span(cv);
  static_assert(std::is_same_v<decltype(cs), dtl::distributed_span<const int>>);
  auto ms = dtl::make_distributed_span(v);
  static_assert(std::is_same_v<decltype(ms), dtl::distributed_span<int>>);
  const dtl::distributed_span<const int> converted = ms;
  check_part(ctx, cs, 0, n, begin, end);
  check_part(ctx, converted.last(n / 2), n - n / 2, n / 2, begin, end);
  // From a pointer and sizes: with the offset, and (in the even layout) without.
  const dtl::distributed_span<int> given(v.local_data(), mine, n, ctx.rank(), ctx.size(), begin);
  check_part(ctx, given.subspan(n / 3), n / 3, n - n / 3, begin, end);
  if (sizes.empty()) {
    const dtl::distributed_span<int> even(v.local_data(), mine, n, ctx.rank(), ctx.size());
    CHECK(even.global_offset() == begin);
    check_part(ctx, even.first(n / 2), 0, n / 2, begin, end);
  }
}

}  // namespace

TEST_SUITE("mpi.array_span") {
  TEST_CASE("distributed_array: sizes 0 to 100, the ranks dividing them or not, empty blocks") {
    array_sizes(test_support::world(), std::index_sequence<0, 1, 2, 3, 5, 7, 13, 100>{});
  }
  TEST_CASE("distributed_array: the default constructor holds everything on one rank") {
    dtl::distributed_array<int, 7> a;
    CHECK(a.num_ranks() == 1);
    CHECK(a.rank() == 0);
    CHECK(a.local_size() == 7);
    REQUIRE(dtl::iota(a, 1).has_value());
    CHECK(dtl::reduce(a, 0) == 28);
    std::vector<int> ref(7);
    std::iota(ref.begin(), ref.end(), 1);
    CHECK(std::ranges::equal(a.local_view(), ref));
  }
#if DTL_CONTAINERS_HAS_HIP
  TEST_CASE("distributed_array of device placements: their types (the gpu suite runs them)") {
    using managed = dtl::distributed_array<float, 10, dtl::unified_memory>;
    static_assert(std::is_same_v<managed::placement_policy, dtl::unified_memory>);
    static_assert(managed::is_host_accessible() && managed::is_device_accessible());
    using on_device = dtl::distributed_array<float, 10, dtl::device_only<0>>;
    static_assert(!on_device::is_host_accessible() && on_device::is_device_accessible());
    static_assert(!has_local_view<on_device> && has_device_view<on_device>);
    static_assert(has_local_view<managed> && has_device_view<managed>);
  }
#endif
  TEST_CASE("distributed_span over vectors: even and irregular layouts, every subrange") {
    const auto ctx = test_support::world();
    const auto p = static_cast<std::size_t>(ctx.size());
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{13}}) {
      span_checks(ctx, n, {});
      std::vector<std::size_t> on_first(p, 0);  // every element on rank 0
      on_first[0] = n;
      span_checks(ctx, n, on_first);
      std::vector<std::size_t> on_last(p, 0);  // every element on the last rank
      on_last[p - 1] = n;
      span_checks(ctx, n, on_last);
      if (p >= 2) {  // skewed: rank 1 holds the most
        std::vector<std::size_t> skewed(p, 0);
        skewed[0] = n / 4;
        skewed[1] = n - n / 4;
        span_checks(ctx, n, skewed);
      }
    }
  }
  TEST_CASE("distributed_span over an array, and the one-rank pointer form") {
    const auto ctx = test_support::world();
    dtl::distributed_array<int, 11> a(ctx);
    REQUIRE(dtl::iota(a, 0).has_value());
    const auto s = dtl::make_distributed_span(a);
    CHECK(s.size() == 11);
    CHECK(s.global_offset() == static_cast<std::size_t>(a.global_offset()));
    CHECK(s.data() == a.local_data());
    const auto tail = s.last(4);  // global elements 7..10
    for (std::size_t i = 0; i < tail.local_size(); ++i)
      CHECK(tail[i] == static_cast<int>(7 + tail.global_offset() + i));
    CHECK(sum_over_ranks(ctx, tail.local_size()) == 4);
    int raw[] = {10, 20, 30, 40, 50};
    const dtl::distributed_span<int> one(raw, 5, 5);
    CHECK(one.rank() == 0);
    CHECK(one.num_ranks() == 1);
    CHECK(one.global_offset() == 0);
    const auto mid = one.subspan(1, 3);
    CHECK(std::vector<int>(mid.begin(), mid.end()) == std::vector<int>{20, 30, 40});
    CHECK(one.last(2).front() == 40);
    const dtl::distributed_span<int> none;
    CHECK(none.empty());
    CHECK(none.data() == nullptr);
    CHECK(none.first(3).size() == 0);
    CHECK(none.local_first(3).empty());
  }
  TEST_CASE("segmented_view: upstream's names beside ours") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), me = ctx.rank();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{100}}) {
      CAPTURE(n);
      auto v = vector_of(ctx, n, {});
      const auto view = v.segmented_view();
      const auto upstream = dtl::make_segmented_view(v);
      CHECK(view.num_segments() == p);
      CHECK(upstream.num_segments() == view.size());
      CHECK(view.total_size() == n);
      CHECK(view.local_size() == v.local_size());
      CHECK(std::distance(view.cbegin(), view.cend()) == p);
      int seen = 0;
      for (const auto& seg : view) {
        const auto [b, e] = block_of(n, p, seg.rank);
        CHECK(seg.rank == seen);
        CHECK(seg.global_offset == b);
        CHECK(seg.size == e - b);    // ours: a value
        CHECK(seg.size() == e - b);  // upstream's: a call
        CHECK(seg.is_local() == (seg.rank == me));
        CHECK(seg.is_remote() == (seg.rank != me));
        CHECK(view.offset_for_rank(seg.rank) == static_cast<dtl::index_t>(b));
        CHECK(view.segment_for_rank(seg.rank).global_offset == b);
        if (seg.is_local()) {
          for (std::size_t i = 0; i < seg.size(); ++i) {
            CHECK(seg[i] == value_at(b + i));
            CHECK(seg.to_global(i) == static_cast<dtl::index_t>(b + i));
          }
        }
        ++seen;
      }
      CHECK(seen == p);
      CHECK(view.offset_for_rank(p) == static_cast<dtl::index_t>(n));
      const auto mine = view.local_segment();
      CHECK(mine.is_local());
      CHECK(mine.rank == me);
      CHECK(mine.size() == v.local_size());
      CHECK(mine.empty() == (v.local_size() == 0));
      CHECK(mine.data == v.local_data());
      view.for_each_local([](int& x) { x *= 2; });
      for (std::size_t i = 0; i < v.local_size(); ++i) CHECK(v.local_view()[i] == 2 * value_at(v.global_offset() + i));
      int calls = 0;
      view.for_each_segment([&](const dtl::segment<int>& seg) {
        ++calls;
        CHECK(seg.is_local());
        CHECK(seg.size() == v.local_size());
      });
      CHECK(calls == 1);
      const auto& cv = v;
      const auto const_view = cv.segmented_view();
      static_assert(std::is_same_v<decltype(const_view.local_segment().data), const int*>);
      int sum = 0;
      const_view.for_each_local([&](const int& x) { sum += x; });
      CHECK(sum_over_ranks(ctx, static_cast<std::size_t>(sum + 1000000)) ==
            static_cast<std::size_t>(p) * 1000000 + static_cast<std::size_t>(2 * [&] {
              int total = 0;
              for (std::size_t g = 0; g < n; ++g) total += value_at(g);
              return total;
            }()));
    }
  }
  TEST_CASE("strided_view over a local view: every stride and offset, STL algorithms, writes") {
    const auto ctx = test_support::world();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{13}, std::size_t{80}}) {
      CAPTURE(n);
      auto v = vector_of(ctx, n, {});
      auto local = v.local_view();
      const std::vector<int> before(local.begin(), local.end());
      for (std::ptrdiff_t stride = 1; stride <= 4; ++stride) {
        for (std::size_t offset = 0; offset <= 5; ++offset) {
          CAPTURE(stride);
          CAPTURE(offset);
          auto sv = dtl::make_strided_view(local, stride, offset);
          static_assert(std::ranges::random_access_range<decltype(sv)>);
          std::vector<int> ref;
          for (std::size_t i = offset; i < local.size(); i += static_cast<std::size_t>(stride)) ref.push_back(local[i]);
          CHECK(sv.size() == ref.size());
          CHECK(sv.empty() == ref.empty());
          CHECK(sv.stride() == static_cast<std::size_t>(stride));
          CHECK(sv.offset() == offset);
          CHECK(std::vector<int>(sv.begin(), sv.end()) == ref);
          CHECK(sv.end() - sv.begin() == static_cast<std::ptrdiff_t>(ref.size()));
          CHECK(std::accumulate(sv.begin(), sv.end(), 0) == std::accumulate(ref.begin(), ref.end(), 0));
          for (std::size_t i = 0; i < ref.size(); ++i) {
            CHECK(sv[i] == ref[i]);
            CHECK(sv.begin()[static_cast<std::ptrdiff_t>(i)] == ref[i]);
            CHECK((sv.begin() + static_cast<std::ptrdiff_t>(i)).base_index() ==
                  offset + i * static_cast<std::size_t>(stride));
          }
          if (!ref.empty()) {
            CHECK(sv.front() == ref.front());
            CHECK(sv.back() == ref.back());
            CHECK(*std::max_element(sv.begin(), sv.end()) == *std::max_element(ref.begin(), ref.end()));
            auto it = sv.end();
            --it;
            CHECK(*it == ref.back());
          }
        }
      }
      // Writes: negate the even local positions (a red-black sweep), sort the odd ones in place.
      auto even = dtl::make_strided_view(local, 2);
      std::transform(even.begin(), even.end(), even.begin(), [](int x) { return -x; });
      auto odd = dtl::make_strided_view(v.local_view(), 2, 1);  // a temporary view is held by value
      std::sort(odd.begin(), odd.end());
      std::vector<int> odd_ref;
      for (std::size_t i = 1; i < before.size(); i += 2) odd_ref.push_back(before[i]);
      std::sort(odd_ref.begin(), odd_ref.end());
      for (std::size_t i = 0; i < before.size(); ++i) CHECK(local[i] == (i % 2 == 0 ? -before[i] : odd_ref[i / 2]));
      dtl::strided_view deduced(local, 3);  // upstream's spelling, by deduction
      CHECK(deduced.size() == (local.size() + 2) / 3);
    }
    auto v = vector_of(ctx, 4, {});
    CHECK_THROWS_AS(static_cast<void>(dtl::make_strided_view(v.local_view(), 0)), dtl::status_error);
    CHECK_THROWS_AS(static_cast<void>(dtl::make_strided_view(v.local_view(), -2)), dtl::status_error);
  }
  TEST_CASE("strided_view over a global view: every third element from any rank") {
    const auto ctx = test_support::world();
    for (const std::size_t n : {std::size_t{0}, std::size_t{2}, std::size_t{13}}) {
      CAPTURE(n);
      auto v = vector_of(ctx, n, {});
      auto g = v.global_view();
      auto sv = dtl::make_strided_view(g, 3, 1);
      std::vector<int> got, ref;
      for (auto ref_g : sv) got.push_back(ref_g.get().value());
      for (std::size_t i = 1; i < n; i += 3) ref.push_back(value_at(i));
      CHECK(got == ref);
      CHECK(sv.size() == ref.size());
      if (!ref.empty()) CHECK(sv.back().index() == 1 + 3 * (ref.size() - 1));
      REQUIRE(v.barrier().has_value());  // every rank has read before any vector goes
    }
  }
  TEST_CASE("upstream's sync state: what marks the vector, the array and the tensor dirty, and sync()") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<int> v(10, ctx);
    CHECK(v.is_clean());
    std::vector<int> block(v.local_size(), 3);
    REQUIRE(v.copy_from_host(block.data(), block.size()).has_value());
    CHECK(v.is_dirty() == !block.empty());  // nothing copied: nothing changed
    v.mark_local_modified();
    CHECK(v.sync_state_ref().domain() == dtl::sync_domain::local_dirty);
    REQUIRE(v.resize(20).has_value());
    CHECK(v.sync_state_ref().domain() == dtl::sync_domain::global_dirty);
    v.sync_state_ref().mark_local_modified();  // never makes it cleaner
    CHECK(v.sync_state_ref().domain() == dtl::sync_domain::global_dirty);
    REQUIRE(v.sync().has_value());
    CHECK(v.is_clean());
    dtl::distributed_vector<int> moved(std::move(v));
    moved.mark_local_modified();
    CHECK(moved.is_dirty());
    CHECK(v.is_clean());  // NOLINT(bugprone-use-after-move): a moved-from vector is empty and clean

    dtl::distributed_array<int, 12> a(ctx);
    a.fill(1);
    CHECK(a.is_dirty());
    a.mark_clean();
    CHECK_FALSE(a.is_dirty());
    a.mark_local_modified();
    REQUIRE(a.sync().has_value());
    CHECK(a.is_clean());

    dtl::distributed_tensor<int, 2> t(dtl::nd_extent<2>{4, 3}, ctx);
    t.mark_local_modified();
    CHECK(t.sync_state_ref().needs_communication() == false);
    REQUIRE(t.sync().has_value());
    CHECK(t.is_clean());
  }
}
