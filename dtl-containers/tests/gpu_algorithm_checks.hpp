// SPDX-License-Identifier: MIT
#pragma once
// The checks of every algorithm on the GPU against a sequential host reference, under every policy, for
// one placement. Each gpu_algorithms_*_test.hip file runs them for its placements (one file per
// placement, so that the kernel compiler builds them in parallel). Compiled by dtl-hip-kc only.
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

namespace algorithm_checks {

// Under compute-sanitizer (scripts/gpu-check), which runs kernels far slower, the largest size is left out.
inline const std::vector<std::size_t> sizes = test_support::under_sanitizer()
                                                  ? std::vector<std::size_t>{0, 1, 2, 3, 255, 257}
                                                  : std::vector<std::size_t>{0, 1, 2, 3, 255, 257, 1000003};

/// Runs `policy` and gets the outcome: waits for futures, and for on_stream work.
template <class Outcome>
auto settle(Outcome outcome, dtl::hip::hip_stream* stream = nullptr) {
  if constexpr (dtl::is_result_v<Outcome>) {
    if (stream != nullptr) REQUIRE(stream->synchronize().has_value());
    return outcome;
  } else {
    return outcome.get_result(std::chrono::seconds(60));
  }
}

template <class V>
auto host_copy(const V& v) {
  return v.copy_to_host().value();
}

struct bit_or {  // no native collective: combined through the host, folded on the device
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a | b; }
};

template <class P, class Policy>
void elementwise(const dtl::context& ctx, Policy policy, dtl::hip::hip_stream* stream) {
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    dtl::distributed_vector<float, P> a(n, ctx), b(n, ctx);
    REQUIRE(settle(dtl::fill(policy, a, 1.5f), stream).has_value());
    CHECK(host_copy(a) == std::vector<float>(n, 1.5f));
    REQUIRE(settle(dtl::iota(policy, a, 3), stream).has_value());
    std::vector<float> ref(n);
    std::iota(ref.begin(), ref.end(), 3.0f);
    CHECK(host_copy(a) == ref);
    REQUIRE(settle(dtl::for_each(policy, a, [] __device__(float& x) { x = 2 * x; }), stream).has_value());
    for (auto& x : ref) x *= 2;
    CHECK(host_copy(a) == ref);
    REQUIRE(settle(dtl::for_each_indexed(policy, b,
                                         [] __device__(std::size_t i, float& x) { x = static_cast<float>(i % 7); }),
                   stream)
                .has_value());
    REQUIRE(
        settle(dtl::transform(policy, a, b, a, [] __device__(float x, float y) { return x - y; }), stream).has_value());
    for (std::size_t i = 0; i < n; ++i) ref[i] -= static_cast<float>(i % 7);
    CHECK(host_copy(a) == ref);
    REQUIRE(settle(dtl::transform(policy, a, b, [] __host__ __device__(float x) { return 0.5f * x + 1.0f; }), stream)
                .has_value());
    for (auto& x : ref) x = 0.5f * x + 1.0f;
    CHECK(host_copy(b) == ref);
    REQUIRE(settle(dtl::transform(policy, b, b, [] __device__(float x) { return x + 1.0f; }), stream)
                .has_value());  // in place
    for (auto& x : ref) x += 1.0f;
    CHECK(host_copy(b) == ref);
    dtl::distributed_vector<float, P> c(n, ctx);
    REQUIRE(settle(dtl::copy(policy, b, c), stream).has_value());
    CHECK(host_copy(c) == ref);
    dtl::distributed_vector<float> on_host(n, ctx);
    REQUIRE(settle(dtl::copy(policy, c, on_host), stream).has_value());  // device to host
    CHECK(std::vector<float>(on_host.local_view().begin(), on_host.local_view().end()) == ref);
  }
}

