// SPDX-License-Identifier: MIT
#pragma once
// The one place where host and device code differ in how they are written.
//
// DTL_HOST_DEVICE marks functions that user code and DTL's own function objects run on the device
// as well as on the host. Under the kernel compilers (nvcc, hipcc) it is __host__ __device__; under a
// plain C++ compiler, which never compiles device code, it is nothing.
//
// DTL_LAMBDA opens a lambda that an algorithm may run on either side, as Kokkos's KOKKOS_LAMBDA does:
// `dtl::transform(x, y, DTL_LAMBDA(float v) { return 2.0f * v; })`. It captures by copy (a kernel cannot
// reach the host's stack) and is DTL_HOST_DEVICE, so the same line serves a host_only vector and a device
// one. nvcc takes such a lambda only inside a named function (not inside another lambda, not in a
// function whose return type is deduced): write the body of a write-once program as a function template
// of its placement (dtl/containers/device_or_host.hpp).

#if defined(__CUDACC__) || defined(__HIPCC__)
#define DTL_HOST_DEVICE __host__ __device__
#else
#define DTL_HOST_DEVICE
#endif

#define DTL_LAMBDA [=] DTL_HOST_DEVICE
