// SPDX-License-Identifier: MIT
#pragma once
// Placement policies: where a container's local data lives. Each one states, at compile time, its
// location, whether host and device code can touch it, whether it is managed memory, and its device id.

#include <dtl/core/device_id.hpp>

#include <concepts>

namespace dtl {

enum class memory_location { host, device, unified };

/// Host memory (the default).
struct host_only {
  static constexpr memory_location location = memory_location::host;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = false;
  static constexpr bool managed = false;
  static constexpr int device_id = no_device;
};

/// Device memory (hipMalloc) on device N.
template <int N = 0>
struct device_only {
  static_assert(N >= 0, "device_only<N> needs a device id >= 0");
  static constexpr memory_location location = memory_location::device;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = false;
  static constexpr int device_id = N;
};

/// Device memory (hipMalloc) on the device the container's context chose for this rank at run time
/// (one GPU per rank, which is how multi-GPU jobs run).
struct device_only_runtime {
  static constexpr memory_location location = memory_location::device;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = false;
  static constexpr int device_id = runtime_device;
};

/// Managed memory (hipMallocManaged), reachable from the host and every device.
struct unified_memory {
  static constexpr memory_location location = memory_location::unified;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = true;
  static constexpr int device_id = any_device;
};

/// Managed memory that prefers to live on device N (hipMemAdviseSetPreferredLocation).
template <int N = 0>
struct device_preferred_on {
  static_assert(N >= 0, "device_preferred_on<N> needs a device id >= 0");
  static constexpr memory_location location = memory_location::device;
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = true;
  static constexpr bool managed = true;
  static constexpr int device_id = N;
};

using device_preferred = device_preferred_on<0>;

using default_placement = host_only;

template <class P>
concept PlacementPolicy = requires {
  { P::location } -> std::convertible_to<memory_location>;
  { P::host_accessible } -> std::convertible_to<bool>;
  { P::device_accessible } -> std::convertible_to<bool>;
  { P::managed } -> std::convertible_to<bool>;
  { P::device_id } -> std::convertible_to<int>;
};

/// True for placements whose memory needs a GPU (device or managed memory).
template <PlacementPolicy P>
inline constexpr bool needs_device_v = P::device_accessible;

}  // namespace dtl
