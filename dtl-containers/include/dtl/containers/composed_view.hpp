// SPDX-License-Identifier: MIT
#pragma once
// Views composed with `|` (upstream DTL's composed_view): a view piped into an adaptor gives a
// strided_view or a subview of it, which pipes on.
//
//   auto evens = vec.local_view() | dtl::stride(2);           // strided_view: every 2nd from 0
//   auto part = local | dtl::slice(4, 10) | dtl::stride(2);    // subview, then every 2nd of it
//   local | dtl::take_n(3);   local | dtl::drop_n(7);           // subviews (clamped)
//
// compose_strided(view, n, offset) and compose_subview(view, offset, count) are the same without the
// pipe. The adaptors hold only their numbers; the rules are strided_view's and subview's.

#include <dtl/containers/strided_view.hpp>
#include <dtl/core/types.hpp>
#include <dtl/views/subview.hpp>

#include <cstddef>
#include <utility>

namespace dtl {

/// Every n-th element from `offset` (strided_view).
struct stride_adaptor {
  std::ptrdiff_t stride;
  size_type offset;
};
/// `count` elements from `offset` (subview).
struct slice_adaptor {
  size_type offset;
  size_type count;
};
/// The first n elements.
struct take_adaptor {
  size_type count;
};
/// All but the first n elements.
struct drop_adaptor {
  size_type count;
};

[[nodiscard]] constexpr stride_adaptor stride(std::ptrdiff_t n, size_type offset = 0) noexcept { return {n, offset}; }
[[nodiscard]] constexpr slice_adaptor slice(size_type offset, size_type count) noexcept { return {offset, count}; }
[[nodiscard]] constexpr take_adaptor take_n(size_type n) noexcept { return {n}; }
[[nodiscard]] constexpr drop_adaptor drop_n(size_type n) noexcept { return {n}; }

template <class View>
[[nodiscard]] auto compose_strided(View&& view, std::ptrdiff_t n, size_type offset = 0) {
  return make_strided_view(std::forward<View>(view), n, offset);
}
template <class View>
[[nodiscard]] auto compose_subview(View&& view, size_type offset, size_type count) {
  return make_subview(std::forward<View>(view), offset, count);
}

template <class View>
[[nodiscard]] auto operator|(View&& view, stride_adaptor a) {
  return compose_strided(std::forward<View>(view), a.stride, a.offset);
}
template <class View>
[[nodiscard]] auto operator|(View&& view, slice_adaptor a) {
  return compose_subview(std::forward<View>(view), a.offset, a.count);
}
template <class View>
[[nodiscard]] auto operator|(View&& view, take_adaptor a) {
  return take(std::forward<View>(view), a.count);
}
template <class View>
[[nodiscard]] auto operator|(View&& view, drop_adaptor a) {
  return drop(std::forward<View>(view), a.count);
}

}  // namespace dtl
