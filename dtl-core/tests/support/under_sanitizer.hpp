// SPDX-License-Identifier: MIT
#pragma once
// Whether this run is under a sanitizer that changes timing (scripts/gpu-check sets DTL_UNDER_SANITIZER
// for its compute-sanitizer runs): test cases that depend on host/device concurrency skip themselves
// there with doctest::skip(under_sanitizer()), and run, and must pass, in the plain run.

#include <cstdlib>

namespace dtl_test {

inline bool under_sanitizer() noexcept { return std::getenv("DTL_UNDER_SANITIZER") != nullptr; }

}  // namespace dtl_test
