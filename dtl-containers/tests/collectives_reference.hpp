// SPDX-License-Identifier: MIT
#pragma once
// What the collectives' tests (host and GPU) exchange: a serial reference of what every rank sends.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace collectives_reference {

using counts = std::vector<std::size_t>;

// Elements rank `from` sends rank `to`: uneven, zero for some pairs, many bytes (pieces under a small
// DTL_MPI_MESSAGE_LIMIT).
inline std::size_t count_between(int from, int to) {
  return static_cast<std::size_t>((from * 7 + to * 3 + 1) % 5) * 37;
}
inline std::int64_t value_of(int from, int to, std::size_t i) {
  return std::int64_t{from} * 1'000'000'000 + std::int64_t{to} * 1'000'000 + static_cast<std::int64_t>(i);
}
constexpr std::int64_t untouched = -1;

// Blocks in `order`, each followed by `gap` elements: the displacements, and the total extent.
inline std::size_t lay_out(const counts& sizes, const std::vector<int>& order, std::size_t gap, counts& displs) {
  displs.assign(sizes.size(), 0);
  std::size_t at = 0;
  for (const int r : order) {
    displs[static_cast<std::size_t>(r)] = at;
    at += sizes[static_cast<std::size_t>(r)] + gap;
  }
  return at;
}

inline std::vector<int> ranks_in_order(int p, bool reversed) {
  std::vector<int> order(static_cast<std::size_t>(p));
  std::iota(order.begin(), order.end(), 0);
  if (reversed) std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace collectives_reference
