// SPDX-License-Identifier: MIT
#pragma once
// Private: what differs between the AMD and NVIDIA platforms. Implemented in platform.cpp, the only
// source file in dtl-hip-* that tests which platform it is built for.

#include <dtl/core/result.hpp>
#include <dtl/hip/pointer.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <string>

namespace dtl::hip::platform {

/// "amd" or "nvidia".
const char* name() noexcept;

/// The device's architecture name: gcnArchName on AMD ("gfx90a:sramecc+:xnack-"), "sm_90" on NVIDIA.
std::string arch_name(const hipDeviceProp_t& prop);

/// Whether `device` supports the runtime's stream-ordered memory pools (hipDeviceAttributeMemoryPoolsSupported).
result<bool> memory_pools_supported(int device);

/// Whether a pool with automatic backing should use the runtime's pools (when the device supports them)
/// rather than our own caching pool. No platform does: ROCm's stream-ordered allocator has run out of
/// memory where hipMalloc did not (ROCm/hip#3775, fixed in ROCm 7.0) and handed out corrupted buffers
/// under a low release threshold (CTranslate2#2090; Kokkos turned it off by default again for ROCm 7,
/// kokkos#8746); CUDA's works, but the caching backing is faster (on the H200 0.08 us per
/// allocate+deallocate against 1.0 us, benchmarks/mem, 2026-12-01). The runtime backing stays available.
constexpr bool prefer_runtime_pools() noexcept { return false; }

/// A new pool of device memory on `device` whose release threshold keeps all freed memory (until trimmed).
result<hipMemPool_t> create_memory_pool(int device);

/// Bytes `pool` holds from the device (ReservedMemCurrent) and bytes of them allocated (UsedMemCurrent).
struct memory_pool_usage {
  std::size_t reserved = 0;
  std::size_t used = 0;
};
result<memory_pool_usage> memory_pool_usage_of(hipMemPool_t pool);

/// The device `stream` belongs to. The null stream, and every stream where the runtime cannot tell (HIP 5
/// on AMD has no hipStreamGetDevice), belong to the current device.
result<int> stream_device(hipStream_t stream);

/// Classifies a non-null pointer (see dtl::hip::query_pointer). A pointer the runtime does not know is
/// host_pageable; no HIP error is left pending for the calling thread.
result<pointer_attributes> query_pointer(const void* ptr);

/// The runtime allocation that a non-null `ptr` points into (see dtl::hip::find_allocation). AMD:
/// hipMemGetAddressRange. NVIDIA: not_supported, for there it is a driver-API call (cuMemGetAddressRange)
/// and this library links the runtime alone.
result<allocation_extent> allocation_of(const void* ptr);

}  // namespace dtl::hip::platform
