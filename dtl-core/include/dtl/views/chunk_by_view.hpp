// SPDX-License-Identifier: MIT
#pragma once
// chunk_by_view<R, Pred>: a range in runs: a run goes on while pred(previous, next) holds for each
// pair of neighbours (upstream DTL's; std::views::chunk_by's meaning). Each run is a range_slice.
//
//   for (auto run : dtl::make_chunk_by_equal(sorted_keys)) groups.emplace_back(run.front(), run.size());
//
// A view: the range's elements must outlive it (see range_slice.hpp).

#include <dtl/views/range_slice.hpp>

#include <cstddef>
#include <functional>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>

namespace dtl {

template <std::ranges::forward_range R, class Pred>
class chunk_by_view {
 public:
  using base_iterator = std::ranges::iterator_t<R>;
  using base_sentinel = std::ranges::sentinel_t<R>;
  using chunk_type = range_slice<base_iterator>;
  using size_type = std::size_t;

  class iterator {
   public:
    using value_type = chunk_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    iterator() = default;
    iterator(const chunk_by_view* view, base_iterator at) : view_(view), at_(at) { find_run_end(); }
    [[nodiscard]] chunk_type operator*() const { return chunk_type(at_, next_, count_); }
    iterator& operator++() {
      at_ = next_;
      find_run_end();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

   private:
    void find_run_end() {
      next_ = at_;
      count_ = 0;
      if (view_ == nullptr || at_ == view_->last_) return;
      base_iterator previous = next_;
      ++next_;
      count_ = 1;
      while (next_ != view_->last_ && std::invoke(view_->pred_, *previous, *next_)) previous = next_++, ++count_;
    }

    const chunk_by_view* view_ = nullptr;
    base_iterator at_{};
    base_iterator next_{};
    size_type count_ = 0;
  };

  template <detail::range_source<R> Src>
  chunk_by_view(Src&& range, Pred pred)
      : first_(std::ranges::begin(range)), last_(std::ranges::end(range)), pred_(std::move(pred)) {}

  [[nodiscard]] iterator begin() const { return iterator(this, first_); }
  [[nodiscard]] iterator end() const { return iterator(this, last_); }

 private:
  base_iterator first_;
  base_sentinel last_;
  Pred pred_;
};

template <class R, class Pred>
chunk_by_view(R&&, Pred) -> chunk_by_view<std::remove_reference_t<R>, Pred>;

template <class R, class Pred>
[[nodiscard]] auto make_chunk_by_view(R&& range, Pred pred) {
  return chunk_by_view<std::remove_reference_t<R>, Pred>(std::forward<R>(range), std::move(pred));
}
/// Runs of equal neighbours.
template <class R>
[[nodiscard]] auto make_chunk_by_equal(R&& range) {
  return make_chunk_by_view(std::forward<R>(range), std::equal_to<>{});
}

template <class T>
struct is_chunk_by_view : std::false_type {};
template <class R, class Pred>
struct is_chunk_by_view<chunk_by_view<R, Pred>> : std::true_type {};
template <class T>
inline constexpr bool is_chunk_by_view_v = is_chunk_by_view<T>::value;

}  // namespace dtl
