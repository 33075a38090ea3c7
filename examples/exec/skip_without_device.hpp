// SPDX-License-Identifier: MIT
#pragma once
// main() of the exec examples: the guide's constructors throw dtl::status_error when they cannot make a
// stream, event or executor (backend_not_available without a device); report that instead of
// terminating, and skip (77) where there is no device.

#include <dtl/core/status_error.hpp>

#include <cstdio>

template <class Run>
int run_or_skip_without_device(Run run) {
  try {
    return run();
  } catch (const dtl::status_error& e) {
    if (e.code() == dtl::status_code::backend_not_available) {
      std::printf("no HIP device: skipping\n");
      return 77;
    }
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
