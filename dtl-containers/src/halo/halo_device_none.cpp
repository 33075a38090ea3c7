// SPDX-License-Identifier: MIT
// Builds without HIP: no vector lives in device memory, so no plan reaches the device paths.
#include "halo/halo_plan.hpp"

namespace dtl::detail {

struct halo_device {};

void halo_device_deleter::operator()(halo_device* dev) const noexcept { delete dev; }

namespace {
status no_hip() {
  return status(status_code::backend_not_available, "this build of DTL has no HIP: no halo lives on a device");
}
}  // namespace

int device_path_code(context_state&, int) noexcept { return 0; }
result<halo_device_ptr> make_halo_device(halo_plan&) { return no_hip(); }
status connect_halo_device(halo_plan&) { return {}; }
status device_exchange_now(halo_plan&) { return no_hip(); }
bool device_exchange_on_stream_only(const halo_plan&) noexcept { return false; }
status device_exchange_begin(halo_plan&) { return no_hip(); }
status device_exchange_end(halo_plan&) { return no_hip(); }
status device_reduce(halo_plan&, datatype, reduce_op) { return no_hip(); }
const char* device_path_name(const halo_plan&) noexcept { return "none"; }

}  // namespace dtl::detail
