// SPDX-License-Identifier: MIT
#pragma once
// The serial reference of an N-d halo over a grid_decomposition, shared by the halo plan's tests, the
// grid_tensor's (host) and the GPU's: what each element of a rank's padded allocation holds before and
// after an exchange, a reduce and a stencil, computed from the global array alone; and the variants every
// one of them runs (for_each_variant) and their comparison (check_same).

#include <dtl/containers/grid_decomposition.hpp>
#include <dtl/containers/nd_extent.hpp>
#include <dtl/containers/stencil_accessor.hpp>

#include "doctest.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace grid_reference {

template <std::size_t N>
using ext = dtl::nd_extent<N>;

/// The value of the element at global index g (never 0 or -1).
template <std::size_t N>
std::int64_t value_at(const dtl::nd_index<N>& g, const ext<N>& global) {
  return dtl::row_major::linearize(g, global) * 7 + 3;
}

/// What an element of a rank's allocation is: owned, a ghost that an exchange fills (from global index g,
/// wrapped where periodic), or a ghost that none writes (past a closed edge, or an edge or corner of a
/// star). `g` is the global index of an owned element or a filled ghost.
enum class cell_kind { owned, filled, untouched };
template <std::size_t N>
struct cell {
  cell_kind kind = cell_kind::untouched;
  dtl::nd_index<N> g{};
};
template <std::size_t N>
cell<N> classify(const dtl::grid_decomposition<N>& dec, int rank, std::size_t linear) {
  const ext<N> global = dec.global_extents(), width = dec.halo_width();
  const auto owned = dec.owned(rank);
  const auto p = dtl::row_major::delinearize<N>(static_cast<dtl::index_t>(linear), dec.padded_extents(rank));
  cell<N> c;
  std::size_t moved = 0;
  bool reachable = owned.size() != 0;
  for (std::size_t d = 0; d < N; ++d) {
    const auto w = static_cast<dtl::index_t>(width[d]);
    c.g[d] = p[d] - w + static_cast<dtl::index_t>(owned.offset[d]);
    if (p[d] >= w && p[d] < w + static_cast<dtl::index_t>(owned.extents[d])) continue;
    ++moved;
    const auto e = static_cast<dtl::index_t>(global[d]);
    if (c.g[d] < 0 || c.g[d] >= e) {
      if (dec.grid().periodic(d))
        c.g[d] = (c.g[d] % e + e) % e;
      else
        reachable = false;  // past a closed edge
    }
  }
  if (moved > 1 && dec.shape() == dtl::stencil_shape::star) reachable = false;
  c.kind = moved == 0 ? cell_kind::owned : (reachable ? cell_kind::filled : cell_kind::untouched);
  return c;
}

/// The allocation of `rank` with its owned elements set (value_at) and every other element `other`.
template <std::size_t N>
std::vector<std::int64_t> owned_values(const dtl::grid_decomposition<N>& dec, int rank, std::int64_t other) {
  std::vector<std::int64_t> data(dec.padded_size(rank), other);
  for (std::size_t linear = 0; linear < data.size(); ++linear)
    if (const auto c = classify(dec, rank, linear); c.kind == cell_kind::owned)
      data[linear] = value_at<N>(c.g, dec.global_extents());
  return data;
}

/// The owned block of `rank`, row-major (what a tensor's copy_from_host takes).
template <std::size_t N>
std::vector<std::int64_t> owned_block(const dtl::grid_decomposition<N>& dec, int rank) {
  std::vector<std::int64_t> out;
  const auto all = owned_values(dec, rank, 0);
  for (std::size_t linear = 0; linear < all.size(); ++linear)
    if (classify(dec, rank, linear).kind == cell_kind::owned) out.push_back(all[linear]);
  return out;
}

/// The allocation after an exchange of owned_values(dec, rank, untouched): ghosts that none writes keep
/// `untouched`.
template <std::size_t N>
std::vector<std::int64_t> after_exchange(const dtl::grid_decomposition<N>& dec, int rank, std::int64_t untouched) {
  std::vector<std::int64_t> data(dec.padded_size(rank));
  for (std::size_t linear = 0; linear < data.size(); ++linear) {
    const auto c = classify(dec, rank, linear);
    data[linear] = c.kind == cell_kind::untouched ? untouched : value_at<N>(c.g, dec.global_extents());
  }
  return data;
}

