// SPDX-License-Identifier: MIT
#pragma once
// Private: hipEventQuery as an event_status, shared by hip_event, pooled_event and the engine.

#include <dtl/core/event.hpp>
#include <dtl/hip/runtime.hpp>

namespace dtl::hip::detail {

/// hipSuccess: complete. hipErrorNotReady: pending. Anything else (a kernel fault, a sticky error,
/// a destroyed event): failed with that error, so a failure never reads as "still running".
[[nodiscard]] event_status query_event(hipEvent_t event, const char* what);

/// hipErrorNotReady is not a failure: keep it from lingering as the thread's last error, where a
/// later launch check would see it. (CUDA never stores it; some ROCm versions do.)
void forget_not_ready() noexcept;

}  // namespace dtl::hip::detail
