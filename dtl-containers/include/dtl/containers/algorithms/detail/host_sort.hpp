// SPDX-License-Identifier: MIT
#pragma once
// The host path of the distributed sort (host placements): a sample sort over MPI. Not for users.
//
//   1. each rank sorts its block (std::sort / std::stable_sort; under par in chunks on threads, merged);
//   2. the splitters (sort_rounds.hpp): regular samples from every rank, allgathered with the ranks'
//      sizes, and every rank picks the same ranks - 1 splitters (sort_plan.hpp: ties broken by (key, rank,
//      position)); past 32 ranks round one gathers fewer samples and refinement rounds place the splitters;
//   3. each rank cuts its block at the splitters (binary searches); the counts and bucket sizes
//      (sort_buckets.hpp), then the elements by one alltoallv into a receive buffer;
//   4. the received runs (sorted, in rank order) are merged, stably;
//   5. the neighbour shift: messages between neighbours give every rank its old size back.
// The exchanges are unchecked_collectives.hpp's: their arguments agree by construction, and the two
// failures a rank may meet (allocating for its local sort or its receive buffer) travel as flags in the
// exchanges of steps 2 and 3, after which every rank returns the same status. The merge allocates
// nothing, so it cannot fail on one rank alone.
// Memory beyond the data, per rank: the receive buffer (the rank's bucket, about its block) plus what
// std::stable_sort takes, and the splitter rounds' samples: at most 32·ranks² keys up to 32 ranks, then at
// most 8192 keys and 32·ranks keys a refinement round; up to 128 ranks the count matrix (ranks² counts).

#include <dtl/containers/algorithms/detail/sort_buckets.hpp>
#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/algorithms/detail/sort_rounds.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/unchecked_collectives.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <algorithm>
#include <new>
#include <cstddef>
#include <numeric>
#include <span>
#include <thread>
#include <type_traits>
#include <vector>

namespace dtl::detail {

/// An element of sort_by_key on the host: the key and the value travel together.
template <class K, class V>
struct key_value {
  K key;
  V value;
};

/// The key of an element: the element itself (sort), or the key of a key_value (sort_by_key).
struct key_itself {
  template <class T>
  const T& operator()(const T& x) const noexcept {
    return x;
  }
};
struct key_of_pair {
  template <class K, class V>
  const K& operator()(const key_value<K, V>& x) const noexcept {
    return x.key;
  }
};

/// Merges the sorted runs [bounds[i], bounds[i + 1]) of data in place, pairwise (stable: of equal
/// elements, those of an earlier run stay first). Under Parallel the pairs of a round run on threads.
/// Allocates nothing when `next` has room for bounds.size() entries: std::inplace_merge falls back to a
/// merge without a buffer, and a round whose threads cannot be had runs on the calling thread (merging a
/// pair twice is harmless).
template <bool Parallel, class Item, class Less>
void merge_runs(Item* data, std::vector<std::size_t>& bounds, std::vector<std::size_t>& next, Less& less) {
  while (bounds.size() > 2) {
    const std::size_t runs = bounds.size() - 1, pairs = runs / 2;
    auto merge_pair = [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k)
        std::inplace_merge(data + bounds[2 * k], data + bounds[2 * k + 1], data + bounds[2 * k + 2], less);
    };
    if constexpr (Parallel) {
      try {
        parallel_for(pairs, merge_pair, 1);
      } catch (const std::bad_alloc&) {
        merge_pair(0, pairs);
      }
    } else {
      merge_pair(0, pairs);
    }
    next.clear();
    for (std::size_t k = 0; k < runs; k += 2) next.push_back(bounds[k]);
    next.push_back(bounds.back());
    bounds.swap(next);
  }
}

