// SPDX-License-Identifier: MIT
#pragma once
// What upstream's device-view helpers (dtl::algorithms::device: fill, reduce_sum / min / max,
// sort_ascending / descending) share. Each takes one device_view, no context and no stream, and returns
// when its work is done, as upstream's do (theirs copy through the host; ours stay on the GPU). They run
// on the view's device (the current device when the view names none), on HIP's null stream, and restore
// the caller's device. A failure throws dtl::status_error naming the call: upstream's return nothing
// and ignore it.
//
// fill runs under any compiler (the library has its kernel); the reductions and sorts instantiate
// kernels for T, so they need the kernel compiler (dtl-hip-kc), and elsewhere say so at compile time.

#include <dtl/containers/config.hpp>
#include <dtl/containers/device_view.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/runtime.hpp>
#endif

#if (defined(__HIPCC__) || defined(__CUDACC__)) && DTL_CONTAINERS_HAS_HIP
#define DTL_CONTAINERS_VIEW_KERNELS 1
#else
#define DTL_CONTAINERS_VIEW_KERNELS 0
#endif

namespace dtl::detail::view_algorithms {

/// False for every Args: a static_assert on it fires only when a body is instantiated.
template <class...>
inline constexpr bool unavailable_v = false;

#if DTL_CONTAINERS_HAS_HIP
/// Runs work(stream, device) on the view's device (the current one when the view names none) and the null
/// stream, waits for it, and restores the caller's device; throws status_error with `what` on failure.
template <class T, class Work>
void run_and_wait(const device_view<T>& view, const char* what, Work&& work) {
  const auto fail = [what](const status& s) { throw status_error(s.with_context(what)); };
  int device = view.device();
  if (device == no_device) {
    const result<int> current = hip::current_device();
    if (!current) fail(current.error());
    device = *current;
  }
  result<hip::device_guard> guard = hip::device_guard::enter(device);
  if (!guard) fail(guard.error());
  hipStream_t stream = nullptr;  // the null stream: ordered after the caller's work there, as upstream's copies are
  status s = work(stream, device);
  if (s.ok()) s = hip::to_status(hipStreamSynchronize(stream), "hipStreamSynchronize");
  if (!s.ok()) fail(s);
}
#endif

}  // namespace dtl::detail::view_algorithms
