// SPDX-License-Identifier: MIT
#pragma once
// The device body of inclusive_scan and exclusive_scan (algorithms/scan.hpp). Not for users. Kernel
// compiler only (algorithms/device/support.hpp); elsewhere it is declared only to explain that at
// compile time.

#include <dtl/containers/algorithms/device/support.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace dtl::detail::device {

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

/// Inclusive or exclusive scan of one rank's block, offset by the blocks of the ranks before it.
template <bool Inclusive, class Policy, class T, class Op>
auto scan(const Policy& policy, const context& ctx, int device, const T* in, T* out, std::size_t n, const T& init,
          Op op) {
  using Pol = std::remove_cvref_t<Policy>;
  // As in reduce: a rank whose local part fails takes part in the agreement before the ranks combine (the
  // allgather's own; `agreed` is for a failure before anything was enqueued).
  auto agreed = [&](const status& local) { return agree_before(true, ctx, local, "scan (the ranks' block totals)"); };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, void>(agreed(session.error()));
  const hipStream_t stream = session->stream;
  gpu::device_scratch& scratch = *session->scratch;

  // Enqueues the scan; the host waits only for the block totals that other ranks need.
  auto compute = [&]() -> result<void> {
    if (ctx.size() == 1) {  // no block before this one: the prefix is init, and nothing goes through the host
      if (n == 0) return {};
      if constexpr (Inclusive) {
        DTL_TRY(gpu::inclusive_scan(in, out, n, op, scratch, stream));
        return gpu::apply_prefix(out, n, init, op, stream);
      } else {
        return gpu::exclusive_scan(in, out, n, init, op, scratch, stream);
      }
    }
    // This block's total: the last element of the inclusive scan, or a reduction before the exclusive one.
    maybe<T> total{T{}, 0};
    const status totalled = [&]() -> status {
      if (n != 0) {
        if constexpr (Inclusive) {
          DTL_TRY(gpu::inclusive_scan(in, out, n, op, scratch, stream));
          DTL_TRY(read_back(&total.value, out + (n - 1), 1, stream));
        } else {
          DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(maybe<T>)));
          auto* d_total = static_cast<maybe<T>*>(slot);
          DTL_TRY(gpu::transform_reduce(in, n, maybe<T>{T{}, 0}, make_maybe_op<T>(op),
                                        maybe_transform<T, identity_transform>{}, d_total, scratch, stream));
          DTL_TRY(read_back(&total, d_total, 1, stream));
        }
        total.present = 1;
      }
      return {};
    }();
    std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
    DTL_TRY(allgather_host(ctx, &total, all.data(), sizeof(total), totalled));
    all.resize(static_cast<std::size_t>(ctx.rank()));  // the blocks before this one
    DTL_ASSIGN_OR_RETURN(const T prefix, fold_on_device(all, init, op, scratch, stream));
    if (n == 0) return {};
    if constexpr (Inclusive) {
      DTL_TRY(gpu::apply_prefix(out, n, prefix, op, stream));
    } else {
      DTL_TRY(gpu::exclusive_scan(in, out, n, prefix, op, scratch, stream));
    }
    return {};
  };
  if (result<void> enqueued = compute(); !enqueued) return failed_outcome<Pol, void>(std::move(enqueued).error());
  return outcome_on_stream<Pol>(*session->lane, stream, nothing_to_read{});
}
#else  // no kernel compiler: say so where it matters, at compile time

template <bool Inclusive, class... Args>
auto scan(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::inclusive_scan / exclusive_scan on a device placement launches kernels: compile this file "
                "with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<void>();
}

#endif

}  // namespace dtl::detail::device
