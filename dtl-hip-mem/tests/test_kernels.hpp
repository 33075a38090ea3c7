#pragma once
#include <hip/hip_runtime_api.h>

#include <cstddef>

/// Writes out[i] = (i * 2654435761) ^ seed on the device (asynchronously, on `stream`).
hipError_t dtl_test_fill_index(unsigned* out, std::size_t n, unsigned seed, hipStream_t stream);

/// Adds `delta` to each of data[0..n) on the device (asynchronously, on `stream`): the device reads
/// what the host wrote and writes back.
hipError_t dtl_test_add(unsigned* data, std::size_t n, unsigned delta, hipStream_t stream);
