// SPDX-License-Identifier: MIT
#pragma once
// Consecutive duplicates over every rank: unique, unique_copy, count_duplicates, has_duplicates; and upstream DTL's
// local_unique of one rank's block.
//
//   dtl::sort(vec);
//   dtl::result<dtl::unique_result> r = dtl::unique(vec);   // r->new_size, r->removed_count
//   std::size_t d = dtl::count_duplicates(vec);            // elements equal to the one before them
//   bool any = dtl::has_duplicates(vec, pred);
//   dtl::unique_copy(in, out);                               // out resized to in's unique elements
//   std::size_t removed = dtl::local_unique(vec);           // this rank's block alone: its kept prefix
//
// unique is collective and changes the vector's size: an element is dropped when pred(previous, element)
// holds for the element before it in global order (across rank boundaries; pred should be an
// equivalence, as equality is), and the elements kept end up, in order, in the even block layout of the
// new size (as resize gives). Pointers and views taken before are invalidated, as by resize. It returns
// result<unique_result>, the same on every rank (on failure the vector is unchanged). count_duplicates
// returns size_type and has_duplicates bool, throwing dtl::status_error on failure (try_count_duplicates:
// result<size_type>); all three also take upstream's communicator (or the context) last. Host
// placements; a device placement gives not_supported. local_unique moves the block's kept elements to
// its front (std::unique) and returns how many it dropped; the block keeps its size.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/global_moves.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/containers/detail/redistribute.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace dtl {

/// What unique did (upstream DTL's type): the new global size and how many elements it dropped.
struct unique_result {
  size_type new_size = 0;
  size_type removed_count = 0;
  bool success = true;
};

namespace detail {

/// keep(i) for this rank's elements: whether element i differs (by pred) from the one before it in global
/// order (`before`: the last element of the earlier ranks, if any).
template <class T, class Pred, class Keep>
void for_each_kept(const T* data, std::size_t n, const maybe<T>& before, Pred& pred, Keep keep) {
  for (std::size_t i = 0; i < n; ++i) {
    const bool first = i == 0 ? before.present == 0 : false;
    if (first || !pred(i == 0 ? before.value : data[i - 1], data[i])) keep(i);
  }
}

/// The elements of data[0, n) (this rank's block of a vector of old_size elements) that differ from the
/// one before them, in order, into `target`, resized to their number (the even layout resize gives; what
/// resize moves is then overwritten). data is read before target is resized: target may be its vector.
template <class T, class Pred, class Q>
result<unique_result> unique_into(const context& ctx, const T* data, std::size_t n, std::size_t old_size, Pred& pred,
                                  distributed_vector<T, Q>& target, const char* name) {
  DTL_ASSIGN_OR_RETURN(const maybe<T> before, last_before(ctx, data, n));
  std::vector<T> kept;
  const status gathered = catch_allocation_failure(name, [&]() -> status {
    kept.reserve(n);
    return {};
  });
  if (gathered.ok())
    before_communicating(ctx, true, name, [&] {
      for_each_kept(data, n, before, pred, [&](std::size_t i) { kept.push_back(data[i]); });
    });
  std::vector<std::size_t> counts(static_cast<std::size_t>(ctx.size()), 0);
  const std::size_t mine = kept.size();
  DTL_TRY(allgather_host(ctx, &mine, counts.data(), sizeof(mine), gathered));
  const std::vector<std::size_t> from = layout_offsets(counts);
  const std::size_t new_size = from.back();
  DTL_TRY(target.resize(new_size));
  const std::vector<std::size_t> to = partition_offsets(target.partition());
  const layout_moves moves = moves_between(from, to, static_cast<std::size_t>(ctx.rank()));
  DTL_TRY(ctx.alltoallv(kept.data(), moves.send_counts, moves.send_displs, target.local_data(), moves.recv_counts,
                        moves.recv_displs));
  return unique_result{new_size, old_size - new_size, true};
}

struct unique_impl {
  static constexpr const char* name = "unique";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred = std::equal_to<>>
  static result<unique_result> host(const Pol&, distributed_vector<T, P>& vec, Pred pred = {}) {
    return unique_into(vec.get_context(), vec.local_data(), vec.local_size(), vec.global_size(), pred, vec, name);
  }
  template <class Pol, class T, class P, class Pred = std::equal_to<>>
  static auto device(const Pol&, distributed_vector<T, P>&, Pred = {}) {
    return host_only_outcome<Pol, unique_result>(name);
  }
};

/// How many elements equal (by pred) the element before them in global order.
struct count_duplicates_impl {
  static constexpr const char* name = "count_duplicates";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred = std::equal_to<>>
  static result<size_type> host(const Pol&, const distributed_vector<T, P>& vec, Pred pred = {}) {
    const context& ctx = vec.get_context();
    const T* data = vec.local_data();
    const std::size_t n = vec.local_size();
    DTL_ASSIGN_OR_RETURN(const maybe<T> before, last_before(ctx, data, n));
    std::uint64_t kept = 0;
    before_communicating(ctx, true, name, [&] { for_each_kept(data, n, before, pred, [&](std::size_t) { ++kept; }); });
    DTL_ASSIGN_OR_RETURN(const std::uint64_t all_kept, ctx.allreduce_value(kept, reduce_op::sum));
    return static_cast<size_type>(vec.global_size() - all_kept);
  }
  template <class Pol, class T, class P, class Pred = std::equal_to<>>
  static auto device(const Pol&, const distributed_vector<T, P>&, Pred = {}) {
    return host_only_outcome<Pol, size_type>(name);
  }
};

struct has_duplicates_impl : count_duplicates_impl {
  static constexpr const char* name = "has_duplicates";
  template <class Outcome>
  static auto finish(Outcome outcome) {
    return map_outcome(std::move(outcome), [](size_type d) { return d != 0; });
  }
};

}  // namespace detail

