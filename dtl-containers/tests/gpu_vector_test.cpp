// SPDX-License-Identifier: MIT
// distributed_vector on the GPU, one rank: every device placement, views, copies, statistics, and the
// bad inputs (a device that does not exist, more memory than the device has). Built by the C++ compiler:
// construction and fills need no kernel of ours.
#include "names_device.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/device.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

template <class V>
concept has_local_view = requires(V& v) {
  v.local_view();
};
template <class V>
concept has_device_view = requires(V& v) {
  v.device_view();
};

template <class P>
constexpr bool capabilities(bool host, bool device) {
  using V = dtl::distributed_vector<float, P>;
  return has_local_view<V> == host && has_device_view<V> == device && V::is_host_accessible() == host &&
         V::is_device_accessible() == device;
}
static_assert(capabilities<dtl::host_only>(true, false));
static_assert(capabilities<dtl::device_only<0>>(false, true));
static_assert(capabilities<dtl::device_only<3>>(false, true));
static_assert(capabilities<dtl::device_only_runtime>(false, true));
static_assert(capabilities<dtl::unified_memory>(true, true));
static_assert(capabilities<dtl::device_preferred>(true, true));
static_assert(std::is_trivially_copyable_v<dtl::device_view<float>>);

int current_device() { return dtl::hip::current_device().value(); }

template <class P>
void check_placement(const dtl::context& ctx, int expected_device) {
  using V = dtl::distributed_vector<double, P>;
  auto space = dtl::shared_memory_space<P>(ctx).value();
  const auto before = space->stats();
  const int caller = current_device();
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000003}}) {
    {
      V zeros(n, ctx);
      CHECK(current_device() == caller);
      CHECK(zeros.device_id() == expected_device);
      CHECK(zeros.has_device_affinity() == !P::host_accessible);  // upstream's: device placements only
      CHECK(zeros.local_size() == n);
      CHECK(space->stats().bytes_in_use == before.bytes_in_use + n * sizeof(double));
      // Upstream's allocator: the space the block came from, on its device; its memory is that space's.
      static_assert(std::is_same_v<typename V::allocator_type, dtl::select_allocator_t<double, P>>);
      const auto alloc = zeros.get_allocator();
      CHECK(alloc.space() == space);
      CHECK(alloc == dtl::allocator_for<double, P>(ctx).value());
      CHECK(alloc.space_properties().device_id == zeros.device_id());
      const std::size_t in_use = space->stats().bytes_in_use;
      double* p = alloc.allocate(n + 1);
      CHECK(space->stats().bytes_in_use == in_use + (n + 1) * sizeof(double));
      CHECK(space->contains(p).value());
      alloc.deallocate(p, n + 1);
      CHECK(space->stats().bytes_in_use == in_use);
      const auto host = zeros.copy_to_host().value();
      CHECK(std::all_of(host.begin(), host.end(), [](double x) { return x == 0.0; }));
      V values(n, 2.5, ctx);
      auto back = values.copy_to_host().value();
      CHECK(std::all_of(back.begin(), back.end(), [](double x) { return x == 2.5; }));
      for (std::size_t i = 0; i < n; ++i) back[i] = static_cast<double>(i);
      REQUIRE(zeros.copy_from_host(back.data(), back.size()).has_value());
      auto copy = zeros.clone().value();
      CHECK(copy.copy_to_host().value() == back);
      CHECK(zeros.gather(0).value() == back);
      REQUIRE(dtl::fill(values, -1.0).has_value());
      CHECK(values.copy_to_host().value() == std::vector<double>(n, -1.0));
      if (n > 0) {
        auto g = zeros.global_view();
        CHECK(g[n - 1].get().value() == static_cast<double>(n - 1));
        REQUIRE(g[0].put(42.0).has_value());
        CHECK(g[0].get().value() == 42.0);
        CHECK(zeros.device_view().size() == n);
        CHECK(zeros.device_view().device() == expected_device);
      }
      CHECK(current_device() == caller);
    }
    CHECK(space->stats().bytes_in_use == before.bytes_in_use);
  }
}

}  // namespace

