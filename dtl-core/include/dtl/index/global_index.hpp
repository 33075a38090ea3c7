// SPDX-License-Identifier: MIT
#pragma once
// global_index<I> and local_index<I>: an element index that says which numbering it is in (over the
// whole container, or within one rank's block), so the two cannot be mixed up; and that may be
// invalid (default-constructed, or what a translation gives for an element another rank holds).
// Upstream DTL's names: value(), valid(), explicit bool, ++/--, + and - an offset, the difference of
// two, comparisons; make_global_index(v), make_local_index(v).

#include <dtl/core/types.hpp>

#include <compare>

namespace dtl {

namespace detail {
struct global_numbering {};
struct local_numbering {};

/// An index of numbering Tag (global or local); invalid until given a value.
template <class Tag, class I>
class tagged_index {
 public:
  using value_type = I;

  constexpr tagged_index() noexcept = default;
  constexpr explicit tagged_index(I value) noexcept : value_(value), valid_(true) {}

  /// The index (meaningless when !valid()).
  [[nodiscard]] constexpr I value() const noexcept { return value_; }
  [[nodiscard]] constexpr bool valid() const noexcept { return valid_; }
  [[nodiscard]] constexpr explicit operator bool() const noexcept { return valid_; }

  constexpr tagged_index& operator++() noexcept { return ++value_, *this; }
  constexpr tagged_index operator++(int) noexcept {
    tagged_index old = *this;
    ++value_;
    return old;
  }
  constexpr tagged_index& operator--() noexcept { return --value_, *this; }
  constexpr tagged_index operator--(int) noexcept {
    tagged_index old = *this;
    --value_;
    return old;
  }
  constexpr tagged_index& operator+=(I offset) noexcept { return value_ += offset, *this; }
  constexpr tagged_index& operator-=(I offset) noexcept { return value_ -= offset, *this; }
  [[nodiscard]] friend constexpr tagged_index operator+(tagged_index a, I offset) noexcept { return a += offset; }
  [[nodiscard]] friend constexpr tagged_index operator-(tagged_index a, I offset) noexcept { return a -= offset; }
  [[nodiscard]] friend constexpr I operator-(const tagged_index& a, const tagged_index& b) noexcept {
    return a.value_ - b.value_;
  }
  friend constexpr bool operator==(const tagged_index&, const tagged_index&) noexcept = default;
  friend constexpr auto operator<=>(const tagged_index&, const tagged_index&) noexcept = default;

 private:
  I value_{};
  bool valid_ = false;
};
}  // namespace detail

template <class I = index_t>
using global_index = detail::tagged_index<detail::global_numbering, I>;
template <class I = index_t>
using local_index = detail::tagged_index<detail::local_numbering, I>;

template <class I = index_t>
[[nodiscard]] constexpr global_index<I> make_global_index(I value) noexcept {
  return global_index<I>(value);
}
template <class I = index_t>
[[nodiscard]] constexpr local_index<I> make_local_index(I value) noexcept {
  return local_index<I>(value);
}

}  // namespace dtl
