#pragma once
// dtl::halo: the ghost cells of a distributed_vector, given when it is built.
//
//   dtl::distributed_vector<float, dtl::device_only<0>> grid(rows * width, ctx,
//                                                            dtl::halo{.prev = width, .next = width,
//                                                                      .periodic = false, .granularity = width});

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
