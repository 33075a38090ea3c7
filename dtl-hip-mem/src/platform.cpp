// SPDX-License-Identifier: MIT
#include "platform.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>
#include <dtl/hip/error.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <string>

namespace dtl::hip::platform {

namespace {

pointer_attributes pageable() noexcept { return {memory_kind::host_pageable, no_device}; }

// The runtime reports an unknown (pageable) host pointer as hipErrorInvalidValue and also records it
// as the thread's last error; clear it, or it would surface later as the error of an unrelated launch.
void clear_pending_invalid_value() noexcept {
  if (hipPeekAtLastError() == hipErrorInvalidValue) static_cast<void>(hipGetLastError());
}

}  // namespace

result<bool> memory_pools_supported(int device) {
  int value = 0;
  if (const hipError_t e = hipDeviceGetAttribute(&value, hipDeviceAttributeMemoryPoolsSupported, device);
      e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceGetAttribute(MemoryPoolsSupported) on device {}", device));
  return value != 0;
}

#if defined(__HIP_PLATFORM_AMD__)

const char* name() noexcept { return "amd"; }

std::string arch_name(const hipDeviceProp_t& prop) { return prop.gcnArchName; }

namespace {

// ROCm 5 calls the field memoryType; ROCm 6 renamed it to type.
template <class Attributes>
auto memory_type_of(const Attributes& a) noexcept {
  if constexpr (requires { a.type; })
    return a.type;
  else
    return a.memoryType;
}

}  // namespace

result<pointer_attributes> query_pointer(const void* ptr) {
  hipPointerAttribute_t attr{};
  const hipError_t e = hipPointerGetAttributes(&attr, ptr);
  if (e == hipErrorInvalidValue) {  // not allocated or registered through HIP: pageable host memory
    clear_pending_invalid_value();
    return pageable();
  }
  if (e != hipSuccess) return to_status(e, "hipPointerGetAttributes");
  if (attr.isManaged != 0) return pointer_attributes{memory_kind::managed, attr.device};
  const auto type = memory_type_of(attr);
  if (type == hipMemoryTypeDevice || type == hipMemoryTypeArray)
    return pointer_attributes{memory_kind::device, attr.device};
  if (type == hipMemoryTypeHost) return pointer_attributes{memory_kind::host_pinned, attr.device};
  return pageable();  // ROCm 6: hipMemoryTypeUnregistered
}

namespace pool_enum {
constexpr auto pinned = hipMemAllocationTypePinned;
constexpr auto no_handle = hipMemHandleTypeNone;
constexpr auto on_device = hipMemLocationTypeDevice;
constexpr auto release_threshold = hipMemPoolAttrReleaseThreshold;
constexpr auto reserved_now = hipMemPoolAttrReservedMemCurrent;
constexpr auto used_now = hipMemPoolAttrUsedMemCurrent;
}  // namespace pool_enum

result<int> stream_device(hipStream_t) { return current_device(); }

result<allocation_extent> allocation_of(const void* ptr) {
  hipDeviceptr_t base = nullptr;
  std::size_t bytes = 0;
  if (const hipError_t e = hipMemGetAddressRange(&base, &bytes, const_cast<void*>(ptr)); e != hipSuccess)
    return to_status(e, fmt::format("hipMemGetAddressRange({})", ptr));
  return allocation_extent{base, bytes};
}

#elif defined(__HIP_PLATFORM_NVIDIA__)

const char* name() noexcept { return "nvidia"; }

std::string arch_name(const hipDeviceProp_t& prop) {
  return "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
}

// HIP 5.2's hipPointerGetAttributes wrapper returns hipErrorInvalidValue for pageable and for managed
// memory and always says isManaged = 0, so ask CUDA directly.
result<allocation_extent> allocation_of(const void*) {
  return status(status_code::not_supported, "the CUDA runtime does not say where an allocation starts");
}

result<pointer_attributes> query_pointer(const void* ptr) {
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, ptr);
  if (e == cudaErrorInvalidValue) {  // CUDA < 11 reports pageable memory this way
    clear_pending_invalid_value();
    return pageable();
  }
  if (e != cudaSuccess) return to_status(hipCUDAErrorTohipError(e), "cudaPointerGetAttributes");
  switch (attr.type) {
    case cudaMemoryTypeDevice: return pointer_attributes{memory_kind::device, attr.device};
    case cudaMemoryTypeHost: return pointer_attributes{memory_kind::host_pinned, attr.device};
    case cudaMemoryTypeManaged: return pointer_attributes{memory_kind::managed, attr.device};
    case cudaMemoryTypeUnregistered: break;
  }
  return pageable();
}

// HIP 5.2's NVIDIA headers map the hipMemPool functions and types but not their enumerators: CUDA's.
namespace pool_enum {
constexpr auto pinned = cudaMemAllocationTypePinned;
constexpr auto no_handle = cudaMemHandleTypeNone;
constexpr auto on_device = cudaMemLocationTypeDevice;
constexpr auto release_threshold = cudaMemPoolAttrReleaseThreshold;
constexpr auto reserved_now = cudaMemPoolAttrReservedMemCurrent;
constexpr auto used_now = cudaMemPoolAttrUsedMemCurrent;
}  // namespace pool_enum

result<int> stream_device(hipStream_t stream) {
#if CUDART_VERSION >= 12080
  if (stream == nullptr) return current_device();
  int device = no_device;
  if (const cudaError_t e = cudaStreamGetDevice(stream, &device); e != cudaSuccess)
    return to_status(hipCUDAErrorTohipError(e), "cudaStreamGetDevice");
  return device;
#else
  static_cast<void>(stream);
  return current_device();
#endif
}

#endif

// The same on both platforms, with the enumerators above.

result<hipMemPool_t> create_memory_pool(int device) {
  hipMemPoolProps props{};
  props.allocType = pool_enum::pinned;
  props.handleTypes = pool_enum::no_handle;
  props.location.type = pool_enum::on_device;
  props.location.id = device;
  hipMemPool_t pool = nullptr;
  if (const hipError_t e = hipMemPoolCreate(&pool, &props); e != hipSuccess)
    return to_status(e, fmt::format("hipMemPoolCreate on device {}", device));
  std::uint64_t keep_everything = std::numeric_limits<std::uint64_t>::max();
  if (const hipError_t e = hipMemPoolSetAttribute(pool, pool_enum::release_threshold, &keep_everything);
      e != hipSuccess) {
    static_cast<void>(hipMemPoolDestroy(pool));
    return to_status(e, fmt::format("hipMemPoolSetAttribute(ReleaseThreshold) on device {}", device));
  }
  return pool;
}

result<memory_pool_usage> memory_pool_usage_of(hipMemPool_t pool) {
  std::uint64_t reserved = 0;
  std::uint64_t used = 0;
  DTL_HIP_TRY(hipMemPoolGetAttribute(pool, pool_enum::reserved_now, &reserved));
  DTL_HIP_TRY(hipMemPoolGetAttribute(pool, pool_enum::used_now, &used));
  return memory_pool_usage{static_cast<std::size_t>(reserved), static_cast<std::size_t>(used)};
}

}  // namespace dtl::hip::platform
