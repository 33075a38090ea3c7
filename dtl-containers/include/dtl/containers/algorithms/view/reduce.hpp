// SPDX-License-Identifier: MIT
#pragma once
// dtl::algorithms::device::reduce_sum / reduce_min / reduce_max(view): one value from a device_view of
// const T, reduced on the GPU and read back (upstream's spelling,
// <dtl/algorithms/device/device_reduce.hpp>; what they share: view/support.hpp). An empty view gives
// T{}, as upstream's. Kernels for T: the file that calls them is compiled by the kernel compiler.

#include <dtl/containers/algorithms/view/support.hpp>
#include <dtl/containers/host_device.hpp>
#include <dtl/core/device_concepts.hpp>

#include <limits>
#include <type_traits>

#if DTL_CONTAINERS_VIEW_KERNELS
#include <dtl/containers/gpu/primitives.hpp>
#include <dtl/containers/gpu/scratch.hpp>
#endif

namespace dtl::detail::view_algorithms {

struct sum {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct minimum {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct maximum {
  template <class T>
  DTL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

/// Where a fold by Op starts: T{} for a sum; for min and max, which have no identity, the largest or
/// lowest number, or (other types) the view's first element, read first.
template <class T, class Op>
inline constexpr bool has_starting_value_v = std::is_same_v<Op, sum> || std::numeric_limits<T>::is_specialized;

template <class T, class Op>
T starting_value() {
  if constexpr (std::is_same_v<Op, sum>)
    return T{};
  else if constexpr (std::is_same_v<Op, minimum>)
    return std::numeric_limits<T>::max();
  else
    return std::numeric_limits<T>::lowest();
}

/// The fold of view's elements by op.
template <class T, class Op>
T reduce_view(device_view<const T> view, Op op, const char* what) {
#if DTL_CONTAINERS_VIEW_KERNELS
  T out{};
  if (view.empty()) return out;
  run_and_wait(view, what, [&](hipStream_t stream, int device) -> status {
    gpu::device_scratch scratch(device, stream);
    DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(sizeof(T)));
    auto* d_result = static_cast<T*>(slot);
    if constexpr (has_starting_value_v<T, Op>) {
      DTL_TRY(gpu::reduce(view.data(), view.size(), starting_value<T, Op>(), op, d_result, scratch, stream));
    } else {
      T first{};
      DTL_HIP_TRY(hipMemcpyAsync(&first, view.data(), sizeof(T), hipMemcpyDeviceToHost, stream));
      DTL_HIP_TRY(hipStreamSynchronize(stream));
      DTL_TRY(gpu::reduce(view.data() + 1, view.size() - 1, first, op, d_result, scratch, stream));
    }
    DTL_HIP_TRY(hipMemcpyAsync(&out, d_result, sizeof(T), hipMemcpyDeviceToHost, stream));
    DTL_HIP_TRY(hipStreamSynchronize(stream));  // before the scratch frees the slot
    return {};
  });
  return out;
#else
  (void)view, (void)op, (void)what;
  static_assert(unavailable_v<T, Op>,
                "dtl::algorithms::device::reduce_sum / reduce_min / reduce_max run kernels for T: compile this file "
                "with the kernel compiler (dtl-hip-kc, or hipcc) in a DTL HIP build with HIP");
  return T{};
#endif
}

}  // namespace dtl::detail::view_algorithms

namespace dtl::algorithms::device {

template <DeviceStorable T>
T reduce_sum(device_view<const T> view) {
  return detail::view_algorithms::reduce_view(view, detail::view_algorithms::sum{},
                                              "dtl::algorithms::device::reduce_sum");
}

template <DeviceStorable T>
T reduce_min(device_view<const T> view) {
  return detail::view_algorithms::reduce_view(view, detail::view_algorithms::minimum{},
                                              "dtl::algorithms::device::reduce_min");
}

template <DeviceStorable T>
T reduce_max(device_view<const T> view) {
  return detail::view_algorithms::reduce_view(view, detail::view_algorithms::maximum{},
                                              "dtl::algorithms::device::reduce_max");
}

}  // namespace dtl::algorithms::device
