// SPDX-License-Identifier: MIT
// The element, container and extents traits and the concepts over them (dtl/core/traits.hpp,
// concepts.hpp, device_concepts.hpp).
#include "doctest.hpp"

#include <dtl/core/concepts.hpp>
#include <dtl/core/device_concepts.hpp>
#include <dtl/core/traits.hpp>

#include <string>
#include <vector>

namespace {

struct pod {
  int a;
  double b;
};
struct constructed {  // trivially copyable, but its constructor must run
  constructed() : value(1) {}
  int value;
};
struct keyed_store {  // the shape of a distributed map
  using key_type = int;
  using mapped_type = double;
  using size_type = std::size_t;
  size_type local_size() const { return 0; }
  bool is_local(int) const { return true; }
  dtl::rank_t owner(int) const { return 0; }
  int* begin() { return nullptr; }
  int* end() { return nullptr; }
};

}  // namespace

TEST_SUITE("traits") {
  TEST_CASE("serializable means memcpy-safe") {
    CHECK(dtl::is_trivially_serializable_v<pod>);
    CHECK(dtl::TriviallySerializable<int>);
    CHECK_FALSE(dtl::is_trivially_serializable_v<std::string>);
    CHECK(dtl::Transportable<pod>);
    CHECK_FALSE(dtl::Transportable<std::vector<int>>);
  }
  TEST_CASE("extents traits read the extents' kinds and rank") {
    CHECK(dtl::is_static_extents_v<dtl::extents<2, 3>>);
    CHECK_FALSE(dtl::is_static_extents_v<dtl::extents<2, dtl::dynamic_extent>>);
    CHECK(dtl::is_dynamic_extents_v<dtl::extents_2d>);
    CHECK_FALSE(dtl::is_dynamic_extents_v<int>);
    CHECK(dtl::extents_rank_v<dtl::extents<1, 2, 3>> == 3);
  }
  TEST_CASE("the container and view traits are false for other types") {
    CHECK_FALSE(dtl::is_distributed_container_v<std::vector<int>>);
    CHECK_FALSE(dtl::is_local_view_v<int*>);
    CHECK(dtl::is_same_cvref_v<const int&, int>);
  }
  TEST_CASE("device storage needs trivial types only where a device reaches it") {
    CHECK(dtl::DeviceStorable<pod>);
    CHECK_FALSE(dtl::DeviceStorable<constructed>);
    CHECK_FALSE(dtl::requires_device_storable_v<dtl::host_only>);
    CHECK(dtl::requires_device_storable_v<dtl::unified_memory>);
    CHECK(dtl::ValidElementForPlacement<std::string, dtl::host_only>);
    CHECK_FALSE(dtl::ValidElementForPlacement<constructed, dtl::device_only<0>>);
  }
  TEST_CASE("a keyed store is a map, not a sequence container") {
    CHECK(dtl::DistributedMap<keyed_store>);
    CHECK(dtl::DistributedCollection<keyed_store>);
    CHECK_FALSE(dtl::DistributedContainer<keyed_store>);
  }
}
