// SPDX-License-Identifier: MIT
#include <dtl/hip/error.hpp>

#include <string>

namespace dtl::hip {

status to_status(hipError_t error, std::string_view what, std::source_location where) {
  if (error == hipSuccess) return {};
  // Clear the thread's pending error if it is this one: the caller now owns it as a status.
  if (hipPeekAtLastError() == error) {
    const hipError_t cleared = hipGetLastError();
    static_cast<void>(cleared);  // it is `error`, already being returned
  }
  const char* name = hipGetErrorName(error);
  const char* description = hipGetErrorString(error);
  native_error native{static_cast<int>(error), name != nullptr ? name : "unknown hipError_t",
                      description != nullptr ? description : ""};
  const status_code code = error == hipErrorOutOfMemory ? status_code::out_of_memory : status_code::hip_error;
  std::string message(what);
  message += " failed";
  return status(code, std::move(message), std::move(native), where);
}

bool is_sticky(hipError_t error) noexcept {
  switch (error) {
    case hipErrorIllegalAddress:
    case hipErrorLaunchFailure:
    case hipErrorAssert:
    case hipErrorLaunchTimeOut:
    case hipErrorECCNotCorrectable: return true;
    default: return false;
  }
}

}  // namespace dtl::hip
