// SPDX-License-Identifier: MIT
// distributed_array and distributed_span on device placements (device_only<0>, device_only_runtime,
// unified_memory), on 1 rank and on 2 sharing a GPU, against a serial reference: the algorithms on the
// array (fill, iota, transform, reduce, sort), device views, and a span captured by value in a device
// lambda; and upstream's communicator forms of the reductions and of stable_sort_global on a device vector.
// Compiled by dtl-hip-kc (device lambdas).
#include "test_environment.hpp"

#include <dtl/algorithms/sorting/stable_sort_global.hpp>
#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/distributed_array.hpp>
#include <dtl/containers/distributed_span.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <vector>

namespace {

template <class A>
std::vector<float> all_of_array(const A& a) {
  auto all = a.gather(0);
  REQUIRE(all.has_value());
  return std::move(*all);
}

template <class P, dtl::size_type N>
void array_on_device(const dtl::context& ctx) {
  CAPTURE(N);
  using array = dtl::distributed_array<float, N, P>;
  static_assert(array::extent == N && array::is_device_accessible());
  const bool root = ctx.rank() == 0;
  array a(ctx);
  CHECK(a.local_size() == a.local_size_for_rank(ctx.rank()));
  CHECK(a.has_device_affinity() == !P::host_accessible);  // managed memory has none (upstream's rule)
  if constexpr (std::is_same_v<P, dtl::device_only<0>>)
    CHECK(a.device_id() == 0);
  else
    CHECK(a.device_id() == ctx.device());
  const auto dv = a.device_view();
  CHECK(dv.data() == a.local_data());
  CHECK(dv.size() == a.local_size());
  // Value-initialised, then the algorithms.
  std::vector<float> host = a.copy_to_host().value();
  CHECK(std::all_of(host.begin(), host.end(), [](float x) { return x == 0.0f; }));
  REQUIRE(dtl::fill(a, 1.5f).has_value());
  CHECK(dtl::reduce(a, 0.0f) == 1.5f * static_cast<float>(N));
  REQUIRE(dtl::iota(a, 0.0f).has_value());
  REQUIRE(dtl::transform(a, a, [] __device__(float x) {
            return static_cast<float>(static_cast<int>(x) % 97) - 40.0f;
          }).has_value());
  std::vector<float> ref(N);
  for (std::size_t g = 0; g < ref.size(); ++g) ref[g] = static_cast<float>(static_cast<int>(g) % 97) - 40.0f;
  if (root)
    CHECK(all_of_array(a) == ref);
  else
    static_cast<void>(all_of_array(a));
  CHECK(dtl::reduce(a, 0.0f) == std::accumulate(ref.begin(), ref.end(), 0.0f));
  CHECK(dtl::count_if(a, [] __device__(float x) { return x < 0.0f; }) ==
        static_cast<std::size_t>(std::count_if(ref.begin(), ref.end(), [](float x) { return x < 0.0f; })));
  REQUIRE(dtl::sort(a).has_value());
  CHECK(dtl::is_sorted(a));
  std::sort(ref.begin(), ref.end());
  if (root)
    CHECK(all_of_array(a) == ref);
  else
    static_cast<void>(all_of_array(a));

  // A span over the array, captured by value in a device lambda: out[g] = 2 * a[g].
  const dtl::distributed_span<const float> s = dtl::make_distributed_span(static_cast<const array&>(a));
  CHECK(s.data() == a.local_data());
  CHECK(s.size() == N);
  CHECK(s.global_offset() == static_cast<std::size_t>(a.global_offset()));
  dtl::distributed_vector<float, P> out(N, ctx);
  REQUIRE(dtl::for_each_indexed(out, [s] __device__(std::size_t g, float& x) {
            x = 2.0f * s[g - s.global_offset()];
          }).has_value());
  std::vector<float> doubled = ref;
  for (float& x : doubled) x *= 2.0f;
  auto out_all = out.gather(0);
  REQUIRE(out_all.has_value());
  if (root) CHECK(*out_all == doubled);
  // A global subspan's local part points into the same device block.
  const auto tail = s.last(N / 3);
  CHECK(tail.size() == N / 3);
  const std::size_t begin = s.global_offset(), end = begin + s.local_size(), cut = N - N / 3;
  const std::size_t lo = std::clamp(begin, cut, std::size_t{N}), hi = std::clamp(end, cut, std::size_t{N});
  CHECK(tail.local_size() == hi - lo);
  if (tail.local_size() != 0) CHECK(tail.data() == a.local_data() + (lo - begin));
  // Arrays and vectors of one layout meet; the local segment is the device block.
  REQUIRE(dtl::transform(a, out, a, [] __device__(float x, float y) { return y - x; }).has_value());
  if (root)
    CHECK(all_of_array(a) == ref);
  else
    static_cast<void>(all_of_array(a));
  CHECK(a.segmented_view().local_segment().data == a.local_data());
  // (value, ctx) on the device.
  array b(4.0f, ctx);
  CHECK(dtl::reduce(b, 0.0f) == 4.0f * static_cast<float>(N));
}

template <class P>
void placement_checks(const dtl::context& ctx) {
  array_on_device<P, 0>(ctx);
  array_on_device<P, 1>(ctx);
  array_on_device<P, 257>(ctx);
  array_on_device<P, 100003>(ctx);
}

}  // namespace

TEST_SUITE("gpu.array_span") {
  TEST_CASE("device_only<0>") { placement_checks<dtl::device_only<0>>(test_support::world()); }
  TEST_CASE("device_only_runtime") { placement_checks<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("upstream's communicator forms on device_only_runtime") {
    const auto ctx = test_support::world();
    const auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const std::size_t n = 100003;
    dtl::distributed_vector<long, dtl::device_only_runtime> v(n, ctx);
    REQUIRE(dtl::iota(v, 0L).has_value());
    const long sum = static_cast<long>(n) * (static_cast<long>(n) - 1) / 2;
    const long first = static_cast<long>(v.global_offset()), count = static_cast<long>(v.local_size());
    CHECK(dtl::global_reduce(dtl::par{}, v, 0L, std::plus<>{}, comm) == sum);
    const dtl::reduce_result<long> both = dtl::distributed_reduce(dtl::seq{}, v, 1L, std::plus<>{}, comm);
    CHECK(both.has_global);
    CHECK(both.global_value == 1 + sum);
    CHECK(both.local_value == 1 + count * first + count * (count - 1) / 2);
    const dtl::reduce_result<long> rooted = dtl::reduce_to(dtl::seq{}, v, 0L, comm, 0);
    CHECK(rooted.has_global == (ctx.rank() == 0));
    CHECK(rooted.global_value == (ctx.rank() == 0 ? sum : 0L));
    const dtl::stable_sort_global_result sorted = dtl::stable_sort_global(dtl::seq{}, v, std::greater<>{}, comm);
    CHECK(sorted.success);
    CHECK(dtl::is_globally_sorted(v, std::greater<>{}, comm));
    auto all = v.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) {
      std::vector<long> want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<long>(n - 1 - i);
      CHECK(*all == want);
    }
  }
  TEST_CASE("unified_memory") {
    const auto ctx = test_support::world();
    placement_checks<dtl::unified_memory>(ctx);
    // Managed memory is host-accessible too: local_view() and the member fill work.
    dtl::distributed_array<float, 10, dtl::unified_memory> m(ctx);
    m.fill(2.0f);
    CHECK(std::all_of(m.local_view().begin(), m.local_view().end(), [](float x) { return x == 2.0f; }));
    CHECK(dtl::reduce(m, 0.0f) == 20.0f);
  }
}
