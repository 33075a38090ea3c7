// SPDX-License-Identifier: MIT
#pragma once
// The device body of the searches (algorithms/search.hpp, algorithms/minmax.hpp: find, all_of,
// min_element, ...), which fold over indices (algorithms/detail/indexed_fold.hpp). Not for users. One
// pass over the block (blocks of numbers: gpu::element_fold, 16-byte loads; other elements: CUB /
// rocPRIM over a counting iterator, gpu::transform_reduce_indexed), then the ranks combine. Kernel
// compiler only (algorithms/device/support.hpp); elsewhere it is declared only to explain that at
// compile time.

#include <dtl/containers/algorithms/detail/indexed_fold.hpp>
#include <dtl/containers/algorithms/device/support.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace dtl::detail::device {

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

/// The largest candidate the element fold carries (an 8-byte element with its index).
inline constexpr std::size_t element_fold_candidate_bytes = 16;

/// This rank's fold of at(i) over its n indices into d_out (device memory), on `stream`. One candidate a
/// thread (find, min, max) takes the element fold; minmax's pair of them stays with the vendor's reduce,
/// which the H100 measured faster there (0.84-0.85 of CUB's min at 1 GiB, the element fold 0.81).
template <class C, class Op, class At>
status fold_block_of(std::size_t n, const C& none, Op op, const At& at, C* d_out, gpu::device_scratch& scratch,
                     hipStream_t stream) {
  if constexpr (reads_elements<At> && sizeof(C) <= element_fold_candidate_bytes) {
    if constexpr (gpu::element_foldable_v<std::remove_cvref_t<decltype(at.data[0])>>)
      return gpu::fold_elements(at.data, n, none, op, at, d_out, scratch, stream);
  }
  return gpu::transform_reduce_indexed(n, none, op, at, d_out, scratch, stream);
}

/// The fold with op of at(i) over this rank's n indices, then over the ranks (candidates of every rank,
/// gathered, folded on the device: op may call device-only functions). Blocking under every policy.
template <class Policy, class C, class Op, class At>
result<C> locate(const Policy& policy, const context& ctx, int device, std::size_t n, const C& none, Op op, At at,
                 const char* what) {
  // A failure before anything was enqueued is agreed on alone.
  auto agreed = [&](const status& local) { return agree_before(true, ctx, local, what); };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return agreed(session.error());
  const hipStream_t stream = session->stream;
  gpu::device_scratch& scratch = *session->scratch;
  C mine = none;
  // This rank's part: its failure rides in the allgather's own agreement (one per call).
  const status found = [&]() -> status {
    DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(C)));
    C* d_mine = static_cast<C*>(slot);
    DTL_TRY(fold_block_of(n, none, op, at, d_mine, scratch, stream));
    return read_back(&mine, d_mine, 1, stream);
  }();
  if (ctx.size() == 1) {
    DTL_TRY(found);
    return mine;
  }
  std::vector<C> all(static_cast<std::size_t>(ctx.size()));
  DTL_TRY(allgather_host(ctx, &mine, all.data(), sizeof(C), found));
  DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(C) * (all.size() + 1)));
  C* d_out = static_cast<C*>(slot);
  C* d_all = d_out + 1;
  DTL_HIP_TRY(hipMemcpyAsync(d_all, all.data(), all.size() * sizeof(C), hipMemcpyHostToDevice, stream));
  DTL_TRY(gpu::reduce(d_all, all.size(), none, op, d_out, scratch, stream));
  C out = none;
  DTL_TRY(read_back(&out, d_out, 1, stream));
  return out;
}
#else  // no kernel compiler: say so where it matters, at compile time

template <class Policy, class C, class... Rest>
result<C> locate(const Policy&, const context&, int, std::size_t, const C&, Rest&&...) {
  static_assert(needs_kernel_compiler_v<Policy, C, Rest...>,
                "dtl::find / all_of / min_element and their kin on device vectors launch kernels: compile this "
                "file with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<C>(status(status_code::invalid_state, "no kernel compiler"));
}

#endif
}  // namespace dtl::detail::device
