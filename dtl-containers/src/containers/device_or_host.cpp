// SPDX-License-Identifier: MIT
// Device placements without a device: one status for all of them, and the ranks' agreement that
// with_device_or_host() takes its placement from.
#include "gpu_comm/device_support.hpp"

#include <dtl/containers/device_or_host.hpp>
#include <dtl/containers/placement_traits.hpp>
#include <dtl/core/try.hpp>

#include <fmt/format.h>

namespace dtl {

namespace detail {

status no_device_for_placement(std::string_view why, std::source_location where) {
  return status(status_code::backend_not_available,
                fmt::format("{}: a device placement needs a GPU; use dtl::host_only where there is none, or "
                            "dtl::with_device_or_host(ctx, f) to run on the GPU when every rank has one and on "
                            "the host otherwise",
                            why),
                where);
}

}  // namespace detail

status check_device_placement(const context& ctx) {
  const int here = ctx.has_device() ? 1 : 0;
  // min: 1 only when every rank has a GPU, so that the ranks take the same placement.
  DTL_ASSIGN_OR_RETURN(const int everywhere, ctx.allreduce_value(here, reduce_op::min));
  if (everywhere == 1) return {};
  if (!detail::device_support::built())
    return detail::no_device_for_placement("this build of DTL has no HIP (configured with -Dhip=disabled)");
  return detail::no_device_for_placement(here == 1 ? "a rank of this context has no GPU"
                                                   : "this rank's context has no GPU");
}

}  // namespace dtl
