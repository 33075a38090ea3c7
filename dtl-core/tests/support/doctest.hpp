// SPDX-License-Identifier: MIT
#pragma once
// Debian ships <doctest/doctest.h>; the WrapDB fallback exposes <doctest.h>.
#if __has_include(<doctest/doctest.h>)
#include <doctest/doctest.h>
#else
#include <doctest.h>
#endif
