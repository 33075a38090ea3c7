// SPDX-License-Identifier: MIT
#pragma once
// DTL_CONTAINERS_API marks what libdtl-containers exports (the library is built with hidden visibility).

#if defined(_WIN32)
#define DTL_CONTAINERS_API
#else
#define DTL_CONTAINERS_API __attribute__((visibility("default")))
#endif
