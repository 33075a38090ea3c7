// SPDX-License-Identifier: MIT
// Stream order (algorithms/detail/outcome.hpp): a device call whose result stays on the device returns
// once its work is enqueued. A chain of such calls gives the serial answer; what reads on the host
// (copy_to_host, gather, clone, global_view, a unified vector's local view) sees every call before it;
// raw interop after the fence (v.synchronize(), ctx.synchronize()) sees it too; a failed enqueued kernel
// is reported by the next call. Meson runs it again under DTL_SYNC_ALGORITHMS=1 (every call waits).
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using i64 = std::int64_t;
using dvec = dtl::distributed_vector<i64, dtl::device_only_runtime>;

// Slow on purpose (a few ms per call at these sizes): a host copy that did not wait would see old values.
constexpr int rounds = 400;
__host__ __device__ inline i64 churn(i64 x) {
  for (int k = 0; k < rounds; ++k) x = (x * 3 + 1) % 1000003;
  return x;
}

std::size_t big() { return test_support::under_sanitizer() ? (std::size_t{1} << 14) : (std::size_t{1} << 22) + 7; }

}  // namespace

TEST_SUITE("gpu.stream_order") {
  TEST_CASE("a chain of device calls without a host wait gives the serial answer") {
    const auto ctx = test_support::world();
    const std::size_t n = big();
    dvec u(n, ctx, dtl::halo{.prev = 1, .next = 1}), w(n, ctx);
    REQUIRE(dtl::iota(u, i64{1}).has_value());                                          // u = i + 1
    REQUIRE(dtl::transform(u, u, [] __device__(i64 x) { return 3 * x; }).has_value());  // 3 (i + 1)
    REQUIRE(dtl::for_each(u, [] __device__(i64 & x) { x = churn(x); }).has_value());    // churn
    REQUIRE(dtl::fill(w, i64{5}).has_value());
    REQUIRE(dtl::transform(u, w, w, [] __device__(i64 a, i64 b) { return a + b; }).has_value());  // w = u + 5
    REQUIRE(u.halo().exchange().has_value());
    REQUIRE(dtl::stencil_transform(u, w, [] __device__(const i64* p) { return p[-1] + p[0] + p[1]; }).has_value());
    REQUIRE(dtl::inclusive_scan(w, w).has_value());
    REQUIRE(dtl::transform(w, w, [] __device__(i64 x) { return x % 1000; }).has_value());
    REQUIRE(dtl::sort(w).has_value());
    for (int k = 0; k < 20; ++k) REQUIRE(dtl::transform(w, w, [] __device__(i64 x) { return x + 1; }).has_value());

    std::vector<i64> uref(n), ref(n);
    for (std::size_t i = 0; i < n; ++i) uref[i] = churn(3 * static_cast<i64>(i + 1));
    for (std::size_t i = 0; i < n; ++i) ref[i] = (i > 0 ? uref[i - 1] : 0) + uref[i] + (i + 1 < n ? uref[i + 1] : 0);
    for (std::size_t i = 1; i < n; ++i) ref[i] += ref[i - 1];
    for (auto& x : ref) x %= 1000;
    std::sort(ref.begin(), ref.end());
    for (auto& x : ref) x += 20;
    const auto all = w.gather(0);
    REQUIRE(all.has_value());
    if (ctx.rank() == 0) CHECK(*all == ref);
  }

  TEST_CASE("host reads right after a call see its result") {
    const auto ctx = test_support::world();
    const std::size_t n = big();
    dvec v(n, ctx);
    const i64 expect = churn(7);
    REQUIRE(dtl::fill(v, i64{7}).has_value());
    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x = churn(x); }).has_value());
    const auto host = v.copy_to_host();
    REQUIRE(host.has_value());
    CHECK(std::count(host->begin(), host->end(), expect) == static_cast<long>(v.local_size()));

    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x = churn(x); }).has_value());
    const auto gathered = v.gather(0);
    REQUIRE(gathered.has_value());
    if (ctx.rank() == 0) CHECK(std::count(gathered->begin(), gathered->end(), churn(expect)) == static_cast<long>(n));

    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x += 1; }).has_value());
    const auto copy = v.clone();
    REQUIRE(copy.has_value());
    const auto cloned = copy->copy_to_host();
    REQUIRE(cloned.has_value());
    CHECK(std::count(cloned->begin(), cloned->end(), churn(expect) + 1) == static_cast<long>(v.local_size()));

    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x = churn(x); }).has_value());
    auto g = v.global_view();
    if (v.local_size() != 0) CHECK(g[v.global_offset() + v.local_size() - 1].get().value() == churn(churn(expect) + 1));
  }

  TEST_CASE("a unified vector's local view right after a call sees its result") {
    const auto ctx = test_support::world();
    const std::size_t n = big();
    dtl::distributed_vector<i64, dtl::unified_memory> m(n, ctx);
    REQUIRE(dtl::fill(m, i64{2}).has_value());
    REQUIRE(dtl::for_each(m, [] __device__(i64 & x) { x = churn(x); }).has_value());
    const auto view = m.local_view();
    CHECK(std::count(view.begin(), view.end(), churn(2)) == static_cast<long>(m.local_size()));
  }

  TEST_CASE("raw interop after the fence sees the result") {
    const auto ctx = test_support::world();
    const std::size_t n = big();
    dvec v(n, ctx);
    REQUIRE(dtl::fill(v, i64{11}).has_value());
    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x = churn(x); }).has_value());
    REQUIRE(v.synchronize().has_value());
    std::vector<i64> host(v.local_size());
    // A copy of our own on a stream of our own, not ordered after the context's stream by anything else.
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
            .value();
    if (!host.empty()) {
      REQUIRE(hipMemcpyAsync(host.data(), v.local_data(), host.size() * sizeof(i64), hipMemcpyDeviceToHost,
                             stream.native_handle()) == hipSuccess);
      REQUIRE(stream.synchronize().has_value());
    }
    CHECK(std::count(host.begin(), host.end(), churn(11)) == static_cast<long>(v.local_size()));

    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x = churn(x); }).has_value());
    REQUIRE(ctx.synchronize().has_value());
    if (!host.empty()) {
      REQUIRE(hipMemcpyAsync(host.data(), v.local_data(), host.size() * sizeof(i64), hipMemcpyDeviceToHost,
                             stream.native_handle()) == hipSuccess);
      REQUIRE(stream.synchronize().has_value());
    }
    CHECK(std::count(host.begin(), host.end(), churn(churn(11))) == static_cast<long>(v.local_size()));
  }

  TEST_CASE("sorts in a chain: the block may be swapped for the alternate buffer, the answer stays serial") {
    const auto ctx = test_support::world();
    // Each vector sorts into its own spare block (kept for its next sort); a and b alternate on one lane.
    const std::size_t n = big();
    dtl::distributed_vector<std::uint32_t, dtl::device_only_runtime> a(n, ctx), b(n, ctx), c(n / 3 + 1, ctx);
    auto scramble = [] __device__(std::uint32_t & x) { x = x * 2654435761u + 12345u; };
    REQUIRE(dtl::iota(a, std::uint32_t{0}).has_value());
    REQUIRE(dtl::iota(b, std::uint32_t{7}).has_value());
    REQUIRE(dtl::iota(c, std::uint32_t{3}).has_value());
    std::vector<std::uint32_t> ra(n), rb(n), rc(n / 3 + 1);
    for (std::size_t i = 0; i < n; ++i) ra[i] = static_cast<std::uint32_t>(i) * 2654435761u + 12345u;
    for (std::size_t i = 0; i < n; ++i) rb[i] = static_cast<std::uint32_t>(i + 7) * 2654435761u + 12345u;
    for (std::size_t i = 0; i < rc.size(); ++i) rc[i] = static_cast<std::uint32_t>(i + 3) * 2654435761u + 12345u;
    for (auto* v : {&a, &b, &c}) REQUIRE(dtl::for_each(*v, scramble).has_value());
    for (int round = 0; round < 3; ++round) {
      REQUIRE(dtl::sort(a).has_value());
      REQUIRE(dtl::sort(b, std::greater<>{}).has_value());
      REQUIRE(dtl::stable_sort(c).has_value());
      REQUIRE(dtl::transform(a, a, [] __device__(std::uint32_t x) { return x ^ 0x5a5a5a5au; }).has_value());
    }
    // The host reference of the same chain.
    for (int round = 0; round < 3; ++round) {
      std::sort(ra.begin(), ra.end());
      std::sort(rb.begin(), rb.end(), std::greater<>{});
      std::sort(rc.begin(), rc.end());
      for (auto& x : ra) x ^= 0x5a5a5a5au;
    }
    const auto ga = a.gather(0), gb = b.gather(0), gc = c.gather(0);
    REQUIRE((ga.has_value() && gb.has_value() && gc.has_value()));
    if (ctx.rank() == 0) {
      CHECK(*ga == ra);
      CHECK(*gb == rb);
      CHECK(*gc == rc);
    }
    // A vector with a global_view keeps its block (the window is registered on it).
    dtl::distributed_vector<std::uint32_t, dtl::device_only_runtime> d(n, ctx);
    REQUIRE(dtl::iota(d, std::uint32_t{0}).has_value());
    REQUIRE(dtl::for_each(d, scramble).has_value());
    auto view = d.global_view();
    const std::uint32_t* before = d.local_data();
    REQUIRE(dtl::sort(d).has_value());
    CHECK(d.local_data() == before);
    std::vector<std::uint32_t> rd(n);
    for (std::size_t i = 0; i < n; ++i) rd[i] = static_cast<std::uint32_t>(i) * 2654435761u + 12345u;
    std::sort(rd.begin(), rd.end());
    if (d.local_size() != 0) CHECK(view[d.global_offset()].get().value() == rd[d.global_offset()]);
  }

  TEST_CASE("value results wait for the calls before them") {
    const auto ctx = test_support::world();
    const std::size_t n = big();
    dvec v(n, ctx);
    REQUIRE(dtl::fill(v, i64{3}).has_value());
    REQUIRE(dtl::for_each(v, [] __device__(i64 & x) { x = churn(x); }).has_value());
    CHECK(dtl::reduce(v, i64{0}) == churn(3) * static_cast<i64>(n));
    REQUIRE(dtl::transform(v, v, [] __device__(i64 x) { return x + 1; }).has_value());
    CHECK(dtl::count(v, churn(3) + 1) == n);
  }
}

