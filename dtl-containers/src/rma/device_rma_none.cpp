// SPDX-License-Identifier: MIT
// memory_window over device memory in builds without HIP: there is none to expose.
#include "rma/device_rma.hpp"

namespace dtl::detail::device_rma {

namespace {
status no_hip() {
  return status(status_code::backend_not_available, "a memory_window over device memory: this build has no HIP");
}
}  // namespace

result<std::shared_ptr<device_lane>> prepare(context_state&, int) { return no_hip(); }

result<std::unique_ptr<rma_window>> open(context_state&, int, int, void*, std::size_t, std::shared_ptr<device_lane>) {
  return no_hip();
}

}  // namespace dtl::detail::device_rma
