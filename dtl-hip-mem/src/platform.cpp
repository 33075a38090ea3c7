#include "platform.hpp"

#include <dtl/hip/error.hpp>

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

#elif defined(__HIP_PLATFORM_NVIDIA__)

const char* name() noexcept { return "nvidia"; }

std::string arch_name(const hipDeviceProp_t& prop) {
  return "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
}

// HIP 5.2's hipPointerGetAttributes wrapper returns hipErrorInvalidValue for pageable and for managed
// memory and always says isManaged = 0, so ask CUDA directly.
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

#endif

}  // namespace dtl::hip::platform
