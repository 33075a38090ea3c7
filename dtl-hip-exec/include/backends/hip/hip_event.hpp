// SPDX-License-Identifier: MIT
#pragma once
// The HIP guide's include path for events: dtl::hip::hip_event, event_flags (and the event pool).

// In .hip files, the whole HIP runtime (kernels with blockIdx, threadIdx), as upstream's headers give it.
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/event_pool.hpp>
#include <dtl/hip/hip_event.hpp>