inline constexpr detail::with_group_forms<detail::status_algorithm<detail::unique_impl>, detail::unique_impl> unique{};
inline constexpr detail::with_group_forms<detail::value_algorithm<detail::count_duplicates_impl>,
                                          detail::count_duplicates_impl>
    count_duplicates{};
inline constexpr detail::try_value_algorithm<detail::count_duplicates_impl> try_count_duplicates{};
inline constexpr detail::with_group_forms<detail::value_algorithm<detail::has_duplicates_impl>,
                                          detail::has_duplicates_impl>
    has_duplicates{};
inline constexpr detail::try_value_algorithm<detail::has_duplicates_impl> try_has_duplicates{};

/// unique into another vector of the context: out is resized to the kept elements' number and holds
/// them (the even layout of that size); in is unchanged. Collective; host placements (else
/// not_supported), one element type; invalid_argument when out is in or of another context.
template <ExecutionPolicy Pol, class T, class P, class Q, class Pred = std::equal_to<>>
result<unique_result> unique_copy(Pol&&, const distributed_vector<T, P>& in, distributed_vector<T, Q>& out,
                                  Pred pred = {}) {
  constexpr const char* name = "unique_copy";
  DTL_TRY(in.get_context().check());
  if constexpr (P::device_accessible || Q::device_accessible) {
    return detail::host_only_outcome<seq, unique_result>(name);
  } else {
    if (!in.get_context().same_as(out.get_context()) || static_cast<const void*>(&in) == static_cast<const void*>(&out))
      return status(status_code::invalid_argument, "unique_copy: out must be another vector of in's context");
    return detail::unique_into(in.get_context(), in.local_data(), in.local_size(), in.global_size(), pred, out, name);
  }
}
template <class T, class P, class Q, class Pred = std::equal_to<>>
result<unique_result> unique_copy(const distributed_vector<T, P>& in, distributed_vector<T, Q>& out, Pred pred = {}) {
  return unique_copy(seq{}, in, out, pred);
}

/// This rank's block without consecutive duplicates (std::unique): the kept elements at its front, and
/// how many were dropped (the block keeps its size; what follows the kept ones is unspecified).
template <class T, class P, class Pred = std::equal_to<>>
requires(P::host_accessible) size_type local_unique(distributed_vector<T, P>& vec, Pred pred = {}) {
  T* data = vec.local_data();
  const std::size_t n = vec.local_size();
  return static_cast<size_type>((data + n) - std::unique(data, data + n, pred));
}

}  // namespace dtl
