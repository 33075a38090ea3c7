// SPDX-License-Identifier: MIT
#pragma once
// Write once, run on the GPU or the host: with_device_or_host() calls a generic function with the
// placement every rank of a context supports, device_only_runtime when each has a GPU, host_only
// otherwise, so that one program runs on a GPU machine and on a machine without one:
//
//   template <class Placement>
//   int saxpy(const dtl::context& ctx, Placement) {
//     dtl::distributed_vector<float, Placement> x(1 << 20, 1.0f, ctx), y(1 << 20, ctx);
//     dtl::value_or_throw(dtl::transform(x, y, DTL_LAMBDA(float v) { return 2.0f * v; }));
//     return dtl::reduce(y, 0.0f) == 2.0f * (1 << 20) ? 0 : 1;
//   }
//   ...
//   return dtl::with_device_or_host(ctx, [&](auto placement) { return saxpy(ctx, placement); });
//
// The body is a named function template, not the generic lambda itself, because nvcc refuses a
// DTL_LAMBDA defined inside another lambda (dtl/containers/host_device.hpp). In a HIP build both
// placements are compiled, so the file goes through the kernel compiler (hipcc, nvcc: dtl-hip-kc), as
// any file with device lambdas does; a build without HIP compiles only the host one.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>

#include <type_traits>

namespace dtl {

/// ok when a device placement can hold every rank's block: this build has HIP and each rank's context
/// has a GPU. Otherwise backend_not_available on every rank, as a device placement's constructor gives
/// without a GPU, naming the host placement and with_device_or_host; another code when the ranks could
/// not agree (an ended environment). Collective: every rank of ctx calls it.
[[nodiscard]] DTL_CONTAINERS_API status check_device_placement(const context& ctx);

/// f(dtl::device_only_runtime{}) when check_device_placement(ctx) is ok, else f(dtl::host_only{}); returns
/// what f returns (the same type for both placements). Collective, since the ranks must take the same
/// placement. Throws dtl::status_error when the ranks could not agree; its non-throwing form is
/// check_device_placement() and a branch of your own.
template <class F>
std::invoke_result_t<F&, host_only> with_device_or_host(const context& ctx, F&& f) {
  const status device = check_device_placement(ctx);
  if (device.ok()) {
#if DTL_CONTAINERS_HAS_HIP
    static_assert(std::is_same_v<std::invoke_result_t<F&, device_only_runtime>, std::invoke_result_t<F&, host_only>>,
                  "with_device_or_host: f must return the same type for device_only_runtime and host_only");
    return f(device_only_runtime{});
#endif
  } else if (device.code() != status_code::backend_not_available) {
    throw status_error(device);
  }
  return f(host_only{});
}

}  // namespace dtl
