#pragma once
// The HIP guide's include path for executors and streams: dtl::hip::hip_executor, hip_stream,
// stream_flags (and multi_stream_executor).

#include <dtl/hip/hip_executor.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/multi_stream_executor.hpp>
