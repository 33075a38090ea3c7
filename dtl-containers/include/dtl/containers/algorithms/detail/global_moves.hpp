// SPDX-License-Identifier: MIT
#pragma once
// What the algorithms that move elements between ranks share: the value just before this rank's block
// (unique, adjacent_difference), and a move of every element to a global position of its own (rotate,
// the global partitions). Not for users.

#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace dtl::detail {

/// The last element before this rank's block in global order: the last one of the nearest earlier rank
/// that has elements (absent on the first rank that has any). Collective: one allgather of one
/// (value, present) pair per rank, which carries `local`, this rank's failure so far, to every rank.
template <class T>
result<maybe<T>> last_before(const context& ctx, const T* data, std::size_t n, const status& local = {}) {
  const maybe<T> mine{n != 0 ? data[n - 1] : T{}, n != 0 ? 1 : 0};
  std::vector<maybe<T>> all(static_cast<std::size_t>(ctx.size()));
  if (result<void> r = allgather_host(ctx, &mine, all.data(), sizeof(mine), local); !r) return std::move(r).error();
  maybe<T> before{T{}, 0};
  for (int r = 0; r < ctx.rank(); ++r)
    if (all[static_cast<std::size_t>(r)].present != 0) before = all[static_cast<std::size_t>(r)];
  return before;
}

/// An element on its way to its global position.
template <class T>
struct placed {
  std::size_t at;
  T value;
};

/// The rank whose block (offsets from partition_offsets) holds global index i.
inline std::size_t owner_of(std::span<const std::size_t> offsets, std::size_t i) {
  return static_cast<std::size_t>(std::upper_bound(offsets.begin() + 1, offsets.end(), i) - (offsets.begin() + 1));
}

/// Moves this rank's n elements data[i] to the global positions dest(i), where dest over every rank is
/// a permutation of [0, global size) (`layout`: the vector's partition): afterwards data holds the
/// elements sent to this rank's block. Each element travels with its position (one alltoall of the
/// counts, one alltoallv of the elements). `local`: this rank's failure so far, taken to the first
/// collective so that every rank returns it. Collective.
template <class T, class Dest>
result<void> move_to_positions(const context& ctx, const block_partition<>& layout, T* data, std::size_t n, Dest dest,
                               const char* what, status local = {}) {
  const std::vector<std::size_t> offsets = partition_offsets(layout);
  const std::size_t ranks = static_cast<std::size_t>(ctx.size());
  const std::size_t me = static_cast<std::size_t>(ctx.rank());
  std::vector<std::size_t> send_counts(ranks, 0), send_displs(ranks, 0), recv_counts(ranks, 0), recv_displs(ranks, 0);
  std::vector<placed<T>> outgoing;
  if (local.ok()) {
    local = catch_allocation_failure(what, [&]() -> status {
      outgoing.resize(n);
      for (std::size_t i = 0; i < n; ++i) ++send_counts[owner_of(offsets, dest(i))];
      for (std::size_t q = 1; q < ranks; ++q) send_displs[q] = send_displs[q - 1] + send_counts[q - 1];
      std::vector<std::size_t> next = send_displs;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = dest(i);
        outgoing[next[owner_of(offsets, at)]++] = placed<T>{at, data[i]};
      }
      return {};
    });
  }
  DTL_TRY(with_local_failure(local, [&] { return ctx.alltoall(send_counts.data(), recv_counts.data(), 1); }));
  for (std::size_t q = 1; q < ranks; ++q) recv_displs[q] = recv_displs[q - 1] + recv_counts[q - 1];
  const std::size_t incoming_count = recv_displs[ranks - 1] + recv_counts[ranks - 1];
  std::vector<placed<T>> incoming;
  const status room = catch_allocation_failure(what, [&]() -> status {
    incoming.resize(incoming_count);
    return {};
  });
  DTL_TRY(with_local_failure(room, [&] {
    return ctx.alltoallv(outgoing.data(), send_counts, send_displs, incoming.data(), recv_counts, recv_displs);
  }));
  for (const placed<T>& p : incoming) data[p.at - offsets[me]] = p.value;
  return {};
}

}  // namespace dtl::detail
