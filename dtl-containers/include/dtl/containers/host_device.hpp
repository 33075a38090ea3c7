#pragma once
// DTL_HOST_DEVICE: functions callable from host and device code. It expands to __host__ __device__
// under the kernel compilers (hipcc, nvcc) and to nothing under a plain C++ compiler.

#if defined(__HIPCC__) || defined(__CUDACC__)
#define DTL_HOST_DEVICE __host__ __device__
#else
#define DTL_HOST_DEVICE
#endif
