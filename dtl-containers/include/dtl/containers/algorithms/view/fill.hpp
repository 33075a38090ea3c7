// SPDX-License-Identifier: MIT
#pragma once
// dtl::algorithms::device::fill(view, value): every element of a device_view set to value, on the GPU
// (upstream's spelling, <dtl/algorithms/device/device_fill.hpp>; what they share: view/support.hpp).
// Runs under any compiler: elements of up to fill_pattern_max_bytes through the library's fill kernel,
// larger ones copied from a host pattern.

#include <dtl/containers/algorithms/view/support.hpp>
#include <dtl/core/device_concepts.hpp>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/containers/communication/detail/lane.hpp>

#include <vector>
#endif

namespace dtl::algorithms::device {

template <DeviceStorable T>
void fill(device_view<T> view, const T& value) {
#if DTL_CONTAINERS_HAS_HIP
  if (view.empty()) return;
  detail::view_algorithms::run_and_wait(view, "dtl::algorithms::device::fill", [&](hipStream_t stream, int) -> status {
    constexpr std::size_t bytes = sizeof(T);
    if constexpr (bytes <= detail::fill_pattern_max_bytes) {
      return detail::fill_pattern(view.data(), view.size(), &value, bytes, stream);
    } else {
      const std::vector<T> pattern(view.size(), value);
      return hip::to_status(
          hipMemcpyAsync(view.data(), pattern.data(), view.size() * bytes, hipMemcpyHostToDevice, stream),
          "hipMemcpyAsync");  // waited for before `pattern` goes (run_and_wait)
    }
  });
#else
  static_assert(detail::view_algorithms::unavailable_v<T>,
                "dtl::algorithms::device::fill needs a DTL HIP build with HIP (-Dhip=enabled): there is no device "
                "memory here");
#endif
}

}  // namespace dtl::algorithms::device
