// SPDX-License-Identifier: MIT
#pragma once
// subview<View>: `count` consecutive elements of a random-access view from `offset` (upstream DTL's),
// clamped to the view as local_view's sub-views are: an offset past the end gives an empty subview.
//
//   auto middle = dtl::make_subview(vec.local_view(), 1, 3);   // writes reach the vector
//   auto head = dtl::take(local, 3);   auto rest = dtl::drop(local, 3);
//
// View is held by value: a view (local_view, span, strided_view, another subview), cheap to copy; the
// elements must outlive the subview. data() is there when the view is contiguous.

#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>

namespace dtl {

template <class View>
class subview {
 public:
  using view_type = View;
  using size_type = std::size_t;
  using iterator = std::ranges::iterator_t<const View>;
  using reference = std::iter_reference_t<iterator>;
  using value_type = std::iter_value_t<iterator>;

  subview(View view, size_type offset, size_type count)
      : view_(std::move(view)),
        offset_(std::min<size_type>(offset, std::ranges::size(view_))),
        count_(std::min<size_type>(count, std::ranges::size(view_) - offset_)) {}

  [[nodiscard]] iterator begin() const { return std::ranges::begin(view_) + static_cast<std::ptrdiff_t>(offset_); }
  [[nodiscard]] iterator end() const { return begin() + static_cast<std::ptrdiff_t>(count_); }
  [[nodiscard]] size_type size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  /// Unchecked, as the view's own.
  [[nodiscard]] reference operator[](size_type i) const { return begin()[static_cast<std::ptrdiff_t>(i)]; }
  [[nodiscard]] reference front() const { return *begin(); }
  [[nodiscard]] reference back() const { return (*this)[count_ - 1]; }
  [[nodiscard]] auto data() const requires std::ranges::contiguous_range<const View> {
    return std::ranges::data(view_) + offset_;
  }
  /// Where it starts in the view.
  [[nodiscard]] size_type offset() const noexcept { return offset_; }
  [[nodiscard]] const View& base() const noexcept { return view_; }
  /// Its own elements [offset, offset + count), clamped: a subview of the same view.
  [[nodiscard]] subview subrange(size_type offset, size_type count) const {
    const size_type start = std::min(offset, count_);
    return subview(view_, offset_ + start, std::min(count, count_ - start));
  }

 private:
  View view_;
  size_type offset_;
  size_type count_;
};

namespace detail {
/// What a subview can be taken of: a random-access view with a size.
template <class View>
concept subviewable = std::ranges::random_access_range<const std::remove_cvref_t<View>> &&
    std::ranges::sized_range<const std::remove_cvref_t<View>>;
}  // namespace detail

template <detail::subviewable View>
[[nodiscard]] auto make_subview(View&& view, size_type offset, size_type count) {
  return subview<std::remove_cvref_t<View>>(std::forward<View>(view), offset, count);
}
/// The first n elements (all of them when there are fewer).
template <detail::subviewable View>
[[nodiscard]] auto take(View&& view, size_type n) {
  return make_subview(std::forward<View>(view), 0, n);
}
/// All but the first n elements (none when there are fewer).
template <detail::subviewable View>
[[nodiscard]] auto drop(View&& view, size_type n) {
  const size_type size = std::ranges::size(view);
  return make_subview(std::forward<View>(view), n, size - std::min(n, size));
}

}  // namespace dtl

template <class View>
inline constexpr bool std::ranges::enable_borrowed_range<dtl::subview<View>> = std::ranges::borrowed_range<View>;
