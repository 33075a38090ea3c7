// SPDX-License-Identifier: MIT
#pragma once
// local_view<T>: this rank's elements of a container, for host code: a pointer and a count, like
// std::span (shallow const: a const view still reaches mutable elements), plus where the block sits in
// the container (rank() and global_offset(), so to_global(i) gives element i's global index). Only
// placements the host can touch have one (vec.local_view()); device code takes a device_view.
//
//   auto local = vec.local_view();
//   std::sort(local.begin(), local.end());          // contiguous iterators (T*)
//   auto head = local.first(4);                      // sub-views keep their global offsets
//
// Any contiguous range converts (a std::vector, a std::span, make_local_view(range)): rank 0, offset 0.
// at(i) throws std::out_of_range past the end, as std::vector's; first, last and subview clamp their
// counts to the view.

#include <dtl/core/traits.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace dtl {

template <class T>
class local_view {
 public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using reference = T&;
  using const_reference = const T&;

  constexpr local_view() noexcept = default;
  /// `size` elements at `data`, rank `rank`'s block, whose first element has global index `global_offset`.
  constexpr local_view(T* data, size_type size, rank_t rank = 0, index_t global_offset = 0) noexcept
      : data_(data), size_(size), rank_(rank), offset_(global_offset) {}
  /// A view of mutable elements converts to one of const elements.
  template <class U>
  requires(std::is_same_v<const U, T> &&
           !std::is_same_v<U, T>) constexpr local_view(const local_view<U>& other) noexcept
      : local_view(other.data(), other.size(), other.rank(), other.global_offset()) {}
  /// The elements of a contiguous range that outlives the view (an lvalue, or a span).
  template <std::ranges::contiguous_range R>
  requires(std::ranges::sized_range<R> && !is_local_view<std::remove_cvref_t<R>>::value &&
           (std::is_lvalue_reference_v<R> || std::ranges::borrowed_range<R>)&&std::is_convertible_v<
               std::remove_reference_t<std::ranges::range_reference_t<R>> (*)[],
               T (*)[]>) constexpr local_view(R&& range) noexcept  // NOLINT(bugprone-forwarding-reference-overload):
                                                                   // constrained
      : local_view(std::ranges::data(range), std::ranges::size(range)) {}

  [[nodiscard]] constexpr T* data() const noexcept { return data_; }
  [[nodiscard]] constexpr size_type size() const noexcept { return size_; }
  [[nodiscard]] constexpr size_type length() const noexcept { return size_; }
  [[nodiscard]] constexpr size_type size_bytes() const noexcept { return size_ * sizeof(T); }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }

  [[nodiscard]] constexpr iterator begin() const noexcept { return data_; }
  [[nodiscard]] constexpr iterator end() const noexcept { return data_ + size_; }
  [[nodiscard]] constexpr const_iterator cbegin() const noexcept { return data_; }
  [[nodiscard]] constexpr const_iterator cend() const noexcept { return data_ + size_; }
  [[nodiscard]] constexpr reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  [[nodiscard]] constexpr reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
  [[nodiscard]] constexpr const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
  [[nodiscard]] constexpr const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }

  /// Unchecked, like std::span.
  [[nodiscard]] constexpr reference operator[](size_type i) const noexcept { return data_[i]; }
  /// Checked: throws std::out_of_range for i >= size().
  [[nodiscard]] constexpr reference at(size_type i) const {
    if (i >= size_)
      throw std::out_of_range("local_view::at: index " + std::to_string(i) + " is past the view's " +
                              std::to_string(size_) + " elements");
    return data_[i];
  }
  /// Unchecked: the view must not be empty.
  [[nodiscard]] constexpr reference front() const noexcept { return data_[0]; }
  [[nodiscard]] constexpr reference back() const noexcept { return data_[size_ - 1]; }

  /// The rank whose block this is.
  [[nodiscard]] constexpr rank_t rank() const noexcept { return rank_; }
  /// The global index of the view's first element.
  [[nodiscard]] constexpr index_t global_offset() const noexcept { return offset_; }
  /// The global index of the view's element i.
  [[nodiscard]] constexpr index_t to_global(size_type i) const noexcept { return offset_ + static_cast<index_t>(i); }

  /// The first min(count, size()) elements.
  [[nodiscard]] constexpr local_view first(size_type count) const noexcept { return subview(0, count); }
  /// The last min(count, size()) elements.
  [[nodiscard]] constexpr local_view last(size_type count) const noexcept {
    const size_type n = std::min(count, size_);
    return subview(size_ - n, n);
  }
  /// Elements [offset, offset + count), clamped to the view (empty when offset is past its end).
  [[nodiscard]] constexpr local_view subview(size_type offset, size_type count) const noexcept {
    const size_type start = std::min(offset, size_);
    return local_view(data_ + start, std::min(count, size_ - start), rank_, to_global(start));
  }

  [[nodiscard]] constexpr std::span<T> as_span() const noexcept { return std::span<T>(data_, size_); }
  constexpr operator std::span<T>() const noexcept { return as_span(); }

 private:
  T* data_ = nullptr;
  size_type size_ = 0;
  rank_t rank_ = 0;
  index_t offset_ = 0;
};

template <class R>
local_view(R&&) -> local_view<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

template <class T>
struct is_local_view<local_view<T>> : std::true_type {};

/// Upstream DTL's factories.
template <class T>
[[nodiscard]] constexpr local_view<T> make_local_view(T* data, size_type size) noexcept {
  return local_view<T>(data, size);
}
template <std::ranges::contiguous_range R>
[[nodiscard]] constexpr auto make_local_view(R&& range) noexcept {
  return local_view<std::remove_reference_t<std::ranges::range_reference_t<R>>>(std::forward<R>(range));
}

}  // namespace dtl

// Like std::span, a view does not own its elements: its iterators outlive it.
template <class T>
inline constexpr bool std::ranges::enable_borrowed_range<dtl::local_view<T>> = true;
