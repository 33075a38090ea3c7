// SPDX-License-Identifier: MIT
#pragma once
// dtl::stencil_accessor<T, N>: what an N-d stencil's operator receives for one element of a padded
// allocation (grid_decomposition.hpp): s(0, 0, 0) is the element, s(-1, 0, 0) its neighbour one step back in
// the first dimension, s(0, 1, -1) a diagonal one, and so on within the halo width (unchecked, as
// std::mdspan). Non-owning and trivially copyable; every member runs on the host and on the device.
//
//   auto laplace = [](dtl::stencil_accessor<const float, 3> s) {
//     return s(-1, 0, 0) + s(1, 0, 0) + s(0, -1, 0) + s(0, 1, 0) + s(0, 0, -1) + s(0, 0, 1) - 6 * s(0, 0, 0);
//   };

#include <dtl/containers/host_device.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/core/types.hpp>

#include <concepts>
#include <cstddef>

namespace dtl {

template <class T, size_type N>
class stencil_accessor {
  static_assert(N >= 1, "a stencil has at least one dimension");

 public:
  using element_type = T;
  using reference = T&;

  /// `center` is the element; `strides[d]` the elements between neighbours along dimension d of the
  /// allocation it lives in.
  constexpr stencil_accessor(T* center, const nd_extent<N>& strides) noexcept : center_(center) {
    for (size_type d = 0; d < N; ++d) strides_[d] = static_cast<std::ptrdiff_t>(strides[d]);
  }
  /// The same from N strides in an array (what a kernel holds: std::array's members are host functions).
  DTL_HOST_DEVICE constexpr stencil_accessor(T* center, const size_type* strides) noexcept : center_(center) {
    for (size_type d = 0; d < N; ++d) strides_[d] = static_cast<std::ptrdiff_t>(strides[d]);
  }

  [[nodiscard]] DTL_HOST_DEVICE static constexpr size_type rank() noexcept { return N; }
  /// The element `offsets` steps away, one offset per dimension.
  template <std::integral... D>
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference operator()(D... offsets) const noexcept
      requires(sizeof...(D) == N) {
    const std::ptrdiff_t step[] = {static_cast<std::ptrdiff_t>(offsets)...};
    std::ptrdiff_t at = 0;
    for (size_type d = 0; d < N; ++d) at += step[d] * strides_[d];
    return center_[at];
  }
  /// The element itself: s(0, ..., 0).
  [[nodiscard]] DTL_HOST_DEVICE constexpr reference center() const noexcept { return *center_; }

 private:
  T* center_;
  std::ptrdiff_t strides_[N] = {};
};

/// The row-major strides of an allocation of `extents`: strides[d] is the product of the extents after d.
template <size_type N>
[[nodiscard]] constexpr nd_extent<N> row_major_strides(const nd_extent<N>& extents) noexcept {
  nd_extent<N> strides{};
  size_type s = 1;
  for (size_type d = N; d-- > 0;) {
    strides[d] = s;
    s *= extents[d];
  }
  return strides;
}

}  // namespace dtl