#if DTL_TEST_TRAPS  // tests/meson.build: HIP on NVIDIA
namespace {
bool sync_mode() {
  const char* v = std::getenv("DTL_SYNC_ALGORITHMS");
  return v != nullptr && std::string_view(v) == "1";
}
}  // namespace

// A kernel that traps leaves the device unusable for the rest of the process: its own suite and row.
TEST_SUITE("gpu.stream_order_fault") {
  TEST_CASE("a failed enqueued kernel is reported by the next call and by the fence") {
    const auto ctx = test_support::world();
    dvec v(1024, ctx);
    REQUIRE(dtl::iota(v, i64{0}).has_value());
    const auto trapped = dtl::for_each(v, [] __device__(i64 & x) {
      if (x == 3) __trap();
    });
    if (sync_mode()) {
      CHECK_FALSE(trapped.has_value());  // every call waits: the call itself reports it
    } else {
      CHECK(trapped.has_value());                                   // returned once enqueued
      std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the kernel has failed by now
    }
    const auto next = dtl::fill(v, i64{1});
    REQUIRE_FALSE(next.has_value());
    MESSAGE("the next call: " << next.error().to_string());
    CHECK_FALSE(v.synchronize().has_value());
    CHECK_FALSE(ctx.synchronize().has_value());
  }
}
#endif
