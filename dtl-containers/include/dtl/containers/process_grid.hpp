// SPDX-License-Identifier: MIT
#pragma once
// dtl::process_grid<N>: the ranks of a context laid out as an N-dimensional grid, the decomposition an
// N-d container splits its index space over (beyond upstream DTL, whose tensor splits its first
// dimension only). Ranks are numbered row-major over the grid (the last dimension varies fastest), as
// MPI_Cart_create without reordering numbers them.
//
//   dtl::process_grid<3> g(ctx.size());                  // fitted: 12 ranks -> 3 x 2 x 2
//   dtl::process_grid<2> h(12, {0, 2}, {true, false});   // the second extent fixed at 2: 6 x 2, periodic in 0
//   auto c = g.coords(ctx.rank());                       // this rank's place in the grid
//   int up = g.neighbour(ctx.rank(), 0, +1);             // process_grid<3>::none beyond a non-periodic edge
//   auto b = g.block(ctx.rank(), {100, 64, 64});         // this rank's box: b.offset, b.extents (uneven blocks)
//
// Fitting follows MPI_Dims_create: the extents given as 0 are chosen as close to each other as possible,
// in non-increasing order; those given are kept. invalid_argument (the constructor throws it as
// status_error; create() returns it) for fewer than one rank, a negative extent, or given extents whose
// product does not divide the rank count (all given: is not the rank count). A plain value: it asks no
// other rank, so every rank that passes the same arguments gets the same grid.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>

namespace dtl {

template <std::size_t N>
class process_grid {
  static_assert(N >= 1, "a process grid has at least one dimension");

 public:
  using extents_type = std::array<int, N>;
  using coords_type = std::array<int, N>;
  using periods_type = std::array<bool, N>;

  /// What neighbour() gives beyond a non-periodic edge (MPI_PROC_NULL's role).
  static constexpr int none = -1;

  /// The grid of `ranks` ranks; extents given as 0 are fitted (above).
  [[nodiscard]] static result<process_grid> create(int ranks, const extents_type& extents = {},
                                                   const periods_type& periodic = {}) {
    if (ranks < 1)
      return status(status_code::invalid_argument,
                    "process_grid: " + std::to_string(ranks) + " ranks (needs one or more)");
    long long fixed = 1;
    for (std::size_t d = 0; d < N; ++d) {
      if (extents[d] < 0)
        return status(status_code::invalid_argument,
                      "process_grid: extent " + std::to_string(extents[d]) + " in dimension " + std::to_string(d));
      if (extents[d] > 0) fixed *= extents[d];
      if (fixed > ranks) break;
    }
    const bool all_given = std::none_of(extents.begin(), extents.end(), [](int e) { return e == 0; });
    if (fixed > ranks || ranks % fixed != 0 || (all_given && fixed != ranks))
      return status(status_code::invalid_argument, "process_grid: the extents given (" + describe(extents) +
                                                       ") do not make a grid of " + std::to_string(ranks) + " ranks");
    return process_grid(fit(static_cast<int>(ranks / fixed), extents), periodic);
  }

  /// The same as create(), throwing status_error on bad arguments.
  explicit process_grid(int ranks, const extents_type& extents = {}, const periods_type& periodic = {})
      : process_grid(value_or_throw(create(ranks, extents, periodic))) {}

  [[nodiscard]] static constexpr std::size_t dimensions() noexcept { return N; }
  [[nodiscard]] const extents_type& extents() const noexcept { return extents_; }
  [[nodiscard]] int extent(std::size_t d) const noexcept { return extents_[d]; }
  [[nodiscard]] const periods_type& periodic() const noexcept { return periodic_; }
  [[nodiscard]] bool periodic(std::size_t d) const noexcept { return periodic_[d]; }
  /// The number of ranks: the product of the extents.
  [[nodiscard]] int size() const noexcept {
    int p = 1;
    for (int e : extents_) p *= e;
    return p;
  }

