// SPDX-License-Identifier: MIT
// Write once, run on the GPU or the host: each case is one function template of its placement, called
// through dtl::with_device_or_host with DTL_LAMBDAs, as a user's program is written. The C++ compiler
// builds this file without HIP, the kernel compiler with it (tests/meson.build); it never skips: without
// a GPU it runs on the host. 1 to 3 MPI ranks. Also the one status of a device placement without a GPU.
#include "test_environment.hpp"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace write_once {

/// What with_device_or_host must choose: the GPU when every rank's context has one.
bool every_rank_has_gpu(const dtl::context& ctx) {
  return DTL_CONTAINERS_HAS_HIP != 0 && ctx.allreduce_value(ctx.has_device() ? 1 : 0, dtl::reduce_op::min).value() == 1;
}

/// y = a*x + y with x = 1 and y = i, then the sum on every rank: 2n + n(n-1)/2, exact in doubles.
template <class P>
void saxpy_reduce(const dtl::context& ctx, P) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{100003}}) {
    CAPTURE(n);
    const double a = 2.0;
    dtl::distributed_vector<double, P> x(n, 1.0, ctx), y(n, ctx);
    REQUIRE(dtl::iota(y, 0.0).has_value());
    const auto saxpy = DTL_LAMBDA(double xi, double yi) { return a * xi + yi; };
    REQUIRE(dtl::transform(x, y, y, saxpy).has_value());
    const double nd = static_cast<double>(n);
    CHECK(dtl::reduce(y, 0.0) == 2.0 * nd + nd * (nd - 1.0) / 2.0);
    const auto above_ten = DTL_LAMBDA(double v) { return v > 10.0 ? 1.0 : 0.0; };
    CHECK(dtl::transform_reduce(y, 0.0, dtl::reduce_sum<>{}, above_ten) == (n > 9 ? nd - 9.0 : 0.0));  // 2 + i > 10
  }
}

std::uint32_t key_of(std::size_t i) { return static_cast<std::uint32_t>((i * 2654435761u) % 1000003u); }

/// Keys scattered over the ranks, sorted, against std::sort of the same keys.
template <class P>
void sort_keys(const dtl::context& ctx, P) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{100003}}) {
    CAPTURE(n);
    dtl::distributed_vector<std::uint32_t, P> keys(n, ctx);
    std::vector<std::uint32_t> mine(keys.local_size());
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = key_of(keys.global_offset() + i);
    REQUIRE(keys.copy_from_host(mine.data(), mine.size()).has_value());
    const auto descending = DTL_LAMBDA(std::uint32_t l, std::uint32_t r) { return l > r; };
    REQUIRE(dtl::sort(keys, descending).has_value());
    CHECK(dtl::is_sorted(keys, descending));
    const std::vector<std::uint32_t> all = keys.gather(0).value();
    if (ctx.rank() == 0) {
      std::vector<std::uint32_t> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = key_of(i);
      std::sort(expected.begin(), expected.end(), [](std::uint32_t l, std::uint32_t r) { return l > r; });
      CHECK(all == expected);
    }
  }
}

/// A periodic halo of one element exchanged, then w[i] = u[i-1] + u[i+1] with u[i] = i.
template <class P>
void halo_stencil(const dtl::context& ctx, P) {
  const std::size_t n = 1001;
  const dtl::halo one{.prev = 1, .next = 1, .periodic = true};
  dtl::distributed_vector<double, P> u(n, ctx, one), w(n, ctx, one);
  REQUIRE(dtl::iota(u, 0.0).has_value());
  REQUIRE(u.halo().exchange().has_value());
  const auto neighbours = DTL_LAMBDA(const double* p) { return p[-1] + p[1]; };
  REQUIRE(dtl::stencil_transform(u, w, neighbours).has_value());
  const std::vector<double> all = w.gather(0).value();
  if (ctx.rank() == 0) {
    REQUIRE(all.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      CHECK(all[i] == static_cast<double>((i + n - 1) % n + (i + 1) % n));
    }
  }
}

void check_hint(const dtl::status& s) {
  CAPTURE(s.to_string());
  CHECK(s.code() == dtl::status_code::backend_not_available);
  CHECK(std::string(s.message()).find("dtl::host_only") != std::string::npos);
  CHECK(std::string(s.message()).find("dtl::with_device_or_host") != std::string::npos);
}

}  // namespace write_once

TEST_SUITE("device_or_host") {
  TEST_CASE("with_device_or_host takes the GPU when every rank has one, the host otherwise") {
    const auto ctx = test_support::world();
    const auto on_device = [](auto placement) { return decltype(placement)::device_accessible; };
    CHECK(dtl::with_device_or_host(ctx, on_device) == write_once::every_rank_has_gpu(ctx));
    CHECK_FALSE(dtl::with_device_or_host(dtl::make_cpu_context(), on_device));
    CHECK(dtl::check_device_placement(ctx).ok() == write_once::every_rank_has_gpu(ctx));
  }

  TEST_CASE("transform, transform_reduce and reduce, written once") {
    const auto ctx = test_support::world();
    dtl::with_device_or_host(ctx, [&](auto placement) { write_once::saxpy_reduce(ctx, placement); });
  }

  TEST_CASE("sort with a DTL_LAMBDA comparator, written once") {
    const auto ctx = test_support::world();
    dtl::with_device_or_host(ctx, [&](auto placement) { write_once::sort_keys(ctx, placement); });
  }

  TEST_CASE("halo exchange and stencil_transform, written once") {
    const auto ctx = test_support::world();
    dtl::with_device_or_host(ctx, [&](auto placement) { write_once::halo_stencil(ctx, placement); });
  }

  TEST_CASE("a device placement without a device: backend_not_available, naming the host placement") {
    const auto none = dtl::make_cpu_context();
    write_once::check_hint(dtl::check_device_placement(none));
#if DTL_CONTAINERS_HAS_HIP
    write_once::check_hint(dtl::distributed_vector<float, dtl::device_only_runtime>::create(10, none).error());
    if (dtl::hip::device_count() == 0) {  // no GPU in this process: the placements that name their device too
      const auto ctx = test_support::world();
      write_once::check_hint(dtl::distributed_vector<float, dtl::device_only<0>>::create(10, ctx).error());
      write_once::check_hint(dtl::distributed_vector<float, dtl::device_preferred>::create(10, ctx).error());
      write_once::check_hint(dtl::distributed_vector<float, dtl::unified_memory>::create(10, ctx).error());
    }
#endif
  }
}
