// SPDX-License-Identifier: MIT
#pragma once
// Which elements move, and where, when a vector's blocks change from one layout to another (the
// number of elements on each rank before and after): redistribute, resize and the last step of a sort.
// Global order is kept, so what rank r sends to rank q is the overlap of r's old block with q's new
// one: it follows from the two layouts arithmetically, and only elements that change owner move
// (what stays is the overlap of r's two blocks). Not for users.

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace dtl::detail {

/// offsets[r] = sizes[0] + ... + sizes[r - 1]; offsets[ranks] is the total.
inline std::vector<std::size_t> layout_offsets(std::span<const std::size_t> sizes) {
  std::vector<std::size_t> offsets(sizes.size() + 1, 0);
  for (std::size_t r = 0; r < sizes.size(); ++r) offsets[r + 1] = offsets[r] + sizes[r];
  return offsets;
}

/// One rank's part of a change of layout, in elements, as alltoallv takes it: what it sends to each
/// rank (displacements into its old block) and receives from each (displacements into its new one).
/// The rank's own entry is the part that stays (copied locally, or sent to itself).
struct layout_moves {
  std::vector<std::size_t> send_counts, send_displs, recv_counts, recv_displs;
  /// Elements that leave this rank (its own entry excluded).
  [[nodiscard]] std::size_t sent_elsewhere(std::size_t rank) const {
    std::size_t total = 0;
    for (std::size_t q = 0; q < send_counts.size(); ++q)
      if (q != rank) total += send_counts[q];
    return total;
  }
};

/// The moves of `rank` from the layout with offsets `from` to the one with offsets `to` (both from
/// layout_offsets, over the same ranks and the same total).
inline layout_moves moves_between(std::span<const std::size_t> from, std::span<const std::size_t> to,
                                  std::size_t rank) {
  const std::size_t ranks = from.size() - 1;
  layout_moves m{std::vector<std::size_t>(ranks, 0), std::vector<std::size_t>(ranks, 0),
                 std::vector<std::size_t>(ranks, 0), std::vector<std::size_t>(ranks, 0)};
  auto overlap = [](std::size_t b0, std::size_t e0, std::size_t b1, std::size_t e1) {
    const std::size_t b = std::max(b0, b1), e = std::min(e0, e1);
    return e > b ? e - b : std::size_t{0};
  };
  for (std::size_t q = 0; q < ranks; ++q) {
    // Mine before, q's after: what I send to q.
    m.send_counts[q] = overlap(from[rank], from[rank + 1], to[q], to[q + 1]);
    m.send_displs[q] = m.send_counts[q] != 0 ? std::max(from[rank], to[q]) - from[rank] : 0;
    // q's before, mine after: what I receive from q.
    m.recv_counts[q] = overlap(from[q], from[q + 1], to[rank], to[rank + 1]);
    m.recv_displs[q] = m.recv_counts[q] != 0 ? std::max(from[q], to[rank]) - to[rank] : 0;
  }
  return m;
}

}  // namespace dtl::detail
