// SPDX-License-Identifier: MIT
#pragma once
// Where each placement's memory comes from. A placement maps to a memory space (DTL's MemorySpace
// concept) and to the device a rank's segment lives on:
//
//   placement               memory space                          device
//   host_only               dtl::host_memory_space                none
//   device_only<N>          dtl::hip::hip_memory_space            N (of this process's visible devices)
//   device_only_runtime     dtl::hip::hip_memory_space            the context's device
//   unified_memory          dtl::hip::hip_managed_memory_space    the context's device, else the current one
//   device_preferred_on<N>  dtl::hip::hip_device_preferred_...    N (device_preferred is device_preferred_on<0>)
//
// Vectors of one placement and device share one memory space instance (shared_memory_space<P>), so its
// statistics count every such vector's bytes.

#include <dtl/containers/config.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/host_memory_space.hpp>
#include <dtl/core/memory_transfer.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>

#include <memory>
#include <source_location>
#include <string_view>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/hip_device_preferred_memory_space.hpp>
#include <dtl/hip/hip_managed_memory_space.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#endif

namespace dtl {

namespace detail {

/// The one status of a device placement without a device, for every device placement:
/// backend_not_available, saying why and naming the host placement and with_device_or_host.
[[nodiscard]] DTL_CONTAINERS_API status
no_device_for_placement(std::string_view why, std::source_location where = std::source_location::current());
/// ok when `device` can be used: backend_not_available without a GPU (or without HIP), invalid_argument
/// for an id past the devices this process sees.
[[nodiscard]] DTL_CONTAINERS_API status check_placement_device(int device);
/// The context's device, or the calling thread's current device when the context has none.
[[nodiscard]] DTL_CONTAINERS_API result<int> context_or_current_device(const context& ctx);

template <class P>
inline constexpr bool always_false_v = false;

}  // namespace detail

/// How bytes move from the memory of placement From to that of placement To: host_only memory is the
/// host's; every other placement's memory (device, managed or device-preferred) is copied as the device's.
template <PlacementPolicy From, PlacementPolicy To>
inline constexpr transfer_kind transfer_between_v =
    !From::device_accessible
        ? (!To::device_accessible ? transfer_kind::host_to_host : transfer_kind::host_to_device)
        : (!To::device_accessible ? transfer_kind::device_to_host : transfer_kind::device_to_device);

/// The process-wide host memory space that host_only vectors allocate from.
[[nodiscard]] DTL_CONTAINERS_API std::shared_ptr<host_memory_space> shared_host_memory_space();

#if DTL_CONTAINERS_HAS_HIP
/// The process-wide spaces of each device that device placements allocate from.
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<hip::hip_memory_space>> shared_device_memory_space(int device);
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<hip::hip_managed_memory_space>> shared_managed_memory_space(
    int device);
[[nodiscard]] DTL_CONTAINERS_API result<std::shared_ptr<hip::hip_device_preferred_memory_space>>
shared_device_preferred_memory_space(int device);
#endif

template <PlacementPolicy P>
struct placement_traits {
  static_assert(detail::always_false_v<P>,
                "this placement needs device memory: build DTL with HIP (-Dhip=enabled) to use it");
};

template <>
struct placement_traits<host_only> {
  using space_type = host_memory_space;
  static result<int> device(const context&) { return no_device; }
  static result<std::shared_ptr<space_type>> space(int) { return shared_host_memory_space(); }
};

#if DTL_CONTAINERS_HAS_HIP
template <int N>
struct placement_traits<device_only<N>> {
  using space_type = hip::hip_memory_space;
  static result<int> device(const context&) {
    if (status s = detail::check_placement_device(N); !s.ok()) return s;
    return N;
  }
  static result<std::shared_ptr<space_type>> space(int device) { return shared_device_memory_space(device); }
};

template <>
struct placement_traits<device_only_runtime> {
  using space_type = hip::hip_memory_space;
  static result<int> device(const context& ctx) {
    if (!ctx.has_device())
      return detail::no_device_for_placement("device_only_runtime takes the context's GPU, and this context has none");
    return ctx.device();
  }
  static result<std::shared_ptr<space_type>> space(int device) { return shared_device_memory_space(device); }
};

template <>
struct placement_traits<unified_memory> {
  using space_type = hip::hip_managed_memory_space;
  static result<int> device(const context& ctx) { return detail::context_or_current_device(ctx); }
  static result<std::shared_ptr<space_type>> space(int device) { return shared_managed_memory_space(device); }
};

template <int N>
struct placement_traits<device_preferred_on<N>> {
  using space_type = hip::hip_device_preferred_memory_space;
  static result<int> device(const context&) {
    if (status s = detail::check_placement_device(N); !s.ok()) return s;
    return N;
  }
  static result<std::shared_ptr<space_type>> space(int device) { return shared_device_preferred_memory_space(device); }
};
#endif

/// The memory space that distributed_vector<T, P> uses on `ctx` (the same shared instance).
template <PlacementPolicy P>
[[nodiscard]] result<std::shared_ptr<typename placement_traits<P>::space_type>> shared_memory_space(
    const context& ctx) {
  auto device = placement_traits<P>::device(ctx);
  if (!device) return std::move(device).error();
  return placement_traits<P>::space(*device);
}

}  // namespace dtl
