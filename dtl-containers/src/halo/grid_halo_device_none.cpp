// SPDX-License-Identifier: MIT
// Builds without HIP: no tensor lives in device memory, so no N-d halo plan reaches the device path.
#include "halo/grid_halo_plan.hpp"

namespace dtl::detail {

struct grid_halo_device {};

void grid_halo_device_deleter::operator()(grid_halo_device* dev) const noexcept { delete dev; }

namespace {
status no_hip() {
  return status(status_code::backend_not_available, "this build of DTL has no HIP: no N-d halo lives on a device");
}
}  // namespace

status make_grid_halo_device(grid_halo_plan&, std::size_t) { return no_hip(); }
status grid_device_begin(grid_halo_plan&) { return no_hip(); }
status grid_device_end(grid_halo_plan&) { return no_hip(); }
status grid_device_copy_allocation(grid_halo_plan&, std::byte*, bool) { return no_hip(); }

}  // namespace dtl::detail
