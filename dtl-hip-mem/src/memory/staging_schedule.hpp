// SPDX-License-Identifier: MIT
#pragma once
// Private: how a staged copy is cut into pieces. Header-only, so that the unit tests check it without a
// device.
//
// The pipeline overlaps the host's part of piece k with the copy engine's part of piece k-1, except at
// the two ends: the first piece's host part (or, device to host, its DMA) and the last piece's DMA (or
// host part) run alone. So the pieces start small and double up to a chunk, and the last ones halve
// again: a 64 MiB copy with 16 MiB chunks runs alone for 2 MiB at each end instead of 16 MiB.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace dtl::hip::detail {

struct staging_piece {
  std::size_t offset;
  std::size_t length;
};

/// The smallest piece: an eighth of a chunk, but at least 256 KiB (or the chunk, if smaller).
[[nodiscard]] constexpr std::size_t smallest_staging_piece(std::size_t chunk) noexcept {
  return std::min(chunk, std::max(chunk / 8, std::size_t{256} << 10));
}

/// Contiguous pieces covering [0, bytes), each at most `chunk` (> 0) bytes.
[[nodiscard]] inline std::vector<staging_piece> staging_pieces(std::size_t bytes, std::size_t chunk) {
  std::vector<staging_piece> pieces;
  const std::size_t smallest = smallest_staging_piece(chunk);
  std::size_t grow = smallest;
  for (std::size_t offset = 0; offset < bytes;) {
    const std::size_t remaining = bytes - offset;
    std::size_t length = std::min(grow, remaining);
    // The tail: halve what is left rather than end on a large piece, down to the smallest piece.
    if (remaining <= 2 * length && remaining > smallest) length = std::max(smallest, (remaining + 1) / 2);
    length = std::min(length, remaining);
    pieces.push_back({offset, length});
    offset += length;
    grow = std::min(chunk, grow * 2);
  }
  return pieces;
}

}  // namespace dtl::hip::detail
