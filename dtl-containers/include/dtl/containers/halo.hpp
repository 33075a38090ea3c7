// SPDX-License-Identifier: MIT
#pragma once
// dtl::halo: the ghost cells of a distributed_vector, given when it is built.
//
//   dtl::distributed_vector<float, dtl::device_only<0>> grid(rows * width, ctx,
//                                                            dtl::halo{.prev = width, .next = width,
//                                                                      .periodic = false, .granularity = width});
//
// The ghosts live in the vector's allocation, `prev` elements before the owned block and `next` after
// it, so a stencil reads p[-1] and p[+1] of an owned element without branches. v.halo().exchange()
// fills them with copies of the neighbours' edge elements; ranks with empty blocks take no part (their
// neighbours skip over them). Ghosts that face no neighbour (before the first block and after the last
// of a non-periodic vector) start as T{} and no exchange writes them: boundary values go there.
// The width rule: a non-empty block must hold at least `prev` elements when a next neighbour reads it
// and `next` when a previous one does; otherwise construction fails with invalid_argument on every rank.

#include <cstddef>

namespace dtl {

struct halo {
  /// Ghost elements before and after each rank's block (copies of the neighbours' edge elements).
  std::size_t prev = 0;
  std::size_t next = 0;
  /// Whether the first rank's prev ghosts hold the last rank's edge (and the other way round).
  bool periodic = false;
  /// Elements per row: the blocks hold whole rows, and prev/next are whole rows (multiples of it).
  std::size_t granularity = 1;
};

}  // namespace dtl