template <class P, class Policy>
void reductions(const dtl::context& ctx, Policy policy, dtl::hip::hip_stream* stream) {
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    dtl::distributed_vector<std::int64_t, P> v(n, ctx);
    REQUIRE(settle(dtl::iota(policy, v, 1), stream).has_value());
    const auto N = static_cast<std::int64_t>(n);
    CHECK(settle(dtl::try_reduce(policy, v, std::int64_t{10}), stream).value() == 10 + N * (N + 1) / 2);
    CHECK(settle(dtl::try_reduce(policy, v, std::int64_t{1} << 40, dtl::reduce_min<std::int64_t>{}), stream).value() ==
          (n == 0 ? std::int64_t{1} << 40 : 1));
    CHECK(settle(dtl::try_reduce(policy, v, std::int64_t{0}, dtl::reduce_max<>{}), stream).value() == N);
    if (n <= 20) {
      std::int64_t factorial = 1;
      for (std::int64_t i = 2; i <= N; ++i) factorial *= i;
      CHECK(settle(dtl::try_reduce(policy, v, std::int64_t{2}, std::multiplies<>{}), stream).value() == 2 * factorial);
    }
    const auto user =
        settle(dtl::try_reduce(policy, v, std::int64_t{5},
                               [] __host__ __device__(std::int64_t a, std::int64_t b) { return a > b ? a : b; }),
               stream);
    CHECK(user.value() == std::max<std::int64_t>(5, N));
    const auto both = settle(dtl::try_distributed_reduce(policy, v, std::int64_t{0}, std::plus<>{}), stream).value();
    CHECK(both.has_global);
    CHECK(both.global_value == N * (N + 1) / 2);
    CHECK(both.local_value == N * (N + 1) / 2);
    CHECK(settle(dtl::try_local_reduce(policy, v, std::int64_t{1}), stream).value() == 1 + N * (N + 1) / 2);
    CHECK(settle(dtl::try_transform_reduce(policy, v, 0.0, std::plus<>{},
                                           [] __device__(std::int64_t x) { return 0.5 * static_cast<double>(x); }),
                 stream)
              .value() == doctest::Approx(0.25 * static_cast<double>(N * (N + 1))));
    CHECK(settle(dtl::try_count_if(policy, v, [] __device__(std::int64_t x) { return x % 3 == 0; }), stream).value() ==
          n / 3);
    dtl::distributed_vector<std::uint32_t, P> bits(n, ctx);
    REQUIRE(settle(dtl::for_each_indexed(policy, bits,
                                         [] __device__(std::size_t i, std::uint32_t & x) { x = 1u << (i % 17); }),
                   stream)
                .has_value());
    CHECK(settle(dtl::try_reduce(policy, bits, std::uint32_t{1u << 30}, bit_or{}), stream).value() ==
          ((1u << 30) | (n >= 17 ? 0x1FFFFu : (1u << n) - 1u)));
  }
}

template <class P, class Policy>
void scans(const dtl::context& ctx, Policy policy, dtl::hip::hip_stream* stream) {
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    dtl::distributed_vector<std::int64_t, P> in(n, ctx), out(n, ctx);
    REQUIRE(settle(dtl::iota(policy, in, 1), stream).has_value());
    std::vector<std::int64_t> x = host_copy(in), inc(n), exc(n), mx(n);
    std::inclusive_scan(x.begin(), x.end(), inc.begin(), std::plus<>{}, std::int64_t{7});
    std::exclusive_scan(x.begin(), x.end(), exc.begin(), std::int64_t{7});
    REQUIRE(settle(dtl::inclusive_scan(policy, in, out, 7), stream).has_value());
    CHECK(host_copy(out) == inc);
    REQUIRE(settle(dtl::exclusive_scan(policy, in, out, 7), stream).has_value());
    CHECK(host_copy(out) == exc);
    auto op = [] __host__ __device__(std::int64_t a, std::int64_t b) { return a > b ? a : b; };
    std::inclusive_scan(x.begin(), x.end(), mx.begin(), op, std::int64_t{100});
    REQUIRE(settle(dtl::inclusive_scan(policy, in, in, 100, op), stream).has_value());  // in place, user op
    CHECK(host_copy(in) == mx);
  }
}

template <class P>
void every_policy(const dtl::context& ctx) {
  dtl::hip::hip_stream stream =
      dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
          .value();
  SUBCASE("seq") {
    elementwise<P>(ctx, dtl::seq{}, nullptr);
    reductions<P>(ctx, dtl::seq{}, nullptr);
    scans<P>(ctx, dtl::seq{}, nullptr);
  }
  SUBCASE("par") {
    elementwise<P>(ctx, dtl::par{}, nullptr);
    reductions<P>(ctx, dtl::par{}, nullptr);
    scans<P>(ctx, dtl::par{}, nullptr);
  }
  SUBCASE("async") {
    elementwise<P>(ctx, dtl::async{}, nullptr);
    reductions<P>(ctx, dtl::async{}, nullptr);
    scans<P>(ctx, dtl::async{}, nullptr);
  }
  SUBCASE("on_stream") {
    elementwise<P>(ctx, dtl::on_stream{stream}, &stream);
    reductions<P>(ctx, dtl::on_stream{stream}, &stream);
    scans<P>(ctx, dtl::on_stream{stream}, &stream);
  }
}

}  // namespace algorithm_checks
