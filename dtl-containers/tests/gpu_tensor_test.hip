// SPDX-License-Identifier: MIT
// distributed_tensor on device placements (device_only<0>, device_only_runtime, unified_memory,
// device_preferred_on<0>), on 1 rank and on 2 sharing a GPU, against a serial reference: the device
// view's indexing, extents and strides read in a device lambda, the algorithms, copies to and from the
// host, replace_local_partition from the host; where the data is and the allocator of that memory.
// Compiled by dtl-hip-kc (device lambdas).
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_tensor.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace {

/// The value of the element at row-major position g.
__host__ __device__ float value_at(std::size_t g) { return static_cast<float>(g % 101) - 30.0f; }

template <class P>
void tensor_on_device(const dtl::context& ctx, const dtl::nd_extent<3>& extents) {
  CAPTURE(extents[0]);
  using tensor = dtl::distributed_tensor<float, 3, P>;
  static_assert(tensor::is_device_accessible());
  tensor a(extents, ctx), b(extents, ctx);
  const std::size_t count = a.size();
  // Where the data is, and the allocator of that memory on this rank's device (the vector's answers).
  static_assert(std::is_same_v<typename tensor::allocator_type, dtl::select_allocator_t<float, P>>);
  CHECK(a.has_device_affinity() == !P::host_accessible);
  CHECK(a.device_id() >= 0);
  CHECK(a.get_allocator().space_properties().device_id == a.device_id());
  CHECK(a.get_allocator() == dtl::allocator_for<float, P>(ctx).value());
  const auto view = a.device_view();
  CHECK(view.data() == a.local_data());
  CHECK(view.extents() == a.local_extents());
  CHECK(view.stride(0) == extents[1] * extents[2]);
  REQUIRE(dtl::for_each_indexed(a, [] __device__(std::size_t g, float& x) { x = value_at(g); }).has_value());
  // b(i, j, k) = 2 * a(i, j, k), through a's view of the local block: its extents, strides and (i, j, k).
  const std::size_t first = static_cast<std::size_t>(a.global_offset()[0]) * view.stride(0);
  REQUIRE(dtl::for_each_indexed(b, [view, first] __device__(std::size_t g, float& x) {
            const std::size_t l = g - first;
            const std::size_t i = l / view.stride(0), j = l % view.stride(0) / view.stride(1), k = l % view.stride(1);
            x = i < view.extent(0) && j < view.extent(1) && k < view.extent(2) ? 2.0f * view(i, j, k) : -1.0f;
          }).has_value());
  std::vector<float> ref(count);
  for (std::size_t g = 0; g < count; ++g) ref[g] = 2.0f * value_at(g);
  auto all = b.gather(0);
  REQUIRE(all.has_value());
  if (ctx.rank() == 0) CHECK(*all == ref);
  // Copies of the local block to and from the host.
  std::vector<float> local = b.copy_to_host().value();
  for (float& x : local) x += 1.0f;
  REQUIRE(a.copy_from_host(local.data(), local.size()).has_value());
  float sum = 0.0f;
  for (std::size_t g = 0; g < count; ++g) sum += ref[g] + 1.0f;
  CHECK(dtl::reduce(a, 0.0f) == doctest::Approx(sum));
  // This rank's elements from the host, copied into the device block.
  REQUIRE(a.replace_local_partition(typename tensor::storage_type(a.local_size(), 0.5f)).has_value());
  CHECK(dtl::reduce(a, 0.0f) == doctest::Approx(0.5f * static_cast<float>(count)));
}

template <class P>
void placement_checks(const dtl::context& ctx) {
  for (const std::size_t rows : {0u, 1u, 5u, 64u}) tensor_on_device<P>(ctx, {rows, 3, 4});
}

}  // namespace

TEST_SUITE("gpu.tensor") {
  TEST_CASE("device_only<0>") { placement_checks<dtl::device_only<0>>(test_support::world()); }
  TEST_CASE("device_only_runtime") { placement_checks<dtl::device_only_runtime>(test_support::world()); }
  TEST_CASE("unified_memory") {
    placement_checks<dtl::unified_memory>(test_support::world());
    // The host reaches managed memory: the local view too.
    dtl::distributed_tensor<float, 2, dtl::unified_memory> t({4, 4}, 1.0f, test_support::world());
    auto view = t.local_view();
    if (view.extent(0) != 0) CHECK(view(0, 3) == 1.0f);
  }
  TEST_CASE("device_preferred_on<0>") { placement_checks<dtl::device_preferred_on<0>>(test_support::world()); }
}
