// SPDX-License-Identifier: MIT
#pragma once
// global_iterator<Container>: walks a container's elements by global index; each one dereferences to
// a remote_ref (upstream DTL's). What global_view<Container>::begin()/end() give, and what
// global_iterator<V>(&vec, i) builds (vec.global_view() underneath: collective the first time).
//
//   for (auto it = g.begin(); it != g.end(); ++it) if (it.is_local()) total += (*it).get().value();
//
// As slow as the remote_refs it gives (see global_view.hpp): for the odd element, never bulk work.
// Random access by position; its reference is the proxy remote_ref, so for the STL it is an input
// iterator. const_global_iterator<Container>: read-only refs.

#include <dtl/core/types.hpp>

#include <compare>
#include <cstddef>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

namespace dtl {

template <class T>
class global_view;
template <class T>
class remote_ref;

template <class Container>
class global_iterator {
 public:
  using element_type = std::conditional_t<std::is_const_v<Container>, const typename Container::value_type,
                                          typename Container::value_type>;
  using value_type = remote_ref<element_type>;
  using reference = remote_ref<element_type>;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using iterator_concept = std::random_access_iterator_tag;
  using iterator_category = std::input_iterator_tag;

  global_iterator() = default;
  /// Element `global_index` of *container (opens the container's global view).
  global_iterator(Container* container, index_t global_index) : view_(container->global_view()), index_(global_index) {}
  global_iterator(global_view<element_type> view, index_t global_index)
      : view_(std::move(view)), index_(global_index) {}

  /// Not on a default-constructed iterator (it has no container).
  [[nodiscard]] reference operator*() const { return (*view_)[static_cast<std::size_t>(index_)]; }
  [[nodiscard]] reference operator[](difference_type n) const { return (*view_)[static_cast<std::size_t>(index_ + n)]; }
  [[nodiscard]] index_t global_index() const noexcept { return index_; }
  /// The rank holding the element (no_rank without a container or past the end).
  [[nodiscard]] rank_t owner() const noexcept { return view_ ? view_->owner(index_) : no_rank; }
  [[nodiscard]] bool is_local() const noexcept { return view_ && view_->is_local(index_); }

  global_iterator& operator++() noexcept { return ++index_, *this; }
  global_iterator operator++(int) noexcept {
    global_iterator old = *this;
    ++index_;
    return old;
  }
  global_iterator& operator--() noexcept { return --index_, *this; }
  global_iterator operator--(int) noexcept {
    global_iterator old = *this;
    --index_;
    return old;
  }
  global_iterator& operator+=(difference_type n) noexcept { return index_ += n, *this; }
  global_iterator& operator-=(difference_type n) noexcept { return index_ -= n, *this; }
  friend global_iterator operator+(global_iterator it, difference_type n) noexcept { return it += n; }
  friend global_iterator operator+(difference_type n, global_iterator it) noexcept { return it += n; }
  friend global_iterator operator-(global_iterator it, difference_type n) noexcept { return it -= n; }
  friend difference_type operator-(const global_iterator& a, const global_iterator& b) noexcept {
    return a.index_ - b.index_;
  }
  /// Positions compare by index (iterators of one container).
  friend bool operator==(const global_iterator& a, const global_iterator& b) noexcept { return a.index_ == b.index_; }
  friend std::strong_ordering operator<=>(const global_iterator& a, const global_iterator& b) noexcept {
    return a.index_ <=> b.index_;
  }

 private:
  std::optional<global_view<element_type>> view_;  // none when default-constructed
  index_t index_ = 0;
};

template <class Container>
using const_global_iterator = global_iterator<const Container>;

}  // namespace dtl
