// SPDX-License-Identifier: MIT
#pragma once
// DTL_HOST_DEVICE marks functions that user code and DTL's own function objects run on the device
// as well as on the host. Under the kernel compilers (nvcc, hipcc) it is __host__ __device__; under a
// plain C++ compiler, which never compiles device code, it is nothing.

#if defined(__CUDACC__) || defined(__HIPCC__)
#define DTL_HOST_DEVICE __host__ __device__
#else
#define DTL_HOST_DEVICE
#endif