/// A ghost's value before a reduce: distinct between neighbouring ghosts and ranks, so that a ghost box
/// combined into the wrong owned box shows.
inline std::int64_t ghost_value(int rank, std::size_t linear) {
  return 1000 * (rank + 1) + static_cast<std::int64_t>(linear);
}

/// The allocation before a reduce: owned elements value_at, ghosts ghost_value.
template <std::size_t N>
std::vector<std::int64_t> reduce_input(const dtl::grid_decomposition<N>& dec, int rank) {
  std::vector<std::int64_t> data(dec.padded_size(rank));
  for (std::size_t linear = 0; linear < data.size(); ++linear) {
    const auto c = classify(dec, rank, linear);
    data[linear] = c.kind == cell_kind::owned ? value_at<N>(c.g, dec.global_extents()) : ghost_value(rank, linear);
  }
  return data;
}

/// After a sum reduce of reduce_input: each owned element plus the values of the ghosts (on every rank) that
/// copy it; the ghosts keep their values.
template <std::size_t N>
std::vector<std::int64_t> after_reduce(const dtl::grid_decomposition<N>& dec, int rank) {
  const ext<N> global = dec.global_extents();
  std::vector<std::int64_t> copies(dtl::extents_size(global), 0);
  for (int r = 0; r < dec.grid().size(); ++r)
    for (std::size_t linear = 0; linear < dec.padded_size(r); ++linear)
      if (const auto c = classify(dec, r, linear); c.kind == cell_kind::filled)
        copies[static_cast<std::size_t>(dtl::row_major::linearize(c.g, global))] += ghost_value(r, linear);
  std::vector<std::int64_t> data = reduce_input(dec, rank);
  for (std::size_t linear = 0; linear < data.size(); ++linear)
    if (const auto c = classify(dec, rank, linear); c.kind == cell_kind::owned)
      data[linear] += copies[static_cast<std::size_t>(dtl::row_major::linearize(c.g, global))];
  return data;
}

/// The offsets a stencil of `shape` reads within `width`: along one dimension at a time (star), or every
/// combination (box); the centre included.
template <std::size_t N>
std::vector<std::array<int, N>> stencil_offsets(const ext<N>& width, dtl::stencil_shape shape) {
  std::vector<std::array<int, N>> out;
  std::array<int, N> o{};
  for (std::size_t d = 0; d < N; ++d) o[d] = -static_cast<int>(width[d]);
  for (;;) {
    std::size_t moved = 0;
    for (const int x : o) moved += x != 0 ? 1 : 0;
    if (shape == dtl::stencil_shape::box || moved <= 1) out.push_back(o);
    std::size_t d = N;
    while (d-- > 0) {
      if (++o[d] <= static_cast<int>(width[d])) break;
      o[d] = -static_cast<int>(width[d]);
    }
    if (d == static_cast<std::size_t>(-1)) return out;
  }
}

/// A weight for each offset (small, different between offsets, so that a neighbour read from the wrong
/// place shows).
template <std::size_t N>
constexpr std::int64_t weight_of(const std::array<int, N>& o) {
  std::int64_t w = 1;
  for (std::size_t d = 0; d < N; ++d) w += (o[d] + 3) * static_cast<std::int64_t>(d + 2);
  return w % 7 + 1;
}

/// A stencil that reads `offsets` with weight_of's weights, on the host and the device (up to 125 offsets,
/// a box of width 2 in three dimensions, so that a kernel argument holds it; `fits` says whether they fit).
template <std::size_t N>
struct weighted_stencil {
  static constexpr std::size_t max_offsets = 125;
  bool fits = true;
  int offsets[max_offsets][N] = {};
  std::int64_t weights[max_offsets] = {};
  std::size_t count = 0;

