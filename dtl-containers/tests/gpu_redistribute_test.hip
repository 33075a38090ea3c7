// SPDX-License-Identifier: MIT
// redistribute() and resize() of device vectors (device_only_runtime, device_only<0>, unified_memory):
// one rank (self, a one-rank RCCL/NCCL communicator, MPI staged) and two ranks sharing the GPU (the MPI
// paths). The elements against a serial reference, the layout after, the device and the memory in use
// (old and new block at the peak, only the new one after), algorithms on the irregular layout, and bad
// sizes giving one status on every rank with the vector as it was. Compiled by dtl-hip-kc.
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

using sizes_t = std::vector<std::size_t>;

template <class V>
std::vector<std::int64_t> everything(const V& v) {
  auto all = v.gather(0).value();
  std::size_t n = all.size();
  REQUIRE(v.get_context().broadcast(&n, 1, 0).has_value());
  all.resize(n);
  REQUIRE(v.get_context().broadcast(all.data(), n, 0).has_value());
  return all;
}

std::vector<std::int64_t> iota_ref(std::size_t n, std::int64_t first) {
  std::vector<std::int64_t> ref(n);
  std::iota(ref.begin(), ref.end(), first);
  return ref;
}

sizes_t even_sizes(std::size_t n, int ranks) {
  const auto p = dtl::block_partition<>::create(n, ranks).value();
  sizes_t sizes;
  for (int r = 0; r < ranks; ++r) sizes.push_back(p.local_range(r).value().size());
  return sizes;
}

std::vector<sizes_t> layouts(std::size_t n, int p) {
  std::vector<sizes_t> out;
  for (int r = 0; r < p; ++r) {
    sizes_t s(static_cast<std::size_t>(p), 0);
    s[static_cast<std::size_t>(r)] = n;
    out.push_back(s);
  }
  sizes_t skewed(static_cast<std::size_t>(p), 0);
  skewed[0] = n / 5;
  skewed.back() += n - n / 5;
  out.push_back(skewed);
  out.push_back(even_sizes(n, p));
  return out;
}

int current_device() { return dtl::hip::current_device().value(); }

template <class P>
void check_placement(const dtl::context& ctx) {
  using V = dtl::distributed_vector<std::int64_t, P>;
  const int p = ctx.size();
  auto space = dtl::shared_memory_space<P>(ctx).value();
  const auto before = space->stats().bytes_in_use;
  const int caller = current_device();
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000003}}) {
    CAPTURE(n);
    {
      V v(n, ctx);
      const int device = v.device_id();
      REQUIRE(dtl::iota(v, std::int64_t{1}).has_value());
      const auto ref = iota_ref(n, 1);
      for (const sizes_t& sizes : layouts(n, p)) {
        REQUIRE(v.redistribute(sizes).has_value());
        CHECK(v.local_size() == sizes[static_cast<std::size_t>(ctx.rank())]);
        CHECK(v.device_id() == device);
        CHECK(current_device() == caller);
        CHECK(space->stats().bytes_in_use == before + v.local_size() * sizeof(std::int64_t));
        CHECK(everything(v) == ref);
        // Algorithms on the layout: against the serial reference.
        const auto N = static_cast<std::int64_t>(n);
        CHECK(dtl::reduce(v, std::int64_t{0}) == N * (N + 1) / 2);
        V w(n, ctx);
        REQUIRE(w.redistribute(sizes).has_value());
        REQUIRE(dtl::inclusive_scan(v, w, std::int64_t{0}).has_value());
        std::vector<std::int64_t> inc(n);
        std::inclusive_scan(ref.begin(), ref.end(), inc.begin());
        CHECK(everything(w) == inc);
        REQUIRE(dtl::transform(v, w, [] __device__(std::int64_t x) { return 3 * x; }).has_value());
        CHECK(dtl::reduce(w, std::int64_t{0}) == 3 * (N * (N + 1) / 2));
        // The sort keeps the layout; the search, the extremes and the dot product see it.
        REQUIRE(dtl::transform(v, w, [N] __device__(std::int64_t x) { return N + 1 - x; }).has_value());
        REQUIRE(dtl::sort(w).has_value());
        CHECK(w.local_size() == sizes[static_cast<std::size_t>(ctx.rank())]);
        CHECK(everything(w) == ref);
        CHECK(dtl::is_sorted(w));
        if (n > 0) {
          const auto hit = dtl::find(v, static_cast<std::int64_t>(n / 2) + 1);
          REQUIRE(hit.found);
          CHECK(hit.global_index == static_cast<std::ptrdiff_t>(n / 2));
          CHECK(hit.owner_rank == v.owner(n / 2).value());
          const auto extremes = dtl::minmax_element(v);
          CHECK(extremes.min.value == 1);
          CHECK(extremes.max.value == N);
          CHECK(extremes.max.owner_rank == v.owner(n - 1).value());
        }
        CHECK(dtl::dot(v, v) == N * (N + 1) * (2 * N + 1) / 6);
      }
      REQUIRE(v.redistribute().has_value());
      CHECK(everything(v) == ref);
      // resize: grow with a value, shrink, to 0, from 0.
      std::vector<std::int64_t> grown = ref;
      grown.resize(n + 1001, -7);
      REQUIRE(v.resize(n + 1001, std::int64_t{-7}).has_value());
      CHECK(everything(v) == grown);
      REQUIRE(v.resize(n / 2).has_value());
      grown.resize(n / 2);
      CHECK(everything(v) == grown);
      REQUIRE(v.resize(0).has_value());
      CHECK(v.local_size() == 0);
      REQUIRE(v.resize(33).has_value());
      CHECK(everything(v) == std::vector<std::int64_t>(33, 0));
      CHECK(v.device_id() == device);
      CHECK(current_device() == caller);
      // Bad sizes: invalid_argument on every rank, the vector as it was.
      const auto range = v.local_range();
      sizes_t wrong = even_sizes(33, p);
      wrong[0] += 1;
      const auto bad = v.redistribute(wrong);
      REQUIRE_FALSE(bad.has_value());
      CHECK(bad.error() == dtl::status_code::invalid_argument);
      CHECK(ctx.allreduce_value(static_cast<int>(bad.error().code()), dtl::reduce_op::min).value() ==
            static_cast<int>(dtl::status_code::invalid_argument));
      CHECK(v.local_range() == range);
      CHECK(everything(v) == std::vector<std::int64_t>(33, 0));
    }
    CHECK(space->stats().bytes_in_use == before);
  }
}

}  // namespace

