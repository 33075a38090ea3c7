// SPDX-License-Identifier: MIT
#pragma once
// The HIP guide's include path for executors and streams: dtl::hip::hip_executor, hip_stream,
// stream_flags (and multi_stream_executor).

// In .hip files, the whole HIP runtime (kernels with blockIdx, threadIdx), as upstream's headers give it.
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/hip_executor.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/multi_stream_executor.hpp>
