// SPDX-License-Identifier: MIT
#pragma once
// dtl::algorithms::device::sort_ascending / sort_descending(view): a device_view's elements sorted in
// place on the GPU (upstream's spelling, <dtl/algorithms/device/device_sort.hpp>; what they share:
// view/support.hpp). Numbers by radix (CUB / rocPRIM), other types by a merge sort on operator<.
// Kernels for T: the file that calls them is compiled by the kernel compiler.

#include <dtl/containers/algorithms/view/support.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/core/device_concepts.hpp>

#include <type_traits>

#if DTL_CONTAINERS_VIEW_KERNELS
#include <dtl/containers/gpu/primitives.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#endif

namespace dtl::detail::view_algorithms {

struct less {
  template <class T>
  DTL_HOST_DEVICE constexpr bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};
struct greater {
  template <class T>
  DTL_HOST_DEVICE constexpr bool operator()(const T& a, const T& b) const {
    return b < a;
  }
};

template <class T>
void sort_view(device_view<T> view, bool descending, const char* what) {
#if DTL_CONTAINERS_VIEW_KERNELS
  if (view.size() <= 1) return;
  run_and_wait(view, what, [&](hipStream_t stream, int device) -> status {
    gpu::device_scratch scratch(device, stream);
    status s;
    if constexpr (std::is_arithmetic_v<T>) {
      s = gpu::radix_sort(view.data(), static_cast<unsigned char*>(nullptr), view.size(), descending, scratch, stream);
    } else if (descending) {
      s = gpu::merge_sort(view.data(), static_cast<unsigned char*>(nullptr), view.size(), greater{}, scratch, stream);
    } else {
      s = gpu::merge_sort(view.data(), static_cast<unsigned char*>(nullptr), view.size(), less{}, scratch, stream);
    }
    DTL_TRY(s);
    return hip::to_status(hipStreamSynchronize(stream), "hipStreamSynchronize");  // before the scratch goes
  });
#else
  (void)view, (void)descending, (void)what;
  static_assert(unavailable_v<T>,
                "dtl::algorithms::device::sort_ascending / sort_descending run kernels for T: compile this file "
                "with the kernel compiler (dtl-hip-kc, or hipcc) in a DTL HIP build with HIP");
#endif
}

}  // namespace dtl::detail::view_algorithms

namespace dtl::algorithms::device {

template <DeviceStorable T>
void sort_ascending(device_view<T> view) {
  detail::view_algorithms::sort_view(view, false, "dtl::algorithms::device::sort_ascending");
}

template <DeviceStorable T>
void sort_descending(device_view<T> view) {
  detail::view_algorithms::sort_view(view, true, "dtl::algorithms::device::sort_descending");
}

}  // namespace dtl::algorithms::device
