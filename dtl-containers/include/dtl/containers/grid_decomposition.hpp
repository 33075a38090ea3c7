// SPDX-License-Identifier: MIT
#pragma once
// dtl::grid_decomposition<N>: an N-d index space split over a process grid, each rank's block padded with
// ghost layers (beyond upstream DTL, whose tensor splits its first dimension only). It is the layout of
// an N-d halo: which block a rank owns, where it sits inside the rank's allocation, and which boxes
// travel to which neighbour in an exchange (the plan, made once).
//
//   dtl::process_grid<3> grid(ctx.size(), {}, {true, true, true});        // periodic in every dimension
//   dtl::grid_decomposition<3> dec(grid, {512, 512, 512}, {1, 1, 1});     // width 1, faces only (star)
//   auto owned = dec.owned(ctx.rank());       // its global offset and extents (blocks may be uneven)
//   auto padded = dec.padded_extents(ctx.rank());   // owned + 2 * width in every dimension
//   for (const auto& t : dec.transfers(ctx.rank())) { ... t.peer, t.send, t.receive ... }
//
// The allocation of a rank is row-major over padded_extents: the owned block starts at (width[0], ...,
// width[N-1]), so element (i, j, k) of the block is at p(i + w0, j + w1, k + w2) and its neighbours at
// fixed offsets, without branches. Every dimension has `width` ghost layers on both sides, also at a
// closed (non-periodic) edge of the grid: there they are never written by an exchange.
//
// Ghost regions: stencil_shape::star fills the faces (the 2N neighbours that differ in one grid
// coordinate: a star stencil reads only those), stencil_shape::box the faces, edges and corners too (all
// 3^N - 1 neighbours: a box stencil). Each ghost region comes from the neighbour that owns it, in one
// message; a rank that is its own neighbour (periodic with one rank in that dimension) copies.
//
// invalid_argument (the constructor throws it as status_error; create() returns it) when a width is
// wider than a block it must be read from (a neighbour would have to borrow from further ranks; this
// includes an empty block next to a neighbour), or when the global or a padded element count overflows
// size_t. A plain value: it asks no other rank, so ranks that pass the same arguments get the same plan.

#include <dtl/containers/nd_extent.hpp>
#include <dtl/containers/process_grid.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace dtl {

/// Which ghost regions an exchange fills: faces only, or faces, edges and corners.
enum class stencil_shape { star, box };

/// A box of an N-d array: its first index and its extents.
template <std::size_t N>
struct nd_box {
  nd_extent<N> offset{};
  nd_extent<N> extents{};
  [[nodiscard]] constexpr size_type size() const noexcept { return extents_size(extents); }
  friend constexpr bool operator==(const nd_box&, const nd_box&) = default;
};

template <std::size_t N>
class grid_decomposition {
  static_assert(N >= 1, "a grid decomposition has at least one dimension");

 public:
  using box_type = nd_box<N>;
  /// A step in the grid: -1, 0 or +1 in each dimension.
  using direction_type = std::array<int, N>;

  /// One ghost region of a rank and its counterpart: this rank sends `send` (its owned elements nearest
  /// the neighbour at `direction`) to `peer`, and receives into `receive` (its ghosts on that side) what
  /// `peer` sends; both boxes in this rank's padded coordinates. `peer` is the rank itself where the grid
  /// wraps onto it.
  struct transfer {
    direction_type direction{};
    int peer = 0;
    box_type send{};
    box_type receive{};
  };

  [[nodiscard]] static result<grid_decomposition> create(const process_grid<N>& grid, const nd_extent<N>& global,
                                                         const nd_extent<N>& width = {},
                                                         stencil_shape shape = stencil_shape::star) {
    constexpr size_type max = std::numeric_limits<size_type>::max();
    size_type count = 1;
    for (std::size_t d = 0; d < N; ++d) {
      if (global[d] != 0 && count > max / global[d])
        return status(status_code::invalid_argument,
                      "grid_decomposition: the global element count overflows size_t (" + describe(global) + ")");
      count *= global[d];
    }
    for (std::size_t d = 0; d < N; ++d) {
      if (width[d] == 0) continue;
      if (width[d] > max / 4)
        return status(status_code::invalid_argument, "grid_decomposition: halo width " + std::to_string(width[d]) +
                                                         " in dimension " + std::to_string(d) + " is too large");
      const auto ranks = static_cast<size_type>(grid.extent(d));
      for (size_type c = 0; c < ranks; ++c) {
        const size_type begin = even_block_begin(global[d], ranks, c);
        const size_type extent = even_block_begin(global[d], ranks, c + 1) - begin;
        // A block is read by its neighbours along d (itself, when periodic with one rank there).
        const bool read = grid.periodic(d) || c > 0 || c + 1 < ranks;
        if (read && extent < width[d])
          return status(status_code::invalid_argument,
                        "grid_decomposition: halo width " + std::to_string(width[d]) + " in dimension " +
                            std::to_string(d) + " is wider than the blocks at grid coordinate " + std::to_string(c) +
                            " (" + std::to_string(extent) + " of " + std::to_string(global[d]) + " elements over " +
                            std::to_string(ranks) +
                            " ranks), which a neighbour reads; use fewer ranks in that dimension or a narrower halo");
      }
    }
    // The largest padded block: the first block along each dimension is the longest.
    size_type padded = 1;
    for (std::size_t d = 0; d < N; ++d) {
      const size_type e = even_block_begin(global[d], static_cast<size_type>(grid.extent(d)), 1) + 2 * width[d];
      if (e != 0 && padded > max / e)
        return status(status_code::invalid_argument,
                      "grid_decomposition: a padded block's element count overflows size_t");
      padded *= e;
    }
    return grid_decomposition(checked{}, grid, global, width, shape);
  }

