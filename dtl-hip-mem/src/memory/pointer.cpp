// SPDX-License-Identifier: MIT
#include <dtl/hip/device.hpp>
#include <dtl/hip/pointer.hpp>

#include "../platform.hpp"
#include "known_memory.hpp"

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

}  // namespace dtl::hip
