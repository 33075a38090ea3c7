// SPDX-License-Identifier: MIT
#pragma once
// Sorting: sort, stable_sort, sort_by_key, is_sorted (global, collective), and upstream DTL's local_sort,
// local_stable_sort and local_is_sorted of one rank's block (at the end of this file).
//
//   dtl::sort(vec);                                   // ascending, over every rank
//   dtl::sort(dtl::par{}, vec, std::greater<>{});     // descending
//   dtl::stable_sort(vec, [] __host__ __device__ (const rec& a, const rec& b) { return a.k < b.k; });
//   dtl::sort_by_key(keys, values);                   // values permuted with their keys (stable)
//   bool ok = dtl::is_sorted(vec);                    // across rank boundaries; try_is_sorted: result<bool>
//   dtl::distributed_sort_result r = dtl::distributed_sort(vec);  // sort, and what this rank moved
//   dtl::distributed_sort(dtl::par{}, vec, std::less<>{}, dtl::distributed_sort_config{3, false, true});  // under seq
//   dtl::distributed_sort_result s = dtl::sort(dtl::seq{}, vec, std::less<>{}, comm);  // upstream's form
//
// Afterwards the elements are in global order and every rank holds as many elements as before (its
// block's size is kept, whatever the layout). A sample sort: local sort, regular samples, splitters
// with ties broken by (key, rank, position) so equal keys spread over the ranks, one alltoallv of the
// buckets, a merge of the received runs, and a neighbour shift back to the old sizes. Host placements
// sort with the standard library over MPI; device placements on the GPU (radix sort for std::less and
// std::greater on arithmetic keys, a merge sort for other comparators), the buffers moving on the
// context's device path. docs/containers.md ("Sort") gives the paths and the memory each one needs.
//
// sort, stable_sort and sort_by_key return result<void> (a future under dtl::async); is_sorted returns
// bool and distributed_sort a distributed_sort_result, each throwing dtl::status_error on failure (their
// try_ twins return result<...>). sort and stable_sort with upstream's communicator last (seq or par)
// return a distributed_sort_result as upstream's do, and throw dtl::communication_error
// (detail/communicator_forms.hpp). Every rank gets the
// same outcome. The comparator is a strict weak order on the keys, of the same type on every rank; on
// a device placement it is a device function (or std::less / std::greater), and the calling file is
// compiled by the kernel compiler (dtl-hip-kc).

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/algorithms/device/sort.hpp>
#include <dtl/containers/algorithms/detail/host_sort.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/placement_traits.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace dtl {

/// What distributed_sort did on this rank (upstream DTL's type): elements sent to and received from
/// other ranks, over the exchange of the buckets and the shift back to the old sizes.
struct distributed_sort_result {
  bool success = true;
  std::size_t elements_sent = 0;
  std::size_t elements_received = 0;
};

/// Upstream DTL's settings of distributed_sort(policy, vec, comp, config). use_parallel_local_sort picks
/// the policy the sort runs under (dtl::par when set, else dtl::seq), as upstream's does; our sample sort
/// takes its own sample counts and merges as the policy says, so oversampling_factor and
/// use_parallel_merge are accepted and change nothing.
struct distributed_sort_config {
  std::size_t oversampling_factor = 3;
  bool use_parallel_local_sort = true;
  bool use_parallel_merge = true;
};

