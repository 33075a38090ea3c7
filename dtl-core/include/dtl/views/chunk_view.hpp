// SPDX-License-Identifier: MIT
#pragma once
// chunk_view<R>: a range in consecutive pieces of chunk_size elements, the last one shorter when the
// size does not divide (upstream DTL's; std::views::chunk's meaning). Each piece is a range_slice.
//
//   for (auto batch : dtl::chunk_view(vec.local_view(), 256)) send(batch.begin(), batch.size());
//
// A view: it keeps the range's iterators, so the range's elements must outlive it (a temporary
// local_view is fine, a temporary std::vector is not). A chunk size of 0 throws dtl::status_error
// (invalid_argument).

#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/views/range_slice.hpp>

#include <cstddef>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>

namespace dtl {

template <std::ranges::forward_range R>
class chunk_view {
 public:
  using base_iterator = std::ranges::iterator_t<R>;
  using chunk_type = range_slice<base_iterator>;
  using size_type = std::size_t;

  class iterator {
   public:
    using value_type = chunk_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    iterator() = default;
    iterator(base_iterator at, size_type left, size_type chunk) : at_(at), left_(left), chunk_(chunk) {}
    [[nodiscard]] chunk_type operator*() const {
      const size_type n = left_ < chunk_ ? left_ : chunk_;
      return chunk_type(at_, std::next(at_, static_cast<difference_type>(n)), n);
    }
    iterator& operator++() {
      const size_type n = left_ < chunk_ ? left_ : chunk_;
      std::advance(at_, static_cast<difference_type>(n));
      left_ -= n;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    /// Positions compare by the elements left (iterators of one view).
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.left_ == b.left_; }

   private:
    base_iterator at_{};
    size_type left_ = 0;
    size_type chunk_ = 1;
  };

  /// Throws dtl::status_error (invalid_argument) for a chunk size of 0.
  template <detail::range_source<R> Src>
  chunk_view(Src&& range, size_type chunk_size)
      : first_(std::ranges::begin(range)),
        size_(static_cast<size_type>(std::ranges::distance(range))),
        chunk_(checked(chunk_size)) {}

  [[nodiscard]] iterator begin() const { return iterator(first_, size_, chunk_); }
  [[nodiscard]] iterator end() const { return iterator(first_, 0, chunk_); }
  [[nodiscard]] size_type num_chunks() const noexcept { return (size_ + chunk_ - 1) / chunk_; }
  [[nodiscard]] size_type size() const noexcept { return num_chunks(); }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] size_type chunk_size() const noexcept { return chunk_; }
  /// The range's element count.
  [[nodiscard]] size_type total_size() const noexcept { return size_; }

 private:
  static size_type checked(size_type chunk_size) {
    if (chunk_size == 0)
      throw status_error(status(status_code::invalid_argument, "chunk_view: the chunk size must be at least 1"));
    return chunk_size;
  }

  base_iterator first_;
  size_type size_;
  size_type chunk_;
};

template <class R>
chunk_view(R&&, std::size_t) -> chunk_view<std::remove_reference_t<R>>;

template <class R>
[[nodiscard]] auto make_chunk_view(R&& range, std::size_t chunk_size) {
  return chunk_view<std::remove_reference_t<R>>(std::forward<R>(range), chunk_size);
}

template <class T>
struct is_chunk_view : std::false_type {};
template <class R>
struct is_chunk_view<chunk_view<R>> : std::true_type {};
template <class T>
inline constexpr bool is_chunk_view_v = is_chunk_view<T>::value;

}  // namespace dtl
