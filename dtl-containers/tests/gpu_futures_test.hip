// SPDX-License-Identifier: MIT
// Upstream DTL's futures over GPU work: the async_* forms on device placements return once the work is
// enqueued, and their distributed_futures complete through the HIP progress engine, which waiting on
// them (or on then() / when_all made from them) drives; checked against a host reference.
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/futures/futures.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <tuple>
#include <vector>

using namespace std::chrono_literals;

namespace {

template <class P>
void futures_on(const dtl::context& ctx) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{3}, std::size_t{100003}}) {
    CAPTURE(n);
    dtl::distributed_vector<float, P> v(n, 1.0f, ctx);
    auto doubled = dtl::async_for_each(v, [] __device__(float& x) { x = 2 * x; });
    // A reduce chained after the for_each: the continuation runs once the GPU work is done.
    auto sum = doubled.then([&v] { return dtl::reduce(v, 0.0f); });
    CHECK(sum.wait_for(60s) == dtl::future_status::ready);
    CHECK(sum.get() == doctest::Approx(2.0 * static_cast<double>(n)));

    dtl::distributed_vector<float, P> w(n, ctx);
    REQUIRE(dtl::async_transform(v, w, [] __device__(float x) { return x + 1; }).get_result().has_value());
    auto all = dtl::when_all(
        dtl::async_reduce(w, 0.0f), dtl::async_reduce(w, 0.0f, dtl::reduce_max<float>{}),
        dtl::async_transform_reduce(w, 0.0, std::plus<>{}, [] __device__(float x) { return double(x) * x; }));
    auto [total, largest, squares] = all.get();
    CHECK(total == doctest::Approx(3.0 * static_cast<double>(n)));
    CHECK(largest == (n == 0 ? 0.0f : 3.0f));
    CHECK(squares == doctest::Approx(9.0 * static_cast<double>(n)));
    const auto host = w.copy_to_host().value();
    CHECK(host == std::vector<float>(w.local_size(), 3.0f));
  }
}

}  // namespace

TEST_SUITE("gpu.futures") {
  TEST_CASE("device_only_runtime") { futures_on<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("unified_memory") { futures_on<dtl::unified_memory>(test_support::world()); }
  TEST_CASE("a failure on the device path fails the future") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<float, dtl::device_only_runtime> a(10, ctx);
    dtl::distributed_vector<float, dtl::device_only_runtime> b(11, ctx);
    auto f = dtl::async_transform(a, b, [] __device__(float x) { return x; });
    CHECK(f.get_result().error().code() == dtl::status_code::extent_mismatch);
  }
}
