// SPDX-License-Identifier: MIT
#pragma once
// window_view<R>: sliding windows of window_size consecutive elements, each `stride` elements after the
// one before (1 by default: every position); only whole windows, so a range shorter than one window
// has none (upstream DTL's; std::views::slide when the stride is 1). Each window is a range_slice:
// win[0], win.center(), win.back() for stencils.
//
//   for (auto w : dtl::window_view(values, 3)) out.push_back(0.25 * w[0] + 0.5 * w[1] + 0.25 * w[2]);
//
// A view: the range's elements must outlive it (see range_slice.hpp). A window size or stride of 0
// throws dtl::status_error (invalid_argument).

#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/views/range_slice.hpp>

#include <cstddef>
#include <iterator>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>

namespace dtl {

template <std::ranges::random_access_range R>
class window_view {
 public:
  using base_iterator = std::ranges::iterator_t<R>;
  using window_type = range_slice<base_iterator>;
  using size_type = std::size_t;

  class iterator {
   public:
    using value_type = window_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    iterator() = default;
    iterator(const window_view* view, size_type index) : view_(view), index_(index) {}
    [[nodiscard]] window_type operator*() const { return view_->window(index_); }
    iterator& operator++() noexcept { return ++index_, *this; }
    iterator operator++(int) noexcept { return iterator(view_, index_++); }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.index_ == b.index_; }

   private:
    const window_view* view_ = nullptr;
    size_type index_ = 0;
  };

  /// Throws dtl::status_error (invalid_argument) for a window size or stride of 0.
  template <detail::range_source<R> Src>
  window_view(Src&& range, size_type window_size, size_type stride = 1)
      : first_(std::ranges::begin(range)),
        size_(static_cast<size_type>(std::ranges::distance(range))),
        window_(checked(window_size, "window size")),
        stride_(checked(stride, "stride")) {}

  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, num_windows()); }
  [[nodiscard]] size_type num_windows() const noexcept { return size_ < window_ ? 0 : (size_ - window_) / stride_ + 1; }
  [[nodiscard]] size_type size() const noexcept { return num_windows(); }
  [[nodiscard]] bool empty() const noexcept { return num_windows() == 0; }
  [[nodiscard]] size_type window_size() const noexcept { return window_; }
  [[nodiscard]] size_type stride() const noexcept { return stride_; }
  /// Window i (i < num_windows()): elements [i * stride, i * stride + window_size).
  [[nodiscard]] window_type window(size_type i) const {
    const base_iterator at = first_ + static_cast<std::ptrdiff_t>(i * stride_);
    return window_type(at, at + static_cast<std::ptrdiff_t>(window_), window_);
  }

 private:
  static size_type checked(size_type n, const char* what) {
    if (n == 0)
      throw status_error(
          status(status_code::invalid_argument, std::string("window_view: the ") + what + " must be at least 1"));
    return n;
  }

  base_iterator first_;
  size_type size_;
  size_type window_;
  size_type stride_;
};

template <class R>
window_view(R&&, std::size_t, std::size_t = 1) -> window_view<std::remove_reference_t<R>>;

template <class R>
[[nodiscard]] auto make_window_view(R&& range, std::size_t window_size, std::size_t stride = 1) {
  return window_view<std::remove_reference_t<R>>(std::forward<R>(range), window_size, stride);
}

template <class T>
struct is_window_view : std::false_type {};
template <class R>
struct is_window_view<window_view<R>> : std::true_type {};
template <class T>
inline constexpr bool is_window_view_v = is_window_view<T>::value;

}  // namespace dtl
