// SPDX-License-Identifier: MIT
// Linked into dtl-demo when the build has no HIP layers (-Dhip=disabled, or no toolchain).
#include "demo.hpp"

dtl::result<demo_report> run_gpu_demo(std::size_t) {
  return dtl::status(dtl::status_code::backend_not_available, "this build has no HIP support (-Dhip=disabled)");
}