TEST_SUITE("gpu.vector") {
  TEST_CASE("every device placement: construction, copies, clone, gather, fill, global_view, statistics") {
    const auto ctx = test_support::world();
    REQUIRE(ctx.has_device());
    check_placement<dtl::device_only<0>>(ctx, 0);
    check_placement<dtl::device_only_runtime>(ctx, ctx.device());
    const auto support = dtl::hip::get_device_properties(ctx.device()).value();
    if (support.managed_memory) {
      check_placement<dtl::unified_memory>(ctx, ctx.device());
    }
    if (support.concurrent_managed_access) {
      check_placement<dtl::device_preferred>(ctx, 0);
    }
  }

  TEST_CASE("the guide's lines") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<float, dtl::device_only<0>> vec(1000, ctx);
    dtl::distributed_vector<float, dtl::unified_memory> vec_unified(1000, ctx);
    CHECK(vec.size() == 1000);
    CHECK(vec_unified.local_view().size() == 1000);
    vec_unified.local_view()[999] = 3.0f;  // the host touches managed memory directly
    CHECK(vec_unified.local_view()[999] == 3.0f);
  }

  TEST_CASE("elements of 1, 2, 12 and 16 bytes are filled on the device") {
    const auto ctx = test_support::world();
    struct rgb {
      float r, g, b;
      bool operator==(const rgb&) const = default;
    };
    struct alignas(16) quad {
      std::int32_t a, b, c, d;
      bool operator==(const quad&) const = default;
    };
    dtl::distributed_vector<std::uint8_t, dtl::device_only<0>> bytes(1001, std::uint8_t{7}, ctx);
    CHECK(bytes.copy_to_host().value() == std::vector<std::uint8_t>(1001, 7));
    dtl::distributed_vector<std::int16_t, dtl::device_only<0>> shorts(1001, std::int16_t{-3}, ctx);
    CHECK(shorts.copy_to_host().value() == std::vector<std::int16_t>(1001, -3));
    dtl::distributed_vector<rgb, dtl::device_only<0>> colours(1001, rgb{1, 2, 3}, ctx);
    CHECK(colours.copy_to_host().value() == std::vector<rgb>(1001, rgb{1, 2, 3}));
    dtl::distributed_vector<quad, dtl::device_only<0>> quads(1001, quad{1, 2, 3, 4}, ctx);
    CHECK(quads.copy_to_host().value() == std::vector<quad>(1001, quad{1, 2, 3, 4}));
  }

  TEST_CASE("bad input: a device that does not exist, a context without one") {
    const auto ctx = test_support::world();
    auto past = dtl::distributed_vector<float, dtl::device_only<64>>::create(10, ctx);
    CHECK(past.error() == dtl::status_code::invalid_argument);
    CHECK_THROWS_AS((dtl::distributed_vector<float, dtl::device_only<64>>(10, ctx)), dtl::status_error);
    auto no_device = dtl::distributed_vector<float, dtl::device_only_runtime>::create(10, dtl::make_cpu_context());
    CHECK(no_device.error() == dtl::status_code::backend_not_available);  // as every device placement without one
  }

  TEST_CASE("a context-like object that names device 0 (upstream's device tests): device_only_runtime there") {
    dtl::distributed_vector<float, dtl::device_only_runtime> v(100, test_support::names_device{0});
    CHECK(v.device_id() == 0);
    CHECK(v.get_context().device() == 0);
    REQUIRE(dtl::fill(v, 2.5f).has_value());
    std::vector<float> host(100);
    REQUIRE(v.copy_to_host(host.data(), host.size()).has_value());
    CHECK(std::all_of(host.begin(), host.end(), [](float x) { return x == 2.5f; }));
  }
}

TEST_SUITE("gpu.out_of_memory") {
  TEST_CASE("more than the device holds: out_of_memory, nothing leaks, the process stays usable") {
    const auto ctx = test_support::world();
    auto space = dtl::shared_memory_space<dtl::device_only_runtime>(ctx).value();
    const auto before = space->stats().bytes_in_use;
    const auto total = dtl::hip::get_memory_info(ctx.device()).value().total;
    auto huge = dtl::distributed_vector<float, dtl::device_only_runtime>::create(total, ctx);  // 4x the device
    REQUIRE_FALSE(huge.has_value());
    CHECK(huge.error() == dtl::status_code::out_of_memory);
    CHECK(space->stats().bytes_in_use == before);
    dtl::distributed_vector<float, dtl::device_only_runtime> fine(1 << 20, 1.0f, ctx);
    CHECK(fine.copy_to_host().value()[12345] == 1.0f);
  }
}

TEST_SUITE("gpu.environment_end") {
  TEST_CASE("device vectors after their environment ended") {
    auto ctx = test_support::world();
    dtl::distributed_vector<float, dtl::device_only_runtime> v(100, 1.0f, ctx);
    auto space = dtl::shared_memory_space<dtl::device_only_runtime>(ctx).value();
    test_support::environment().reset();
    CHECK(ctx.check() == dtl::status_code::invalid_state);
    CHECK(dtl::fill(v, 2.0f).error() == dtl::status_code::invalid_state);
    CHECK(dtl::distributed_vector<float, dtl::device_only_runtime>::create(10, ctx).error() ==
          dtl::status_code::invalid_state);
    CHECK(v.copy_to_host().value()[0] == 1.0f);  // its memory is still there until it goes
    const auto in_use = space->stats().bytes_in_use;
    { auto gone = std::move(v); }
    CHECK(space->stats().bytes_in_use == in_use - 100 * sizeof(float));
  }
}
