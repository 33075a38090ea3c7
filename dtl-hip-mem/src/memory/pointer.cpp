// SPDX-License-Identifier: MIT
#include <dtl/hip/device.hpp>
#include <dtl/hip/pointer.hpp>

#include "../platform.hpp"
#include "known_memory.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <optional>

namespace dtl::hip {

std::string_view memory_kind_name(memory_kind kind) noexcept {
  switch (kind) {
    case memory_kind::host_pageable: return "host_pageable";
    case memory_kind::host_pinned: return "host_pinned";
    case memory_kind::device: return "device";
    case memory_kind::managed: return "managed";
  }
  return "unknown_memory_kind";
}

result<pointer_attributes> query_pointer(const void* ptr) {
  if (ptr == nullptr) return status(status_code::invalid_argument, "query_pointer(nullptr)");
  // Memory our own spaces and pools allocated is answered without a runtime call.
  if (const std::optional<detail::known_region> known = detail::find_known(ptr)) return known->attributes;
  if (status s = require_device("query_pointer"); !s.ok()) return s;
  return platform::query_pointer(ptr);
}

result<allocation_extent> find_allocation(const void* ptr) {
  if (ptr == nullptr) return status(status_code::invalid_argument, "find_allocation(nullptr)");
  if (status s = require_device("find_allocation"); !s.ok()) return s;
  result<allocation_extent> exact = platform::allocation_of(ptr);
  if (exact || exact.error().code() != status_code::not_supported) return exact;
  if (const std::optional<detail::known_room> room = detail::room_after(ptr)) {
    const auto* end = static_cast<const std::byte*>(ptr) + room->left;
    return allocation_extent{end - room->region_bytes, room->region_bytes};
  }
  return status(status_code::not_supported,
                fmt::format("where the allocation of {} starts is unknown: it is not memory of a dtl-hip-mem "
                            "space or pool, and {}",
                            ptr, exact.error().message()));
}

}  // namespace dtl::hip
