// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's <dtl/containers/detail/device_affinity.hpp>: the device ids a container's device_id()
// gives besides a GPU's (0, 1, ...): no_device_affinity for host memory (our dtl::no_device) and
// any_device_affinity for memory every device reaches (managed).

#include <dtl/core/device_id.hpp>

namespace dtl::detail {

inline constexpr int no_device_affinity = no_device;
inline constexpr int any_device_affinity = any_device;

}  // namespace dtl::detail