/// Sorts data[0, n) on the host: std::sort or std::stable_sort, under Parallel in one chunk per thread
/// merged pairwise (stable when the chunks' sorts are).
template <bool Stable, bool Parallel, class Item, class Less>
void host_local_sort(Item* data, std::size_t n, Less& less) {
  auto sort_range = [&](Item* b, Item* e) {
    if constexpr (Stable)
      std::stable_sort(b, e, less);
    else
      std::sort(b, e, less);
  };
  const std::size_t chunks = Parallel ? host_chunks(n) : 1;
  if (chunks <= 1) {
    sort_range(data, data + n);
    return;
  }
  std::vector<std::size_t> bounds(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c) bounds[c] = even_block_begin(n, chunks, c);
  parallel_for(
      chunks,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t c = b; c < e; ++c) sort_range(data + bounds[c], data + bounds[c + 1]);
      },
      1);
  std::vector<std::size_t> next;
  next.reserve(bounds.size());
  merge_runs<Parallel>(data, bounds, next, less);
}

/// What one rank moved in a distributed sort: elements sent to and received from other ranks, over the
/// bucket exchange and the neighbour shift (its own elements excluded); and the splitter rounds taken.
struct sort_traffic {
  std::size_t sent = 0, received = 0, rounds = 0;
};

/// The splitter rounds' access to a host rank's sorted block data[0, n) (sort_rounds.hpp's Ops).
template <class K, class Item, class KeyOf, class Comp>
struct host_sort_ops {
  const Item* data;
  std::size_t n, me;
  KeyOf key_of;
  Comp& comp;
  static constexpr bool fallible = false;

  status take(std::span<const std::size_t> positions, K* out) const {
    for (std::size_t i = 0; i < positions.size(); ++i) out[i] = key_of(data[positions[i]]);
    return {};
  }
  status order(const std::vector<K>& keys, std::vector<std::size_t>& order) const {
    order.resize(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return static_cast<bool>(comp(keys[a], keys[b])); });
    return {};
  }
  status cut(std::span<const sort_plan::keyed_point<K>> points, std::size_t* cuts) const {
    for (std::size_t j = 0; j < points.size(); ++j) {
      const sort_plan::keyed_point<K>& at = points[j];
      if (at.where != sort_plan::place::at_key) {
        cuts[j] = at.where == sort_plan::place::before_all ? 0 : n;
        continue;
      }
      const auto lower = std::lower_bound(
          data, data + n, at.key, [&](const Item& a, const K& k) { return static_cast<bool>(comp(key_of(a), k)); });
      const auto upper = std::upper_bound(
          data, data + n, at.key, [&](const K& k, const Item& a) { return static_cast<bool>(comp(k, key_of(a))); });
      cuts[j] = sort_plan::cut_of(me, at.rank, at.position, static_cast<std::size_t>(lower - data),
                                  static_cast<std::size_t>(upper - data));
    }
    return {};
  }
};

/// Elements of an alltoallv that leave this rank, and that arrive from other ranks.
inline void count_traffic(sort_traffic& t, std::size_t me, const std::vector<std::size_t>& send_counts,
                          const std::vector<std::size_t>& recv_counts) {
  for (std::size_t q = 0; q < send_counts.size(); ++q) {
    if (q == me) continue;
    t.sent += send_counts[q];
    t.received += recv_counts[q];
  }
}

/// Byte counts or offsets of `elements` elements of `bytes_each` bytes.
inline std::vector<std::size_t> in_bytes(const std::vector<std::size_t>& elements, std::size_t bytes_each) {
  std::vector<std::size_t> out(elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) out[i] = elements[i] * bytes_each;
  return out;
}