  static weighted_stencil of(const ext<N>& width, dtl::stencil_shape shape) {
    weighted_stencil s;
    for (const auto& o : stencil_offsets<N>(width, shape)) {
      if (s.count == max_offsets) {
        s.fits = false;
        break;
      }
      for (std::size_t d = 0; d < N; ++d) s.offsets[s.count][d] = o[d];
      s.weights[s.count++] = weight_of<N>(o);
    }
    return s;
  }
  template <std::size_t... D>
  DTL_HOST_DEVICE static std::int64_t read(const dtl::stencil_accessor<const std::int64_t, N>& s, const int* o,
                                           std::index_sequence<D...>) {
    return s(o[D]...);
  }
  DTL_HOST_DEVICE std::int64_t operator()(dtl::stencil_accessor<const std::int64_t, N> s) const {
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < count; ++k) sum += weights[k] * read(s, offsets[k], std::make_index_sequence<N>{});
    return sum;
  }
};

/// The owned elements after the stencil `shape` and `width` over an exchanged owned_values(dec, rank, 0): the
/// same stencil over the serial global array, wrapped where periodic and 0 (the allocation's T{}) past a
/// closed edge; every other element `other`.
template <std::size_t N>
std::vector<std::int64_t> after_stencil(const dtl::grid_decomposition<N>& dec, int rank, std::int64_t other) {
  const ext<N> global = dec.global_extents();
  const auto offsets = stencil_offsets<N>(dec.halo_width(), dec.shape());
  std::vector<std::int64_t> out(dec.padded_size(rank), other);
  for (std::size_t linear = 0; linear < out.size(); ++linear) {
    const auto c = classify(dec, rank, linear);
    if (c.kind != cell_kind::owned) continue;
    std::int64_t expected = 0;
    for (const auto& o : offsets) {
      dtl::nd_index<N> g = c.g;
      bool inside = true;
      for (std::size_t d = 0; d < N; ++d) {
        const auto e = static_cast<dtl::index_t>(global[d]);
        g[d] += o[d];
        if (g[d] >= 0 && g[d] < e) continue;
        if (dec.grid().periodic(d))
          g[d] = (g[d] % e + e) % e;
        else
          inside = false;
      }
      if (inside) expected += weight_of<N>(o) * value_at<N>(g, global);
    }
    out[linear] = expected;
  }
  return out;
}

/// The positions where `got` and `expected` differ (the first few are worth printing).
inline std::vector<std::size_t> mismatches(const std::vector<std::int64_t>& got,
                                           const std::vector<std::int64_t>& expected) {
  std::vector<std::size_t> out;
  if (got.size() != expected.size()) return {static_cast<std::size_t>(-1)};
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i]) out.push_back(i);
  return out;
}

/// Checks that `got` is `expected` (`what`: which step), printing the first few differences.
inline void check_same(const std::vector<std::int64_t>& got, const std::vector<std::int64_t>& expected,
                       const char* what) {
  const std::string step = what;  // doctest prints a string, not a const char*'s address
  CAPTURE(step);
  const auto wrong = mismatches(got, expected);
  for (std::size_t k = 0; k < wrong.size() && k < 5; ++k) {
    const std::size_t at = wrong[k];
    CAPTURE(at);
    CHECK(got.at(at) == expected.at(at));
  }
  CHECK(wrong.empty());
}

/// f(decomposition) for every variant of one global extent over `ranks` ranks: star and box, widths 1 and 2,
/// every periodicity, the process grid fitted where grid_extents[d] is 0.
template <std::size_t N, class F>
void for_each_variant(int ranks, const ext<N>& global, const std::array<int, N>& grid_extents, F&& f) {
  for (const auto shape : {dtl::stencil_shape::star, dtl::stencil_shape::box}) {
    for (std::size_t w = 1; w <= 2; ++w) {
      for (unsigned mask = 0; mask < (1u << N); ++mask) {
        std::array<bool, N> periodic{};
        for (std::size_t d = 0; d < N; ++d) periodic[d] = ((mask >> d) & 1u) != 0;
        ext<N> width{};
        for (std::size_t d = 0; d < N; ++d) width[d] = w;
        auto dec = dtl::grid_decomposition<N>::create(dtl::process_grid<N>(ranks, grid_extents, periodic), global,
                                                      width, shape);
        CAPTURE(N);
        CAPTURE(w);
        CAPTURE(mask);
        CAPTURE(static_cast<int>(shape));
        REQUIRE(dec.has_value());
        f(*dec);
      }
    }
  }
}

}  // namespace grid_reference
