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

// What rank `me` sends each rank q (send_counts[q] elements value_of(me, q, i)), its blocks in reverse rank
// order with a gap of one left untouched; fills send_displs.
inline std::vector<std::int64_t> blocks_to_send(int me, const counts& send_counts, counts& send_displs) {
  const int p = static_cast<int>(send_counts.size());
  std::vector<std::int64_t> send(lay_out(send_counts, ranks_in_order(p, true), 1, send_displs), untouched);
  for (int q = 0; q < p; ++q)
    for (std::size_t i = 0; i < send_counts[static_cast<std::size_t>(q)]; ++i)
      send[send_displs[static_cast<std::size_t>(q)] + i] = value_of(me, q, i);
  return send;
}

// What rank `me` must hold after the exchange in a buffer of `extent` elements: each rank q's block at
// recv_displs[q], untouched elsewhere.
inline std::vector<std::int64_t> blocks_received(int me, const counts& recv_counts, const counts& recv_displs,
                                                 std::size_t extent) {
  std::vector<std::int64_t> expected(extent, untouched);
  for (std::size_t q = 0; q < recv_counts.size(); ++q)
    for (std::size_t i = 0; i < recv_counts[q]; ++i)
      expected[recv_displs[q] + i] = value_of(static_cast<int>(q), me, i);
  return expected;
}

}  // namespace collectives_reference
