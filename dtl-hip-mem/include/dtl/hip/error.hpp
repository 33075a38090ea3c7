// SPDX-License-Identifier: MIT
#pragma once
// HIP errors become dtl::status here and nowhere else.

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <source_location>
#include <string_view>

namespace dtl::hip {

/// hipSuccess gives an ok status. hipErrorOutOfMemory (hipErrorMemoryAllocation) gives out_of_memory;
/// every other error gives hip_error (520). Both keep the native code, hipGetErrorName and
/// hipGetErrorString. `what` says which call failed, e.g. "hipMalloc(1024) on device 0".
/// If the error is also HIP's pending "last error" of this thread, it is cleared, so that it cannot
/// resurface later as the error of an unrelated launch.
[[nodiscard]] DTL_HIP_MEM_API status to_status(hipError_t error, std::string_view what,
                                               std::source_location where = std::source_location::current());

/// True for errors after which the device context is unusable (a kernel fault, for example).
[[nodiscard]] DTL_HIP_MEM_API bool is_sticky(hipError_t error) noexcept;

}  // namespace dtl::hip

/// Evaluates a HIP call; on failure returns its status from the enclosing function
/// (which returns dtl::status or dtl::result<T>).
#define DTL_HIP_TRY(call)                                                   \
  do {                                                                      \
    if (const hipError_t dtl_hip_err_ = (call); dtl_hip_err_ != hipSuccess) \
      return ::dtl::hip::to_status(dtl_hip_err_, #call);                    \
  } while (false)