TEST_SUITE("gpu.redistribute") {
  TEST_CASE("device_only_runtime") {
    const auto ctx = test_support::world();
    REQUIRE(ctx.has_device());
    check_placement<dtl::device_only_runtime>(ctx);
  }
  TEST_CASE("device_only<0>") {
    const auto ctx = test_support::world();
    // Only where every rank is on GPU 0 (decided together: a rank that left alone would hang the others).
    if (ctx.allreduce_value(ctx.device() == 0 ? 1 : 0, dtl::reduce_op::min).value() == 0) return;
    check_placement<dtl::device_only<0>>(ctx);
  }
  TEST_CASE("device_only_runtime with a halo: a new plan, the exchange fills the new neighbours' edges") {
    const auto ctx = test_support::world();
    const int p = ctx.size();
    const std::size_t n = 4096 * static_cast<std::size_t>(p);
    dtl::distributed_vector<std::int64_t, dtl::device_only_runtime> v(n, ctx, dtl::halo{.prev = 2, .next = 2});
    REQUIRE(dtl::iota(v, std::int64_t{1}).has_value());
    for (const sizes_t& sizes : layouts(n, p)) {
      REQUIRE(v.redistribute(sizes).has_value());
      CHECK(everything(v) == iota_ref(n, 1));
      REQUIRE(v.halo().exchange().has_value());
      if (v.local_size() == 0) continue;
      std::vector<std::int64_t> g(v.local_size_with_ghosts());
      REQUIRE(v.synchronize().has_value());  // the exchange returns once enqueued; the raw copy needs the fence
      REQUIRE(dtl::hip::hip_memory_transfer::copy(g.data(), v.local_data_with_ghosts(), g.size() * sizeof(std::int64_t),
                                                  dtl::transfer_kind::device_to_host)
                  .has_value());
      const auto first = static_cast<std::int64_t>(v.global_offset());
      const auto end = first + static_cast<std::int64_t>(v.local_size());
      CHECK(g[1] == (first > 0 ? first : 0));  // element first - 1 holds first
      CHECK(g[2] == first + 1);
      CHECK(g[g.size() - 2] == (end < static_cast<std::int64_t>(n) ? end + 1 : 0));
    }
  }
  TEST_CASE("unified_memory") {
    const auto ctx = test_support::world();
    const int managed = dtl::hip::get_device_properties(ctx.device()).value().managed_memory ? 1 : 0;
    if (ctx.allreduce_value(managed, dtl::reduce_op::min).value() == 0) return;
    check_placement<dtl::unified_memory>(ctx);
  }
}
