// SPDX-License-Identifier: MIT
// The device window in builds without HIP: there is no device memory to expose.
#include "gpu_comm/ipc_window.hpp"

namespace dtl::detail::ipc_window {

result<std::shared_ptr<block_window>> open(comm_backend&, device_resources&, int, void*, std::size_t, int,
                                           std::shared_ptr<window>, std::string) {
  return status(status_code::backend_not_available, "a window of device memory: this build has no HIP");
}

}  // namespace dtl::detail::ipc_window
