// SPDX-License-Identifier: MIT
#pragma once
// Partitions over every rank: partition_elements, stable_partition_elements, partition, stable_partition,
// is_partitioned, partition_count (upstream DTL's names).
//
//   auto r = dtl::partition_elements(vec, [](int x) { return x % 2 == 0; });
//   // every even element now precedes every odd one, across the ranks; r.global_true_count of them,
//   // r.local_true_count on this rank
//   dtl::index_t point = dtl::partition(vec, pred);       // the global index of the first odd one
//   bool ok = dtl::is_partitioned(vec, pred);             // across rank boundaries
//   std::size_t evens = dtl::partition_count(vec, pred);  // over every rank
//
// Collective, and stable: the elements for which pred holds move to the front in their global order, the
// others after them in theirs; each rank keeps its block's size. Each element travels once, with its
// position (one allgather of two counts a rank, one alltoall, one alltoallv). pred is called once per
// element. partition_result's has_global says, as upstream's, whether the call had upstream's
// communicator (or the context) as its last argument; global_true_count is filled either way. Each
// returns its value and throws dtl::status_error on failure, the same on every rank (try_partition_elements:
// result<partition_result>). Host placements; a
// device placement gives not_supported.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/algorithms/detail/global_moves.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtl {

/// What partition_elements did (upstream DTL's type).
struct partition_result {
  size_type local_true_count = 0;   // elements for which pred holds on this rank, afterwards
  size_type global_true_count = 0;  // over every rank
  bool has_global = false;          // called with a communicator (upstream's meaning)
};

namespace detail {

/// Stable global partition of the vector by pred: the number of elements for which it holds.
template <class T, class P, class Pred>
result<std::size_t> partition_globally(distributed_vector<T, P>& vec, Pred& pred, const char* name) {
  const context& ctx = vec.get_context();
  T* data = vec.local_data();
  const std::size_t n = vec.local_size();
  // Each element's rank among this block's true or false ones (true: positive ranks from 1).
  std::vector<std::int64_t> order;
  std::uint64_t counts[2] = {0, 0};  // true, false
  const status room = catch_allocation_failure(name, [&]() -> status {
    order.resize(n);
    return {};
  });
  if (room.ok())
    before_communicating(ctx, true, name, [&] {
      for (std::size_t i = 0; i < n; ++i)
        order[i] = pred(data[i]) ? static_cast<std::int64_t>(++counts[0]) : -static_cast<std::int64_t>(++counts[1]);
    });
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(ctx.size()));
  DTL_TRY(allgather_host(ctx, counts, all.data(), sizeof(counts), room));
  std::uint64_t true_total = 0, true_before = 0, false_before = 0;
  for (int r = 0; r < ctx.size(); ++r) {
    const std::size_t q = static_cast<std::size_t>(r);
    true_total += all[2 * q];
    if (r < ctx.rank()) {
      true_before += all[2 * q];
      false_before += all[2 * q + 1];
    }
  }
  DTL_TRY(move_to_positions(
      ctx, vec.partition(), data, n,
      [&](std::size_t i) {
        const std::int64_t o = order[i];
        return static_cast<std::size_t>(o > 0 ? true_before + static_cast<std::uint64_t>(o) - 1
                                              : true_total + false_before + static_cast<std::uint64_t>(-o) - 1);
      },
      name));
  return static_cast<std::size_t>(true_total);
}

template <class Self>
struct partition_device_bodies {
  template <class Pol, class... A>
  static auto device(const Pol&, A&&...) {
    return host_only_outcome<Pol, typename Self::value_type>(Self::name);
  }
};

template <bool Stable>
struct partition_elements_impl : partition_device_bodies<partition_elements_impl<Stable>> {
  using value_type = partition_result;
  static constexpr const char* name = Stable ? "stable_partition_elements" : "partition_elements";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred>
  static result<partition_result> host(const Pol&, distributed_vector<T, P>& vec, Pred pred) {
    DTL_ASSIGN_OR_RETURN(const std::size_t trues, partition_globally(vec, pred, name));
    const std::size_t b = vec.global_offset(), e = b + vec.local_size();
    const std::size_t here = trues <= b ? 0 : std::min(trues, e) - b;
    return partition_result{here, trues, false};
  }
};

