// SPDX-License-Identifier: MIT
#pragma once
// The serial reference of a halo exchange, shared by the host and the GPU halo tests.

#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/halo.hpp>

#include <cstddef>
#include <vector>

namespace halo_reference {

inline double value_of(std::size_t k) { return static_cast<double>(k) + 1.0; }  // never T{}

/// The global index prev ghost j (or next ghost j) of a block [b, e) copies, or npos when it faces no
/// neighbour: the serial reference of an exchange.
constexpr std::size_t npos = static_cast<std::size_t>(-1);
inline std::size_t prev_source(std::size_t b, std::size_t prev, std::size_t j, std::size_t n, bool periodic) {
  if (b >= prev) return b - prev + j;
  return periodic ? (b + n - prev + j) % n : npos;
}
inline std::size_t next_source(std::size_t e, std::size_t j, std::size_t n, bool periodic) {
  if (e < n) return e + j;  // the next non-empty block starts at e
  return periodic ? j : npos;
}

/// The width rule, serially: some non-empty block that a neighbour reads is smaller than the width.
inline bool breaks_width_rule(const dtl::block_partition<>& part, const dtl::halo& h) {
  std::vector<std::size_t> sizes;
  for (int r = 0; r < part.ranks(); ++r)
    if (const auto s = part.local_range(r).value().size(); s != 0) sizes.push_back(s);
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const bool has_next = k + 1 < sizes.size() || h.periodic;
    const bool has_prev = k > 0 || h.periodic;
    if ((has_next && sizes[k] < h.prev) || (has_prev && sizes[k] < h.next)) return true;
  }
  return false;
}

}  // namespace halo_reference
