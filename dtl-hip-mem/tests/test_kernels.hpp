#pragma once
#include <hip/hip_runtime_api.h>

#include <cstddef>

/// Writes out[i] = (i * 2654435761) ^ seed on the device (asynchronously, on `stream`).
hipError_t dtl_test_fill_index(unsigned* out, std::size_t n, unsigned seed, hipStream_t stream);
