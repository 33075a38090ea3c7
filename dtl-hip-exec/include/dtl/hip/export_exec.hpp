// SPDX-License-Identifier: MIT
#pragma once
// DTL_HIP_EXEC_API marks what libdtl-hip-exec exports. The library is built with hidden symbol visibility
// (-fvisibility=hidden), so a declaration without it stays private to the library. Classes are
// marked as a whole, so members added later are exported too; free functions one by one.
// GCC, Clang, hipcc and nvcc understand the attribute, for the shared and the static library alike.

#if defined(__GNUC__) || defined(__clang__)
#define DTL_HIP_EXEC_API [[gnu::visibility("default")]]
#else
#define DTL_HIP_EXEC_API
#endif
