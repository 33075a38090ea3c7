// SPDX-License-Identifier: MIT
#pragma once
#include <hip/hip_runtime_api.h>

#include <cstddef>

/// Writes out[i] = (i * 2654435761) ^ seed on the device (asynchronously, on `stream`).
hipError_t dtl_test_fill_index(unsigned* out, std::size_t n, unsigned seed, hipStream_t stream);

/// Adds `delta` to each of data[0..n) on the device (asynchronously, on `stream`): the device reads
/// what the host wrote and writes back.
hipError_t dtl_test_add(unsigned* data, std::size_t n, unsigned delta, hipStream_t stream);

/// Holds `stream` for about `cycles` GPU clock ticks, then writes `value` to each of out[0..n): work that
/// is still writing a buffer when the host frees it. Pass cycles = 0 for a plain fill.
hipError_t dtl_test_slow_fill(unsigned* out, std::size_t n, unsigned value, long long cycles, hipStream_t stream);
