// SPDX-License-Identifier: MIT
#pragma once
// host_memory_transfer: copies between host buffers (memcpy). Device directions are not_supported.

#include <dtl/core/export.hpp>
#include <dtl/core/memory_transfer.hpp>

#include <cstddef>

namespace dtl {

struct DTL_CORE_API host_memory_transfer {
  /// host_to_host or automatic; null pointers and 0 bytes are invalid_argument.
  static result<void> copy(void* dst, const void* src, std::size_t bytes, transfer_kind kind);
};

static_assert(MemoryTransfer<host_memory_transfer>);

}  // namespace dtl
