// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's prefetch hint for managed (unified) memory: which way to move the pages of a range,
// and for a device, which one. HIP builds carry it out with dtl::hip::prefetch (<dtl/hip/managed_memory.hpp>);
// host builds have no managed memory, so the hint is data only there.

#include <dtl/core/types.hpp>

#include <string_view>

namespace dtl {

enum class prefetch_policy {
  none,           // leave the pages where they are (the value 0, as upstream's)
  to_device,      // move them to prefetch_hint::device_id
  to_host,        // move them to the host
  bidirectional,  // to the device before device work, back to the host after it
};

/// "none", "to_device", "to_host", "bidirectional" ("unknown" for a value outside the enum).
[[nodiscard]] constexpr std::string_view to_string(prefetch_policy policy) noexcept {
  switch (policy) {
    case prefetch_policy::none: return "none";
    case prefetch_policy::to_device: return "to_device";
    case prefetch_policy::to_host: return "to_host";
    case prefetch_policy::bidirectional: return "bidirectional";
  }
  return "unknown";
}

/// A prefetch request. offset and size pick bytes of the range it is applied to; size 0 means up to its end.
struct prefetch_hint {
  prefetch_policy policy = prefetch_policy::none;
  int device_id = 0;
  size_type offset = 0;
  size_type size = 0;
};

/// The whole range, to `device_id`.
[[nodiscard]] constexpr prefetch_hint make_device_prefetch(int device_id = 0) noexcept {
  return prefetch_hint{prefetch_policy::to_device, device_id, 0, 0};
}

/// The whole range, to the host.
[[nodiscard]] constexpr prefetch_hint make_host_prefetch() noexcept {
  return prefetch_hint{prefetch_policy::to_host, 0, 0, 0};
}

/// The bytes of a range of `range_bytes` bytes that `hint` covers: {offset, count}; count 0 when the
/// offset lies at or past the end.
struct prefetch_span {
  size_type offset = 0;
  size_type bytes = 0;
};
[[nodiscard]] constexpr prefetch_span prefetch_range(const prefetch_hint& hint, size_type range_bytes) noexcept {
  if (hint.offset >= range_bytes) return {range_bytes, 0};
  const size_type left = range_bytes - hint.offset;
  return {hint.offset, hint.size == 0 || hint.size > left ? left : hint.size};
}

}  // namespace dtl