namespace detail {

/// A vector's block, for the one-rank sort that adopts its alternate buffer (algorithms/device/sort.hpp).
struct storage_access {
  template <class T, class P>
  static segment_allocation& block(distributed_vector<T, P>& v) noexcept {
    return v.storage_;
  }
  /// The block the sort keys move between with block(): kept by the vector for its next sort.
  template <class T, class P>
  static segment_allocation& spare(distributed_vector<T, P>& v) noexcept {
    return v.sort_spare_;
  }
  /// Whether the block may be swapped for another of its layout: no ghosts (a halo plan holds the
  /// block's address) and no global_view window registered on it.
  template <class T, class P>
  static bool swappable(const distributed_vector<T, P>& v) noexcept {
    return !v.plan_ && !v.window_ && v.local_size_with_ghosts() == v.local_size();
  }
};

template <class R>
result<void> without_traffic(result<R> r) {
  return r ? result<void>() : result<void>(std::move(r).error());
}

template <bool Stable, bool Traffic = false>
struct sort_bodies {
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto host(const Pol&, distributed_vector<T, P>& vec, Comp comp = {}) {
    auto done = host_sample_sort<Stable, is_parallel_v<Pol>>(vec.get_context(), vec.local_data(), vec.local_size(),
                                                             key_itself{}, comp);
    if constexpr (Traffic)
      return done;
    else
      return without_traffic(std::move(done));
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto device(const Pol& policy, distributed_vector<T, P>& vec, Comp comp = {}) {
    // One rank, radix keys: the vector may adopt the sort's alternate buffer (its pointers and views from
    // before the sort are then invalidated, as by redistribute).
    if constexpr (!Traffic && device::adopts_alternate_v<Pol, T, Comp>) {
      if (vec.num_ranks() == 1 && vec.local_size() > 1 && storage_access::swappable(vec))
        return device::sort_adopting<Pol, T, Comp>(policy, vec.get_context(), vec.device_id(),
                                                   storage_access::block(vec), storage_access::spare(vec),
                                                   vec.local_size(), std::max(alignof(T), alignof(std::max_align_t)));
    }
    return device::sort<Stable, P, Traffic>(policy, vec.get_context(), vec.device_id(), vec.local_data(),
                                            static_cast<void*>(nullptr), vec.local_size(), comp);
  }
  /// The forms that report what this rank moved give it as upstream's distributed_sort_result.
  template <class Outcome>
  requires Traffic static auto finish(Outcome outcome) {
    return map_outcome(std::move(outcome), [](const sort_traffic& t) {
      return distributed_sort_result{true, t.sent, t.received};
    });
  }
};

struct sort_impl : sort_bodies<false> {
  static constexpr const char* name = "sort";
};
struct stable_sort_impl : sort_bodies<true> {
  static constexpr const char* name = "stable_sort";
};
/// sort, with what this rank moved.
struct distributed_sort_impl : sort_bodies<false, true> {
  static constexpr const char* name = "distributed_sort";
};

/// keys sorted, values permuted with them (stable: equal keys keep their values' order).
struct sort_by_key_impl {
  static constexpr const char* name = "sort_by_key";
  static constexpr bool communicates = true;
  template <class Pol, class K, class P, class V, class Q, class Comp = std::less<>>
  static result<void> host(const Pol&, distributed_vector<K, P>& keys, distributed_vector<V, Q>& values,
                           Comp comp = {}) {
    const std::size_t n = keys.local_size();
    std::vector<key_value<K, V>> items;
    const status zipped = catch_allocation_failure("sort_by_key", [&]() -> status {
      items.resize(n);
      return {};
    });
    DTL_TRY(agree_before(true, keys.get_context(), zipped, "sort_by_key (the key-value buffer)"));
    K* k = keys.local_data();
    V* v = values.local_data();
    for (std::size_t i = 0; i < n; ++i) items[i] = {k[i], v[i]};
    DTL_TRY(host_sample_sort<true, is_parallel_v<Pol>>(keys.get_context(), items.data(), n, key_of_pair{}, comp));
    for (std::size_t i = 0; i < n; ++i) {
      k[i] = items[i].key;
      v[i] = items[i].value;
    }
    return {};
  }
  template <class Pol, class K, class P, class V, class Q, class Comp = std::less<>>
  static auto device(const Pol& policy, distributed_vector<K, P>& keys, distributed_vector<V, Q>& values,
                     Comp comp = {}) {
    return device::sort<true, P>(policy, keys.get_context(), keys.device_id(), keys.local_data(), values.local_data(),
                                 keys.local_size(), comp);
  }
};

/// Whether the elements are in order by comp, over every rank (rank boundaries included).
struct is_sorted_impl {
  static constexpr const char* name = "is_sorted";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Comp = std::less<>>
  static result<bool> host(const Pol&, const distributed_vector<T, P>& vec, Comp comp = {}) {
    return host_is_sorted(vec.get_context(), vec.local_data(), vec.local_size(), comp);
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto device(const Pol& policy, const distributed_vector<T, P>& vec, Comp comp = {}) {
    return device::is_sorted(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(), comp);
  }
};

}  // namespace detail

namespace detail {
/// stable_sort, with what this rank moved.
struct stable_sort_with_traffic_impl : sort_bodies<true, true> {
  static constexpr const char* name = "stable_sort";
};

/// A sort's object with upstream's communicator form (policy, vec, comp, comm), which returns what this
/// rank moved.
template <class Impl, class WithTraffic>
struct with_sort_communicator_form : status_algorithm<Impl> {
  using status_algorithm<Impl>::operator();
  template <blocking_policy Pol, class C, class Comp, rank_group G>
  distributed_sort_result operator()(Pol&& policy, C& c, Comp comp, G&& group) const {
    return run_on_group(Impl::name, c, group,
                        [&] { return value_algorithm<WithTraffic>{}(policy, c, std::move(comp)); });
  }
};
}  // namespace detail

inline constexpr detail::with_sort_communicator_form<detail::sort_impl, detail::distributed_sort_impl> sort{};
inline constexpr detail::with_sort_communicator_form<detail::stable_sort_impl, detail::stable_sort_with_traffic_impl>
    stable_sort{};
inline constexpr detail::status_algorithm<detail::sort_by_key_impl> sort_by_key{};
namespace detail {
/// distributed_sort's object, with upstream's form that takes a distributed_sort_config.
struct distributed_sort_fn : value_algorithm<distributed_sort_impl> {
  using value_algorithm<distributed_sort_impl>::operator();
  template <ExecutionPolicy Pol, class T, class P, class Comp>
  distributed_sort_result operator()(Pol&&, distributed_vector<T, P>& vec, Comp comp,
                                     distributed_sort_config config) const {
    if (config.use_parallel_local_sort) return (*this)(par{}, vec, comp);
    return (*this)(seq{}, vec, comp);
  }
};
}  // namespace detail

inline constexpr detail::distributed_sort_fn distributed_sort{};
inline constexpr detail::try_value_algorithm<detail::distributed_sort_impl> try_distributed_sort{};
inline constexpr detail::value_algorithm<detail::is_sorted_impl> is_sorted{};
inline constexpr detail::try_value_algorithm<detail::is_sorted_impl> try_is_sorted{};

// Upstream DTL's sorts of this rank's block alone (no communication; host placements; under dtl::par the
// standard library's parallel sort where the build has one, as host_sort.hpp chooses).
template <class T, class P, class Compare = std::less<>>
requires(P::host_accessible) void local_sort(distributed_vector<T, P>& vec, Compare comp = {}) {
  std::sort(vec.local_data(), vec.local_data() + vec.local_size(), comp);
}
template <ExecutionPolicy Pol, class T, class P, class Compare = std::less<>>
requires(P::host_accessible) void local_sort(Pol&&, distributed_vector<T, P>& vec, Compare comp = {}) {
  std::sort(vec.local_data(), vec.local_data() + vec.local_size(), comp);
}
template <class T, class P, class Compare = std::less<>>
requires(P::host_accessible) void local_stable_sort(distributed_vector<T, P>& vec, Compare comp = {}) {
  std::stable_sort(vec.local_data(), vec.local_data() + vec.local_size(), comp);
}
template <ExecutionPolicy Pol, class T, class P, class Compare = std::less<>>
requires(P::host_accessible) void local_stable_sort(Pol&&, distributed_vector<T, P>& vec, Compare comp = {}) {
  std::stable_sort(vec.local_data(), vec.local_data() + vec.local_size(), comp);
}
template <class T, class P, class Compare = std::less<>>
requires(P::host_accessible) bool local_is_sorted(const distributed_vector<T, P>& vec, Compare comp = {}) {
  return std::is_sorted(vec.local_data(), vec.local_data() + vec.local_size(), comp);
}

}  // namespace dtl