/// The distributed sort of every rank's data[0, n) (collective): afterwards the elements are in
/// global order by comp(key_of(a), key_of(b)), and every rank holds n elements again.
template <bool Stable, bool Parallel, class Item, class KeyOf, class Comp>
result<sort_traffic> host_sample_sort(const context& ctx, Item* data, std::size_t n, KeyOf key_of, Comp& comp) {
  using K = std::remove_cvref_t<decltype(key_of(*data))>;
  auto less = [&](const Item& a, const Item& b) { return static_cast<bool>(comp(key_of(a), key_of(b))); };
  const status sorted = catch_allocation_failure("sort", [&]() -> status {
    host_local_sort<Stable, Parallel>(data, n, less);
    return {};
  });
  if (ctx.size() == 1) {
    if (!sorted.ok()) return sorted;
    return sort_traffic{};
  }
  sort_traffic traffic;
  const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());

  // The splitters, and where they cut this rank's block.
  host_sort_ops<K, Item, KeyOf, Comp> ops{data, n, me, key_of, comp};
  DTL_ASSIGN_OR_RETURN(const splitter_cuts found, find_cuts<K>(ctx, n, sorted, ops));
  const std::vector<std::size_t>& sizes = found.sizes;
  const std::vector<std::size_t> offsets = layout_offsets(sizes);
  if (offsets.back() == 0) return traffic;
  traffic.rounds = found.rounds;
  const sort_plan::bucket_counts send = sort_plan::buckets_from_cuts(found.cuts, n);

  // The receive buffer (and the merge's bounds, so that the merge allocates nothing) and the counts.
  std::vector<Item> bucket;
  std::vector<std::size_t> bounds, next;
  auto allocate = [&](std::size_t elements) {
    return catch_allocation_failure("sort (the receive buffer)", [&]() -> status {
      bucket.reserve(elements);
      bounds.reserve(p + 1);
      next.reserve(p + 1);
      return {};
    });
  };
  DTL_ASSIGN_OR_RETURN(const bucket_layout layout, plan_buckets(ctx, sizes, send.counts, allocate));
  const std::vector<std::size_t>& recv_counts = layout.recv_counts;
  const std::vector<std::size_t>& bucket_sizes = layout.bucket_sizes;
  const std::vector<std::size_t> recv_displs = sort_plan::displacements(recv_counts);
  const std::size_t received = bucket_sizes[me];
  bucket.resize(received);  // within the capacity reserved: allocates nothing
  // Every count and offset of both exchanges is at most the largest block or bucket.
  const std::size_t most = sizeof(Item) * std::max(*std::max_element(sizes.begin(), sizes.end()),
                                                   *std::max_element(bucket_sizes.begin(), bucket_sizes.end()));
  DTL_TRY(unchecked_alltoallv(ctx, data, in_bytes(send.counts, sizeof(Item)), in_bytes(send.displs, sizeof(Item)),
                              bucket.data(), in_bytes(recv_counts, sizeof(Item)), in_bytes(recv_displs, sizeof(Item)),
                              most, exchange_shape::dense));
  count_traffic(traffic, me, send.counts, recv_counts);
  bounds.assign(recv_displs.begin(), recv_displs.end());
  bounds.push_back(received);
  merge_runs<Parallel>(bucket.data(), bounds, next, less);

  // The neighbour shift: from the buckets' sizes back to the sizes the ranks had.
  if (bucket_sizes == sizes) {
    std::copy(bucket.begin(), bucket.end(), data);
    return traffic;
  }
  const layout_moves moves = moves_between(layout_offsets(bucket_sizes), offsets, me);
  DTL_TRY(unchecked_alltoallv(ctx, bucket.data(), in_bytes(moves.send_counts, sizeof(Item)),
                              in_bytes(moves.send_displs, sizeof(Item)), data,
                              in_bytes(moves.recv_counts, sizeof(Item)), in_bytes(moves.recv_displs, sizeof(Item)),
                              most, exchange_shape::neighbours));
  count_traffic(traffic, me, moves.send_counts, moves.recv_counts);
  return traffic;
}

/// Whether the elements of every rank, taken in rank order, are sorted by comp (collective; empty ranks
/// are skipped). Every rank gets the same answer.
template <class T, class Comp>
result<bool> host_is_sorted(const context& ctx, const T* data, std::size_t n, Comp& comp) {
  auto less = [&](const T& a, const T& b) { return static_cast<bool>(comp(a, b)); };
  const bool local = std::is_sorted(data, data + n, less);
  if (ctx.size() == 1) return local;
  struct edge {
    T first, last;
    int present, sorted;
  };
  const edge mine{n != 0 ? data[0] : T{}, n != 0 ? data[n - 1] : T{}, n != 0 ? 1 : 0, local ? 1 : 0};
  std::vector<edge> all(static_cast<std::size_t>(ctx.size()));
  DTL_TRY(ctx.allgather(&mine, all.data(), 1));
  const edge* previous = nullptr;
  for (const edge& e : all) {
    if (e.sorted == 0) return false;
    if (e.present == 0) continue;
    if (previous != nullptr && less(e.first, previous->last)) return false;
    previous = &e;
  }
  return true;
}

}  // namespace dtl::detail