/// partition and stable_partition: the global index of the first element for which pred does not hold.
template <bool Stable>
struct partition_point_impl : partition_device_bodies<partition_point_impl<Stable>> {
  using value_type = index_t;
  static constexpr const char* name = Stable ? "stable_partition" : "partition";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred>
  static result<index_t> host(const Pol&, distributed_vector<T, P>& vec, Pred pred) {
    DTL_ASSIGN_OR_RETURN(const std::size_t trues, partition_globally(vec, pred, name));
    return static_cast<index_t>(trues);
  }
};

/// What is_partitioned needs of each rank.
struct partition_shape {
  int partitioned;  // its block is (std::is_partitioned)
  int present;      // it has elements
  int first_true;   // pred holds for its first element
  int last_true;    // and for its last
};

struct is_partitioned_impl : partition_device_bodies<is_partitioned_impl> {
  using value_type = bool;
  static constexpr const char* name = "is_partitioned";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred>
  static result<bool> host(const Pol&, const distributed_vector<T, P>& vec, Pred pred) {
    const context& ctx = vec.get_context();
    const T* data = vec.local_data();
    const std::size_t n = vec.local_size();
    const partition_shape mine = before_communicating(ctx, true, name, [&] {
      if (n == 0) return partition_shape{1, 0, 0, 0};
      return partition_shape{std::is_partitioned(data, data + n, pred) ? 1 : 0, 1, pred(data[0]) ? 1 : 0,
                             pred(data[n - 1]) ? 1 : 0};
    });
    std::vector<partition_shape> all(static_cast<std::size_t>(ctx.size()));
    DTL_TRY(allgather_host(ctx, &mine, all.data(), sizeof(mine)));
    bool false_seen = false;
    for (const partition_shape& s : all) {
      if (s.present == 0) continue;
      if (s.partitioned == 0 || (false_seen && s.first_true != 0)) return false;
      if (s.last_true == 0) false_seen = true;
    }
    return true;
  }
};

struct partition_count_impl : partition_device_bodies<partition_count_impl> {
  using value_type = size_type;
  static constexpr const char* name = "partition_count";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred>
  static result<size_type> host(const Pol&, const distributed_vector<T, P>& vec, Pred pred) {
    const context& ctx = vec.get_context();
    const T* data = vec.local_data();
    const std::uint64_t here = before_communicating(ctx, true, name, [&] {
      return static_cast<std::uint64_t>(std::count_if(data, data + vec.local_size(), pred));
    });
    DTL_ASSIGN_OR_RETURN(const std::uint64_t all, ctx.allreduce_value(here, reduce_op::sum));
    return static_cast<size_type>(all);
  }
};

/// partition_elements, and upstream's form with its communicator (or the context) last: has_global set.
template <bool Stable>
struct partition_elements_fn : value_algorithm<partition_elements_impl<Stable>> {
  using base = value_algorithm<partition_elements_impl<Stable>>;
  using base::operator();
  template <blocking_policy Pol, class C, class Pred, rank_group G>
  partition_result operator()(Pol&& policy, C&& c, Pred pred, G&& group) const {
    return run_on_group(partition_elements_impl<Stable>::name, c, group, [&] {
      partition_result r = base::operator()(policy, c, pred);
      r.has_global = true;
      return r;
    });
  }
  template <class C, class Pred, rank_group G>
  requires(!ExecutionPolicy<C>) partition_result operator()(C&& c, Pred pred, G&& group) const {
    return (*this)(seq{}, c, pred, group);
  }
};

}  // namespace detail

inline constexpr detail::partition_elements_fn<false> partition_elements{};
inline constexpr detail::partition_elements_fn<true> stable_partition_elements{};
inline constexpr detail::try_value_algorithm<detail::partition_elements_impl<false>> try_partition_elements{};
inline constexpr detail::value_algorithm<detail::partition_point_impl<false>> partition{};
inline constexpr detail::value_algorithm<detail::partition_point_impl<true>> stable_partition{};
inline constexpr detail::value_algorithm<detail::is_partitioned_impl> is_partitioned{};
inline constexpr detail::value_algorithm<detail::partition_count_impl> partition_count{};

}  // namespace dtl
