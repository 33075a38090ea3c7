// SPDX-License-Identifier: MIT
// Builds without HIP: no pointer is device memory, so the collectives never hand device buffers here.
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"

namespace dtl::detail::device_support {

status exchange(device_resources&, comm_backend&, collective_call& call, const byte_exchange&) {
  // Never reached; it still agrees, so that no rank is left waiting.
  return call.agree(status(status_code::backend_not_available, "this build of DTL has no HIP: no device buffers"));
}

}  // namespace dtl::detail::device_support
