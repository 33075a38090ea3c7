// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's helpers that find the GPU of a context, for placements that choose their device at run
// time (device_only_runtime). Ours: a dtl::context's device (context::device(); the device of its
// hip_domain / cuda_domain), or that of the context an object carries (upstream's communicator,
// ctx.get<dtl::mpi_domain>()). A context without a device, or an object without a context, has none.

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/config.hpp>  // upstream's header gives its DTL_ENABLE_* macros too
#include <dtl/core/device_id.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <optional>

namespace dtl::detail {

/// Objects whose GPU these helpers can find.
template <class Ctx>
concept ContextMayHaveGpuDomain = requires(const Ctx& ctx) {
  { ctx.device() } -> std::convertible_to<int>;
}
|| requires(const Ctx& ctx) {
  { ctx.dtl_context().device() } -> std::convertible_to<int>;
};

/// Same, in a build whose contexts can have a GPU (HIP builds).
template <class Ctx>
concept ContextWithGpuDomain = build::has_hip && ContextMayHaveGpuDomain<Ctx>;

/// The GPU of `ctx`, or nullopt.
template <class Ctx>
[[nodiscard]] std::optional<int> ctx_gpu_device_id(const Ctx& ctx) noexcept {
  int device = no_device;
  if constexpr (requires { ctx.device(); }) {
    device = static_cast<int>(ctx.device());
  } else if constexpr (requires { ctx.dtl_context().device(); }) {
    device = ctx.dtl_context().device();
  }
  if (device == no_device) return std::nullopt;
  return device;
}

template <class Ctx>
[[nodiscard]] bool ctx_has_gpu_domain(const Ctx& ctx) noexcept {
  return ctx_gpu_device_id(ctx).has_value();
}

/// The GPU of `ctx`, or invalid_argument.
template <class Ctx>
[[nodiscard]] result<int> ctx_try_gpu_device_id(const Ctx& ctx) {
  if (const std::optional<int> device = ctx_gpu_device_id(ctx)) return *device;
  return status(status_code::invalid_argument,
                "a run-time device placement needs a context with a device (environment::make_world_context() on a "
                "rank with a GPU, or ctx.with_hip(device))");
}

/// Same; throws dtl::status_error instead.
template <class Ctx>
[[nodiscard]] int ctx_require_gpu_device_id(const Ctx& ctx) {
  return value_or_throw(ctx_try_gpu_device_id(ctx));
}

}  // namespace dtl::detail
