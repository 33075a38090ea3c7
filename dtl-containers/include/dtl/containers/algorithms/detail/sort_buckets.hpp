// SPDX-License-Identifier: MIT
#pragma once
// The distributed sort's counts before its bucket exchange (host path): this rank's receive counts, every
// rank's bucket size, and this rank's receive buffer, with a failed allocation reaching every rank. Not for
// users.
//
// Up to count_matrix_ranks ranks, one allgather of every rank's send counts (the P x P count matrix, at
// most 128 KiB) gives both the receive counts and the bucket sizes. The receive buffer is allocated before
// it, at a capacity every rank can compute for every rank: the rank's size and twice the splitters'
// tolerance (sort_plan::tolerance), which the buckets stay within; a failed allocation rides in the
// allgather as a flag. Only when some rank failed or its bucket outgrew that capacity do the ranks (all
// of them, since all know it) take one more step: those ranks allocate again, and the agreement step
// gives every rank the same status. Past count_matrix_ranks: one alltoall of the counts, then the
// allocation, then one allgather of the bucket sizes with the flags.

#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/algorithms/detail/sort_rounds.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/unchecked_collectives.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace dtl::detail {

/// Ranks up to which the sort allgathers its count matrix (128 x 128 counts: 128 KiB on every rank).
inline constexpr std::size_t count_matrix_ranks = 128;

/// Where the buckets go: this rank's receive counts, and every rank's bucket size.
struct bucket_layout {
  std::vector<std::size_t> recv_counts, bucket_sizes;
};

/// The counts of the bucket exchange (collective), given every rank's size and this rank's send counts;
/// allocate(elements) -> status makes room for this rank's receive buffer (called once or twice). Tests
/// lower matrix_ranks to take the path of many ranks.
template <class Allocate>
result<bucket_layout> plan_buckets(const context& ctx, std::span<const std::size_t> sizes,
                                   std::span<const std::size_t> send_counts, Allocate allocate,
                                   std::size_t matrix_ranks = count_matrix_ranks) {
  const std::size_t p = sizes.size(), me = static_cast<std::size_t>(ctx.rank());
  constexpr const char* what = "sort (the receive buffer)";
  bucket_layout out{std::vector<std::size_t>(p), std::vector<std::size_t>(p, 0)};
  if (p > matrix_ranks) {
    DTL_TRY(unchecked_alltoall(ctx, send_counts.data(), out.recv_counts.data(), sizeof(std::size_t)));
    std::size_t received = 0;
    for (const std::size_t c : out.recv_counts) received += c;
    DTL_ASSIGN_OR_RETURN(out.bucket_sizes, allgather_sizes(ctx, received, allocate(received), what));
    return out;
  }
  const std::size_t slack = 2 * sort_plan::tolerance(sizes);
  const status allocated = allocate(sizes[me] + slack);
  std::vector<std::size_t> row(p + 1), matrix((p + 1) * p);  // each row: the send counts, then the flag
  std::copy(send_counts.begin(), send_counts.end(), row.begin());
  row[p] = allocated.ok() ? 0 : 1;
  DTL_TRY(unchecked_allgather(ctx, row.data(), matrix.data(), row.size() * sizeof(std::size_t)));
  bool again = false;  // some rank failed, or its bucket outgrew its capacity: alike on every rank
  for (std::size_t r = 0; r < p; ++r) {
    const std::size_t* from = matrix.data() + r * (p + 1);
    out.recv_counts[r] = from[me];
    again = again || from[p] != 0;
    for (std::size_t q = 0; q < p; ++q) out.bucket_sizes[q] += from[q];
  }
  for (std::size_t q = 0; q < p && !again; ++q) again = out.bucket_sizes[q] > sizes[q] + slack;
  if (again) {
    const bool mine = !allocated.ok() || out.bucket_sizes[me] > sizes[me] + slack;
    DTL_TRY(agree(ctx, mine ? allocate(out.bucket_sizes[me]) : status{}, call_signature{what}));
  }
  return out;
}

}  // namespace dtl::detail
