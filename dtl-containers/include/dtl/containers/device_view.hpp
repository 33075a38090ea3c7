// SPDX-License-Identifier: MIT
#pragma once
// device_view<T>: this rank's elements for kernels and device lambdas: a pointer, a count and the
// device id, trivially copyable (pass it by value). vec.device_view() on device-accessible placements.
//
//   auto dv = vec.device_view();
//   my_kernel<<<blocks, threads>>>(dv);            // dv.data()[i] in device code
//   auto tail = dv.last(4);                         // sub-views: pointer arithmetic only
//
// The elements are device memory: dereference them in device code only (or on the host for managed
// memory). first, last and subview clamp their counts to the view, as local_view's. No operator[] (as
// upstream's): on the host it would read device memory; indexing data() says where the elements are.

#include <dtl/containers/host_device.hpp>
#include <dtl/core/device_id.hpp>

#include <cstddef>
#include <type_traits>

namespace dtl {

template <class T>
struct device_view {
  using value_type = std::remove_cv_t<T>;
  using size_type = std::size_t;

  T* ptr = nullptr;
  size_type count = 0;
  int device_id = no_device;

  [[nodiscard]] DTL_HOST_DEVICE constexpr T* data() const noexcept { return ptr; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr size_type size() const noexcept { return count; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr bool empty() const noexcept { return count == 0; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr int device() const noexcept { return device_id; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr T* begin() const noexcept { return ptr; }
  [[nodiscard]] DTL_HOST_DEVICE constexpr T* end() const noexcept { return ptr + count; }
  /// Elements [offset, offset + n), clamped to the view (empty when offset is past its end).
  [[nodiscard]] DTL_HOST_DEVICE constexpr device_view subview(size_type offset, size_type n) const noexcept {
    const size_type start = offset < count ? offset : count;
    const size_type left = count - start;
    return device_view{ptr + start, n < left ? n : left, device_id};
  }
  [[nodiscard]] DTL_HOST_DEVICE constexpr device_view first(size_type n) const noexcept { return subview(0, n); }
  [[nodiscard]] DTL_HOST_DEVICE constexpr device_view last(size_type n) const noexcept {
    return subview(n < count ? count - n : 0, n);
  }
};

template <class T>
struct is_device_view : std::false_type {};
template <class T>
struct is_device_view<device_view<T>> : std::true_type {};
template <class T>
inline constexpr bool is_device_view_v = is_device_view<T>::value;

}  // namespace dtl
