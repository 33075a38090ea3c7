// SPDX-License-Identifier: MIT
// Builds without HIP: there is no GPU. Device collectives are never reached (no pointer is device memory).
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"

#include <dtl/core/placement.hpp>

namespace dtl::detail {

struct device_resources {
  collective_path path;
  std::string reason;
};

void device_resources_deleter::operator()(device_resources* resources) const noexcept { delete resources; }

namespace device_support {

namespace {
status no_hip() {
  return status(status_code::backend_not_available,
                "this build of DTL has no HIP (configured with -Dhip=disabled or without a HIP toolchain)");
}
}  // namespace

bool built() noexcept { return false; }
int device_count() noexcept { return 0; }
status check_device(int) { return no_hip(); }
status make_current(int) { return no_hip(); }
result<int> current_device() { return no_hip(); }

result<device_resources_ptr> create_resources(comm_backend& comm, int) {
  const bool one = comm.size() == 1;
  return device_resources_ptr(
      new device_resources{one ? collective_path::self : collective_path::mpi_staged,
                           one ? "one rank" : "this build has no HIP: there are no device buffers to move"});
}

collective_path path(const device_resources& resources) noexcept { return resources.path; }
const std::string& path_reason(const device_resources& resources) noexcept { return resources.reason; }
void release(device_resources&) noexcept {}
result<bool> is_device_memory(const void*) { return false; }
result<int> device_of_memory(const void*) { return no_device; }
bool mpi_takes_device_memory(const device_resources&) noexcept { return false; }
status fill(const context&, int, void*, std::size_t, const void*, std::size_t) { return no_hip(); }
status copy(void*, const void*, std::size_t, transfer_kind) { return no_hip(); }
status settle(device_resources&, int) { return {}; }  // no GPU: nothing runs on one

// Never reached (no pointer is device memory here); it still agrees, so that no rank is left waiting.
status collective(device_resources&, comm_backend&, collective_call& call, collective_kind, const collective_args&) {
  return call.agree(no_hip());
}

}  // namespace device_support

}  // namespace dtl::detail
