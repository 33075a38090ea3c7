// SPDX-License-Identifier: MIT
#pragma once
// What kind of memory a pointer refers to, as the HIP runtime sees it (hipPointerGetAttributes,
// cudaPointerGetAttributes on NVIDIA). Transfers use it to reject a transfer_kind that contradicts
// the pointers; memory spaces use it for contains().

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::hip {

enum class memory_kind {
  host_pageable,  // ordinary host memory (malloc, new, the stack) that the runtime does not know
  host_pinned,    // page-locked host memory (hipHostMalloc, hipHostRegister)
  device,         // device memory (hipMalloc)
  managed,        // managed memory (hipMallocManaged), reachable from host and device
};

/// "host_pageable", "host_pinned", "device" or "managed".
[[nodiscard]] DTL_HIP_MEM_API std::string_view memory_kind_name(memory_kind kind) noexcept;

/// True for memory the host may read and write directly (pageable, pinned, managed).
[[nodiscard]] constexpr bool is_host_side(memory_kind kind) noexcept { return kind != memory_kind::device; }
/// True for memory a transfer may treat as device memory (device, managed).
[[nodiscard]] constexpr bool is_device_side(memory_kind kind) noexcept {
  return kind == memory_kind::device || kind == memory_kind::managed;
}

struct pointer_attributes {
  memory_kind kind = memory_kind::host_pageable;
  /// The device the memory lives on (device), or was allocated against (pinned, managed);
  /// dtl::no_device for pageable host memory.
  int device = no_device;
};

/// Classifies `ptr`. Interior pointers are classified like the allocation they point into.
/// Errors: invalid_argument for nullptr, backend_not_available without a device, hip_error if
/// the runtime fails. A pointer the runtime does not know counts as host_pageable.
/// Never leaves an error pending in HIP's per-thread "last error".
[[nodiscard]] DTL_HIP_MEM_API result<pointer_attributes> query_pointer(const void* ptr);

/// True when `ptr` lies where no device allocation can be while that memory is mapped: the calling
/// thread's stack, or the process's brk heap (what malloc and new hand out in the main arena). It asks
/// no runtime (query_pointer costs a runtime call, about as much as a small host collective's own work),
/// so a hot path that needs only "device memory or not" asks it first. Such memory may still be pinned
/// (hipHostRegister): for the kind, ask query_pointer. False says nothing about `ptr`.
[[nodiscard]] DTL_HIP_MEM_API bool never_device_memory(const void* ptr) noexcept;

/// One allocation as the runtime made it (a hipMalloc): what an IPC handle (hipIpcGetMemHandle) names,
/// whole, so that a block inside it is shared as its allocation's handle and its offset from `base`.
struct allocation_extent {
  const void* base = nullptr;
  std::size_t bytes = 0;
};

/// The allocation that device memory `ptr` points into. AMD: the runtime's answer. NVIDIA, whose
/// runtime does not say: the region a dtl-hip-mem space or pool handed out (each is one allocation;
/// a pool's runtime backing hands out parts of the runtime's pool, which IPC handles do not reach
/// anyway), else not_supported. invalid_argument for nullptr; backend_not_available without a device.
[[nodiscard]] DTL_HIP_MEM_API result<allocation_extent> find_allocation(const void* ptr);

}  // namespace dtl::hip
