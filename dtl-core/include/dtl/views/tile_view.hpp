// SPDX-License-Identifier: MIT
#pragma once
// tile_view<Range, N>: an N-dimensional index space of extents range_extent() cut into tiles of
// tile_size() (upstream DTL's). Pure geometry: each tile gives its origin, its extent (clamped at the
// space's far edges: a boundary tile) and a pointer to the range, for code that walks a tensor block
// by block. Tiles come in order with dimension 0 fastest.
//
//   dtl::tile_view view(local, dtl::tile_extent<2>{{32, 32}}, {rows, cols});
//   for (auto t : view) process(t.origin, t.extent);      // t.is_boundary_tile() at the edges
//
// A tile size of 0 in any dimension throws dtl::status_error (invalid_argument). The range must
// outlive the view and its tiles.

#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <type_traits>

namespace dtl {

/// A tile's size in each of N dimensions.
template <std::size_t N>
struct tile_extent {
  std::array<size_type, N> sizes{};

  [[nodiscard]] static constexpr size_type rank() noexcept { return N; }
  [[nodiscard]] constexpr size_type size(size_type dim) const noexcept { return sizes[dim]; }
  /// Elements in the tile: the product of the sizes.
  [[nodiscard]] constexpr size_type total_size() const noexcept {
    size_type n = 1;
    for (size_type s : sizes) n *= s;
    return n;
  }
  friend constexpr bool operator==(const tile_extent&, const tile_extent&) = default;
};

/// One tile: where it starts, how big it is, and how big it was asked to be.
template <class Range, std::size_t N>
struct tile {
  std::array<index_t, N> origin{};
  tile_extent<N> extent{};          // clamped to the space
  tile_extent<N> requested_size{};  // the view's tile size
  Range* range = nullptr;

  [[nodiscard]] constexpr size_type size() const noexcept { return extent.total_size(); }
  /// Whether the space's edge cut this tile short in dimension `dim`.
  [[nodiscard]] constexpr bool is_boundary_in_dim(size_type dim) const noexcept {
    return extent.sizes[dim] < requested_size.sizes[dim];
  }
  [[nodiscard]] constexpr bool is_boundary_tile() const noexcept {
    for (size_type d = 0; d < N; ++d)
      if (is_boundary_in_dim(d)) return true;
    return false;
  }
  /// The tile's number among num_tiles[0] x num_tiles[1] x ... tiles, dimension 0 fastest.
  [[nodiscard]] constexpr size_type tile_linear_index(const std::array<size_type, N>& num_tiles) const noexcept {
    size_type index = 0;
    for (size_type d = N; d-- > 0;)
      index = index * num_tiles[d] + static_cast<size_type>(origin[d]) / requested_size.sizes[d];
    return index;
  }
};

template <class Range, std::size_t N>
class tile_view {
 public:
  using tile_type = tile<Range, N>;
  using size_type = dtl::size_type;

  class iterator {
   public:
    using value_type = tile_type;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    iterator() = default;
    iterator(const tile_view* view, size_type index) noexcept : view_(view), index_(index) {}
    [[nodiscard]] tile_type operator*() const { return view_->tile_at(index_); }
    iterator& operator++() noexcept { return ++index_, *this; }
    iterator operator++(int) noexcept { return iterator(view_, index_++); }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.index_ == b.index_; }

   private:
    const tile_view* view_ = nullptr;
    size_type index_ = 0;
  };

  /// Tiles of `tile_size` over a space of `range_extent` (all zero: no tiles until set_range_extent()).
  tile_view(Range& range, tile_extent<N> tile_size, std::array<size_type, N> range_extent = {})
      : range_(&range), tile_(checked(tile_size)), extent_(range_extent) {}

  [[nodiscard]] const tile_extent<N>& tile_size() const noexcept { return tile_; }
  [[nodiscard]] const std::array<size_type, N>& range_extent() const noexcept { return extent_; }
  void set_range_extent(const std::array<size_type, N>& extent) noexcept { extent_ = extent; }

  /// Tiles along each dimension (a partial tile counts).
  [[nodiscard]] std::array<size_type, N> num_tiles() const noexcept {
    std::array<size_type, N> counts{};
    for (size_type d = 0; d < N; ++d) counts[d] = (extent_[d] + tile_.sizes[d] - 1) / tile_.sizes[d];
    return counts;
  }
  [[nodiscard]] size_type total_tiles() const noexcept {
    size_type n = 1;
    for (size_type c : num_tiles()) n *= c;
    return n;
  }
  [[nodiscard]] bool empty() const noexcept { return total_tiles() == 0; }
  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, total_tiles()); }

  /// Tile number `index` (dimension 0 fastest), index < total_tiles().
  [[nodiscard]] tile_type tile_at(size_type index) const noexcept {
    const std::array<size_type, N> counts = num_tiles();
    tile_type t;
    t.requested_size = tile_;
    t.range = range_;
    for (size_type d = 0; d < N; ++d) {
      const size_type start = (index % counts[d]) * tile_.sizes[d];
      index /= counts[d];
      t.origin[d] = static_cast<index_t>(start);
      t.extent.sizes[d] = extent_[d] - start < tile_.sizes[d] ? extent_[d] - start : tile_.sizes[d];
    }
    return t;
  }

 private:
  static tile_extent<N> checked(const tile_extent<N>& size) {
    for (size_type s : size.sizes)
      if (s == 0)
        throw status_error(status(status_code::invalid_argument, "tile_view: every tile size must be at least 1"));
    return size;
  }

  Range* range_;
  tile_extent<N> tile_;
  std::array<size_type, N> extent_;
};

template <class Range, std::size_t N>
tile_view(Range&, tile_extent<N>) -> tile_view<Range, N>;
template <class Range, std::size_t N>
tile_view(Range&, tile_extent<N>, std::array<size_type, N>) -> tile_view<Range, N>;

/// Tiles of the given sizes, one per dimension (set the space with set_range_extent()).
template <class Range, std::convertible_to<size_type>... Sizes>
[[nodiscard]] auto make_tile_view(Range& range, Sizes... sizes) {
  return tile_view<Range, sizeof...(Sizes)>(range, tile_extent<sizeof...(Sizes)>{{static_cast<size_type>(sizes)...}});
}

template <class T>
struct is_tile_view : std::false_type {};
template <class Range, std::size_t N>
struct is_tile_view<tile_view<Range, N>> : std::true_type {};
template <class T>
inline constexpr bool is_tile_view_v = is_tile_view<T>::value;

}  // namespace dtl