  /// The same as create(), throwing status_error on bad arguments.
  grid_decomposition(const process_grid<N>& grid, const nd_extent<N>& global, const nd_extent<N>& width = {},
                     stencil_shape shape = stencil_shape::star)
      : grid_decomposition(value_or_throw(create(grid, global, width, shape))) {}

  [[nodiscard]] const process_grid<N>& grid() const noexcept { return grid_; }
  [[nodiscard]] const nd_extent<N>& global_extents() const noexcept { return global_; }
  [[nodiscard]] const nd_extent<N>& halo_width() const noexcept { return width_; }
  [[nodiscard]] stencil_shape shape() const noexcept { return shape_; }

  /// `rank`'s block of the global index space (global offset and extents).
  [[nodiscard]] box_type owned(int rank) const noexcept {
    const auto b = grid_.block(rank, global_);
    return {b.offset, b.extents};
  }
  /// The extents of `rank`'s allocation: its block plus `width` ghost layers on both sides.
  [[nodiscard]] nd_extent<N> padded_extents(int rank) const noexcept {
    nd_extent<N> e = grid_.block(rank, global_).extents;
    for (std::size_t d = 0; d < N; ++d) e[d] += 2 * width_[d];
    return e;
  }
  [[nodiscard]] size_type padded_size(int rank) const noexcept { return extents_size(padded_extents(rank)); }
  /// The owned block in `rank`'s padded coordinates: offset `width`.
  [[nodiscard]] box_type owned_in_padded(int rank) const noexcept {
    return {width_, grid_.block(rank, global_).extents};
  }

  /// `rank`'s part of an exchange: one transfer per ghost region the shape fills that has a neighbour
  /// (none past a closed edge, none across a dimension of width 0, none for an empty block), in a fixed
  /// order (directions in row-major order of -1, 0, +1).
  [[nodiscard]] std::vector<transfer> transfers(int rank) const {
    std::vector<transfer> out;
    const nd_extent<N> n = grid_.block(rank, global_).extents;
    if (extents_size(n) == 0) return out;
    std::size_t total = 1;
    for (std::size_t d = 0; d < N; ++d) total *= 3;
    for (std::size_t code = 0; code < total; ++code) {
      direction_type dir{};
      std::size_t rest = code, moved = 0;
      for (std::size_t d = N; d-- > 0;) {
        dir[d] = static_cast<int>(rest % 3) - 1;
        rest /= 3;
      }
      bool usable = true;
      for (std::size_t d = 0; d < N; ++d) {
        if (dir[d] == 0) continue;
        ++moved;
        if (width_[d] == 0) usable = false;
      }
      if (moved == 0 || !usable || (shape_ == stencil_shape::star && moved != 1)) continue;
      const int peer = neighbour(rank, dir);
      if (peer == process_grid<N>::none) continue;
      transfer t;
      t.direction = dir;
      t.peer = peer;
      for (std::size_t d = 0; d < N; ++d) {
        const size_type w = width_[d];
        t.send.extents[d] = dir[d] == 0 ? n[d] : w;
        t.receive.extents[d] = t.send.extents[d];
        t.send.offset[d] = dir[d] <= 0 ? w : n[d];  // +1: the last w owned layers, at n .. n + w
        t.receive.offset[d] = dir[d] < 0 ? 0 : (dir[d] == 0 ? w : w + n[d]);
      }
      out.push_back(t);
    }
    return out;
  }

  /// The rank one step along `direction` from `rank` (wrapping where periodic); process_grid<N>::none
  /// past a closed edge.
  [[nodiscard]] int neighbour(int rank, const direction_type& direction) const noexcept {
    auto c = grid_.coords(rank);
    for (std::size_t d = 0; d < N; ++d) {
      if (direction[d] == 0) continue;
      const int e = grid_.extent(d), moved = c[d] + direction[d];
      if (moved < 0 || moved >= e) {
        if (!grid_.periodic(d)) return process_grid<N>::none;
        c[d] = (moved + e) % e;
      } else {
        c[d] = moved;
      }
    }
    return grid_.rank_of(c);
  }

  friend bool operator==(const grid_decomposition&, const grid_decomposition&) = default;

 private:
  struct checked {};
  grid_decomposition(checked, const process_grid<N>& grid, const nd_extent<N>& global, const nd_extent<N>& width,
                     stencil_shape shape)
      : grid_(grid), global_(global), width_(width), shape_(shape) {}

  static std::string describe(const nd_extent<N>& e) {
    std::string s;
    for (std::size_t d = 0; d < N; ++d) s += (d == 0 ? "" : " x ") + std::to_string(e[d]);
    return s;
  }

  process_grid<N> grid_;
  nd_extent<N> global_;
  nd_extent<N> width_;
  stencil_shape shape_;
};

}  // namespace dtl
