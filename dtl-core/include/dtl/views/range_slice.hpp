// SPDX-License-Identifier: MIT
#pragma once
// range_slice<It>: consecutive elements [first, last) of a range, by its iterators: what chunk_view,
// window_view and chunk_by_view give for each of their pieces. A view: it owns nothing, and writes
// through it reach the range. (detail::range_source: what those views accept as their range.)

#include <cstddef>
#include <iterator>
#include <ranges>
#include <type_traits>

namespace dtl {

namespace detail {
/// What a view over range type R may be built from: an lvalue R, or a temporary R whose iterators
/// outlive it (a borrowed range: a span, a local_view), never a temporary container.
template <class Src, class R>
concept range_source = std::same_as<std::remove_reference_t<Src>, R> &&
    (std::is_lvalue_reference_v<Src> || std::ranges::borrowed_range<R>);
}  // namespace detail

template <std::forward_iterator It>
class range_slice : public std::ranges::view_interface<range_slice<It>> {
 public:
  using iterator = It;
  using value_type = std::iter_value_t<It>;
  using reference = std::iter_reference_t<It>;
  using size_type = std::size_t;

  range_slice() = default;
  range_slice(It first, It last, size_type count) : first_(first), last_(last), count_(count) {}

  [[nodiscard]] It begin() const { return first_; }
  [[nodiscard]] It end() const { return last_; }
  [[nodiscard]] size_type size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  /// Element i (unchecked; steps i times for iterators that are not random access).
  [[nodiscard]] reference operator[](size_type i) const { return *std::next(first_, static_cast<std::ptrdiff_t>(i)); }
  [[nodiscard]] reference front() const { return *first_; }
  [[nodiscard]] reference back() const { return (*this)[count_ - 1]; }
  /// The middle element (the lower of the two middles for an even count): a stencil window's centre.
  [[nodiscard]] reference center() const { return (*this)[(count_ - 1) / 2]; }

 private:
  It first_{};
  It last_{};
  size_type count_ = 0;
};

}  // namespace dtl
