// SPDX-License-Identifier: MIT
#pragma once
// Placement policies: where a container's local data lives. Each one states, at compile time, its
// location, whether host and device code can touch it, whether it is managed memory, and its device
// (`device`: no_device, any_device, runtime_device or an id). placement_answers gives upstream DTL's
// spellings of the same (preferred_location(), is_host_accessible(), requires_device_copy(),
// device_id(), ...) once for every placement.

#include <dtl/core/device_id.hpp>
#include <dtl/policies/policy_category.hpp>

#include <concepts>

namespace dtl {

/// remote: memory of another rank (upstream's vocabulary; no placement here has it).
enum class memory_location { host, device, unified, remote };

namespace detail {
/// Upstream's questions, answered from placement P's constants.
template <class P>
struct placement_answers {
  using policy_category = placement_policy_tag;
  [[nodiscard]] static constexpr memory_location preferred_location() noexcept { return P::location; }
  [[nodiscard]] static constexpr bool is_host_accessible() noexcept { return P::host_accessible; }
  [[nodiscard]] static constexpr bool is_device_accessible() noexcept { return P::device_accessible; }
  /// Host code needs a copy to read the data.
  [[nodiscard]] static constexpr bool requires_host_copy() noexcept { return !P::host_accessible; }
  /// Device code needs a copy to read the data.
  [[nodiscard]] static constexpr bool requires_device_copy() noexcept { return !P::device_accessible; }
  [[nodiscard]] static constexpr int device_id() noexcept { return P::device; }
};
}  // namespace detail

/// Host memory (the default).
struct host_only : detail::placement_answers<host_only> {
  static constexpr memory_location location = memory_location::host;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = false;
  static constexpr bool managed = false;
  static constexpr int device = no_device;
};

/// Device memory (hipMalloc) on device N.
template <int N = 0>
struct device_only : detail::placement_answers<device_only<N>> {
  static_assert(N >= 0, "device_only<N> needs a device id >= 0");
  static constexpr memory_location location = memory_location::device;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = false;
  static constexpr int device = N;
};

/// Device memory (hipMalloc) on the device the container's context chose for this rank at run time
/// (one GPU per rank, which is how multi-GPU jobs run).
struct device_only_runtime : detail::placement_answers<device_only_runtime> {
  static constexpr memory_location location = memory_location::device;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = false;
  static constexpr int device = runtime_device;
};

/// Managed memory (hipMallocManaged), reachable from the host and every device.
struct unified_memory : detail::placement_answers<unified_memory> {
  static constexpr memory_location location = memory_location::unified;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = true;
  static constexpr int device = any_device;
  [[nodiscard]] static constexpr bool requires_explicit_copy() noexcept { return false; }
  /// The data can be moved ahead of use (hipMemPrefetchAsync).
  [[nodiscard]] static constexpr bool supports_prefetch() noexcept { return true; }
};

/// Managed memory that prefers to live on device N (hipMemAdviseSetPreferredLocation).
template <int N = 0>
struct device_preferred_on : detail::placement_answers<device_preferred_on<N>> {
  static_assert(N >= 0, "device_preferred_on<N> needs a device id >= 0");
  static constexpr memory_location location = memory_location::device;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = true;
  static constexpr int device = N;
  /// Managed memory: the host can still reach it when the device is not where it lives.
  [[nodiscard]] static constexpr memory_location fallback_location() noexcept { return memory_location::host; }
  [[nodiscard]] static constexpr bool allows_fallback() noexcept { return true; }
};

using device_preferred = device_preferred_on<0>;

using default_placement = host_only;
/// Upstream's name for default_placement.
using default_placement_policy = default_placement;

template <class P>
concept PlacementPolicy = requires {
  { P::location } -> std::convertible_to<memory_location>;
  { P::host_accessible } -> std::convertible_to<bool>;
  { P::device_accessible } -> std::convertible_to<bool>;
  { P::managed } -> std::convertible_to<bool>;
  { P::device } -> std::convertible_to<int>;
};

/// True for placements whose memory needs a GPU (device or managed memory).
template <PlacementPolicy P>
inline constexpr bool needs_device_v = P::device_accessible;

}  // namespace dtl
