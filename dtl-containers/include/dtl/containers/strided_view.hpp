// SPDX-License-Identifier: MIT
#pragma once
// strided_view<View>: every stride-th element of a view, starting at `offset` (upstream DTL's
// strided_view and make_strided_view). View is anything with size() and operator[](i): a vector's
// local_view() (elements T&, a random-access range for the STL algorithms) or its global_view()
// (elements remote_ref<T>: each access may communicate, see global_view.hpp).
//
//   auto local = vec.local_view();
//   auto even = dtl::make_strided_view(local, 2);      // local[0], local[2], ...
//   auto odd = dtl::make_strided_view(local, 2, 1);    // local[1], local[3], ...
//   std::transform(even.begin(), even.end(), even.begin(), negate);
//
// Unlike upstream's, the view is held by value (views are cheap and non-owning, so a temporary
// vec.local_view() works), a stride below 1 throws dtl::status_error (invalid_argument) instead of
// dividing by zero, and iterators are index-based: end() never points past the view's end.
// Iterators refer to their strided_view: keep it alive while they are used.

#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <compare>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace dtl {

template <class View>
class strided_view {
 public:
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = decltype(std::declval<const View&>()[size_type{}]);
  using const_reference = reference;
  using value_type = std::remove_cvref_t<reference>;
  using view_type = View;

  class iterator {
   public:
    // Random access over real references (a local_view); over proxies (a global_view's remote_ref)
    // the legacy category is input, as for any iterator whose reference is not a T&.
    using value_type = strided_view::value_type;
    using difference_type = std::ptrdiff_t;
    using reference = strided_view::reference;
    using pointer = void;
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::conditional_t<std::is_lvalue_reference_v<reference>, std::random_access_iterator_tag,
                                                 std::input_iterator_tag>;

    iterator() = default;
    iterator(const strided_view* view, difference_type index) noexcept : view_(view), index_(index) {}

    reference operator*() const { return (*view_)[static_cast<size_type>(index_)]; }
    reference operator[](difference_type n) const { return (*view_)[static_cast<size_type>(index_ + n)]; }
    iterator& operator++() noexcept { return ++index_, *this; }
    iterator operator++(int) noexcept { return iterator(view_, index_++); }
    iterator& operator--() noexcept { return --index_, *this; }
    iterator operator--(int) noexcept { return iterator(view_, index_--); }
    iterator& operator+=(difference_type n) noexcept { return index_ += n, *this; }
    iterator& operator-=(difference_type n) noexcept { return index_ -= n, *this; }
    friend iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
    friend iterator operator+(difference_type n, iterator it) noexcept { return it += n; }
    friend iterator operator-(iterator it, difference_type n) noexcept { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) noexcept { return a.index_ - b.index_; }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.index_ == b.index_; }
    friend std::strong_ordering operator<=>(const iterator& a, const iterator& b) noexcept {
      return a.index_ <=> b.index_;
    }
    /// The position in the underlying view.
    [[nodiscard]] size_type base_index() const noexcept {
      return view_->offset() + static_cast<size_type>(index_) * view_->stride();
    }

   private:
    const strided_view* view_ = nullptr;
    difference_type index_ = 0;
  };
  using const_iterator = iterator;

  /// Throws dtl::status_error (invalid_argument) for a stride below 1.
  strided_view(View view, difference_type stride, size_type offset = 0)
      : view_(std::move(view)), stride_(checked(stride)), offset_(offset) {}

  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, static_cast<difference_type>(size())); }
  [[nodiscard]] iterator cbegin() const noexcept { return begin(); }
  [[nodiscard]] iterator cend() const noexcept { return end(); }

  /// Elements offset, offset + stride, ... below the view's size (0 when offset is past it).
  [[nodiscard]] size_type size() const noexcept {
    const size_type n = view_.size();
    return n <= offset_ ? 0 : (n - offset_ + stride_ - 1) / stride_;
  }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  /// The view's element offset + i * stride (unchecked, as the view's own operator[]).
  [[nodiscard]] reference operator[](size_type i) const { return view_[offset_ + i * stride_]; }
  [[nodiscard]] reference front() const { return (*this)[0]; }
  [[nodiscard]] reference back() const { return (*this)[size() - 1]; }
  [[nodiscard]] size_type stride() const noexcept { return stride_; }
  [[nodiscard]] size_type offset() const noexcept { return offset_; }
  [[nodiscard]] const View& base() const noexcept { return view_; }

 private:
  static size_type checked(difference_type stride) {
    if (stride < 1)
      throw status_error(status(status_code::invalid_argument, "strided_view: the stride must be at least 1"));
    return static_cast<size_type>(stride);
  }

  View view_;
  size_type stride_;
  size_type offset_;
};

/// Upstream DTL's factory: every stride-th element of `view` from `offset`.
template <class View>
[[nodiscard]] auto make_strided_view(View&& view, std::ptrdiff_t stride, size_type offset = 0) {
  return strided_view<std::remove_cvref_t<View>>(std::forward<View>(view), stride, offset);
}

}  // namespace dtl