  /// The place of `rank` (0 <= rank < size()) in the grid.
  [[nodiscard]] coords_type coords(int rank) const noexcept {
    coords_type c{};
    for (std::size_t d = N; d-- > 0;) {
      c[d] = rank % extents_[d];
      rank /= extents_[d];
    }
    return c;
  }
  /// The rank at `coords` (each within its extent).
  [[nodiscard]] int rank_of(const coords_type& coords) const noexcept {
    int r = 0;
    for (std::size_t d = 0; d < N; ++d) r = r * extents_[d] + coords[d];
    return r;
  }
  /// The rank `displacement` steps from `rank` along dimension d: wrapped where d is periodic, else
  /// `none` when it falls outside the grid.
  [[nodiscard]] int neighbour(int rank, std::size_t d, int displacement) const noexcept {
    coords_type c = coords(rank);
    const int e = extents_[d];
    const int moved = c[d] + displacement % e;  // |displacement % e| < e: no overflow
    if (periodic_[d]) {
      c[d] = (moved % e + e) % e;
    } else {
      if (displacement <= -e || displacement >= e || moved < 0 || moved >= e) return none;
      c[d] = moved;
    }
    return rank_of(c);
  }

  /// A rank's part of an N-d index space split over the grid: its first index and its extents.
  struct block_type {
    nd_extent<N> offset{};
    nd_extent<N> extents{};
    [[nodiscard]] size_type size() const noexcept { return extents_size(extents); }
    friend bool operator==(const block_type&, const block_type&) = default;
  };

  /// The block of `rank` in `global`: along each dimension d, global[d] split into extent(d) blocks by the
  /// vector's rule (the first global[d] % extent(d) one longer; some empty when global[d] < extent(d)),
  /// the one at the rank's coordinate.
  [[nodiscard]] block_type block(int rank, const nd_extent<N>& global) const noexcept {
    const coords_type c = coords(rank);
    block_type b;
    for (std::size_t d = 0; d < N; ++d) {
      const auto p = static_cast<std::size_t>(extents_[d]), at = static_cast<std::size_t>(c[d]);
      b.offset[d] = even_block_begin(global[d], p, at);
      b.extents[d] = even_block_begin(global[d], p, at + 1) - b.offset[d];
    }
    return b;
  }
  /// The rank whose block holds `index` (each 0 <= index[d] < global[d]).
  [[nodiscard]] int owner(const nd_index<N>& index, const nd_extent<N>& global) const noexcept {
    coords_type c{};
    for (std::size_t d = 0; d < N; ++d) c[d] = block_partition<>::owner(index[d], global[d], extents_[d]);
    return rank_of(c);
  }

  friend bool operator==(const process_grid&, const process_grid&) = default;

 private:
  process_grid(const extents_type& extents, const periods_type& periodic) : extents_(extents), periodic_(periodic) {}

  /// The extents given as 0 filled with `free` ranks' worth, as MPI_Dims_create: free's prime factors,
  /// largest first, each to the free dimension with the smallest product so far; then those dimensions in
  /// non-increasing order.
  static extents_type fit(int free, extents_type extents) {
    std::array<int, N> product{};
    std::size_t open = 0;
    for (std::size_t d = 0; d < N; ++d)
      if (extents[d] == 0) product[open++] = 1;
    if (open == 0) return extents;
    std::array<int, 32> primes{};  // an int has fewer than 32 prime factors
    std::size_t count = 0;
    for (int f = 2; static_cast<long long>(f) * f <= free; ++f)
      while (free % f == 0) {
        primes[count++] = f;
        free /= f;
      }
    if (free > 1) primes[count++] = free;
    for (std::size_t k = count; k-- > 0;)  // factors were found smallest first
      *std::min_element(product.begin(), product.begin() + open) *= primes[k];
    for (std::size_t k = 1; k < open; ++k)  // non-increasing (an insertion sort: N is small)
      for (std::size_t j = k; j > 0 && product[j - 1] < product[j]; --j) std::swap(product[j - 1], product[j]);
    std::size_t next = 0;
    for (int& e : extents)
      if (e == 0) e = product[next++];
    return extents;
  }

  static std::string describe(const extents_type& extents) {
    std::string s;
    for (std::size_t d = 0; d < N; ++d) s += (d == 0 ? "" : " x ") + std::to_string(extents[d]);
    return s;
  }

  extents_type extents_;
  periods_type periodic_;
};

}  // namespace dtl
