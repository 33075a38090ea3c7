// SPDX-License-Identifier: MIT
#pragma once
// Searches: find, find_if, find_if_not (upstream DTL's find_result), all_of, any_of, none_of, and
// upstream's local_ forms of each (this rank's block alone, at the end of this file).
//
//   dtl::find_result<int> r = dtl::find(vec, 42);                      // the first 42 in global order
//   if (r) use(r.global_index, r.owner_rank, *r.value);                // the same answer on every rank
//   auto big = dtl::find_if(dtl::par{}, vec, [](int x) { return x > 100; });
//   bool ok = dtl::all_of(vec, [] __device__ (float x) { return x >= 0; });
//   dtl::result<bool> t = dtl::try_any_of(vec, pred);                  // the same, without exceptions
//
// Each is collective: every rank gets the first match in global order (lowest global index). Host
// placements fold the block on the calling thread (seq: stops at the first match) or on host threads
// (par); device placements fold it in one pass on the GPU (the elements with their indices, CUB /
// rocPRIM), then read back one small struct. The ranks then allgather one candidate each. Blocking under
// every policy (async gives a ready future).

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/indexed_fold.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/device/search.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <cstddef>
#include <optional>
#include <algorithm>

namespace dtl {

/// Where a search found its element (upstream DTL's find_result): the first match in global order.
template <class T>
struct find_result {
  /// Whether any element matched.
  bool found = false;
  /// Its global index (valid when found; upstream's index_t).
  std::ptrdiff_t global_index = 0;
  /// The rank that holds it (valid when found; -1, upstream's no_rank, otherwise).
  int owner_rank = -1;
  /// The element (on every rank, when found).
  std::optional<T> value = std::nullopt;
  explicit operator bool() const noexcept { return found; }
};

namespace detail {

/// The fold of at(i) with op over the block, then over the ranks (host placements).
template <class Pol, class T, class P, class C, class Op, class At, class Stop = never_stop>
result<C> locate_on_host(const distributed_vector<T, P>& vec, const C& none, Op op, At at, Stop stop = {}) {
  const C mine = before_communicating(vec.get_context(), true, "search (this rank's elements)", [&] {
    return host_fold_indexed<is_parallel_v<Pol>>(vec.local_size(), none, op, at, stop);
  });
  return combine_candidates_on_host(vec.get_context(), mine, none, op);
}

/// The same on the device: one pass over the block on the GPU, the ranks' candidates folded there.
template <class Pol, class T, class P, class C, class Op, class At>
result<C> locate_on_device(const Pol& p, const distributed_vector<T, P>& vec, const C& none, Op op, At at,
                           const char* what) {
  return device::locate(p, vec.get_context(), vec.device_id(), vec.local_size(), none, op, at, what);
}

template <class T, class P>
find_result<T> to_find_result(const distributed_vector<T, P>& vec, const indexed<T>& c) {
  if (!c.present()) return {};
  const result<int> owner = vec.owner(c.index);
  return find_result<T>{true, static_cast<std::ptrdiff_t>(c.index), owner ? *owner : -1, c.value};
}

/// The first element for which pred holds (find, find_if, find_if_not).
template <class T>
indexed<T> no_match() {
  return {T{}, no_index};
}

template <class Pol, class T, class P, class Pred>
result<indexed<T>> first_match_on_host(const distributed_vector<T, P>& vec, Pred pred) {
  return locate_on_host<Pol>(vec, no_match<T>(), first_of{},
                             match_at<T, Pred>{vec.local_data(), vec.global_offset(), pred}, stop_at_match{});
}
template <class Pol, class T, class P, class Pred>
result<indexed<T>> first_match_on_device(const Pol& p, const distributed_vector<T, P>& vec, Pred pred,
                                         const char* what) {
  return locate_on_device(p, vec, no_match<T>(), first_of{},
                          match_at<T, Pred>{vec.local_data(), vec.global_offset(), pred}, what);
}

/// An Impl's bodies from its predicate (Impl::predicate(args...)) and its answer (Impl::answer(vec, c)).
template <class Impl>
struct search_bodies {
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Arg>
  static auto host(const Pol&, const distributed_vector<T, P>& vec, const Arg& arg) {
    auto c = first_match_on_host<Pol>(vec, Impl::template predicate<T>(arg));
    return map_outcome(std::move(c), [&](const indexed<T>& m) { return Impl::answer(vec, m); });
  }
  template <class Pol, class T, class P, class Arg>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, const Arg& arg) {
    auto c = first_match_on_device(p, vec, Impl::template predicate<T>(arg), Impl::name);
    return to_outcome<Pol>(map_outcome(std::move(c), [&](const indexed<T>& m) { return Impl::answer(vec, m); }));
  }
};

struct found_element {
  template <class T, class P>
  static find_result<T> answer(const distributed_vector<T, P>& vec, const indexed<T>& c) {
    return to_find_result(vec, c);
  }
};
struct found_any {
  template <class T, class P>
  static bool answer(const distributed_vector<T, P>&, const indexed<T>& c) {
    return c.present();
  }
};
struct found_none {
  template <class T, class P>
  static bool answer(const distributed_vector<T, P>&, const indexed<T>& c) {
    return !c.present();
  }
};
struct predicate_as_given {
  template <class T, class Pred>
  static Pred predicate(const Pred& pred) {
    return pred;
  }
};
struct predicate_negated {
  template <class T, class Pred>
  static negated<Pred> predicate(const Pred& pred) {
    return {pred};
  }
};

/// The first element equal to value.
struct find_impl : search_bodies<find_impl>, found_element {
  static constexpr const char* name = "find";
  template <class T, class V>
  static equal_to_value<T> predicate(const V& value) {
    return {static_cast<T>(value)};
  }
};
/// The first element for which pred holds.
struct find_if_impl : search_bodies<find_if_impl>, found_element, predicate_as_given {
  static constexpr const char* name = "find_if";
};
/// The first element for which pred does not hold.
struct find_if_not_impl : search_bodies<find_if_not_impl>, found_element, predicate_negated {
  static constexpr const char* name = "find_if_not";
};
/// Whether pred holds for every element (true for none).
struct all_of_impl : search_bodies<all_of_impl>, found_none, predicate_negated {
  static constexpr const char* name = "all_of";
};
/// Whether pred holds for some element.
struct any_of_impl : search_bodies<any_of_impl>, found_any, predicate_as_given {
  static constexpr const char* name = "any_of";
};
/// Whether pred holds for no element.
struct none_of_impl : search_bodies<none_of_impl>, found_none, predicate_as_given {
  static constexpr const char* name = "none_of";
};

}  // namespace detail

inline constexpr detail::value_algorithm<detail::find_impl> find{};
inline constexpr detail::try_value_algorithm<detail::find_impl> try_find{};
inline constexpr detail::value_algorithm<detail::find_if_impl> find_if{};
inline constexpr detail::try_value_algorithm<detail::find_if_impl> try_find_if{};
inline constexpr detail::value_algorithm<detail::find_if_not_impl> find_if_not{};
inline constexpr detail::try_value_algorithm<detail::find_if_not_impl> try_find_if_not{};
inline constexpr detail::value_algorithm<detail::all_of_impl> all_of{};
inline constexpr detail::try_value_algorithm<detail::all_of_impl> try_all_of{};
inline constexpr detail::value_algorithm<detail::any_of_impl> any_of{};
inline constexpr detail::try_value_algorithm<detail::any_of_impl> try_any_of{};
inline constexpr detail::value_algorithm<detail::none_of_impl> none_of{};
inline constexpr detail::try_value_algorithm<detail::none_of_impl> try_none_of{};

// Upstream DTL's searches of this rank's block alone (no communication; host placements): the position
// of the first match in the block (local_view().end() when none), and the predicates over the block.
template <class T, class P, class V>
requires(P::host_accessible) T* local_find(distributed_vector<T, P>& vec, const V& value) {
  return std::find(vec.local_data(), vec.local_data() + vec.local_size(), value);
}
template <class T, class P, class V>
requires(P::host_accessible) const T* local_find(const distributed_vector<T, P>& vec, const V& value) {
  return std::find(vec.local_data(), vec.local_data() + vec.local_size(), value);
}
template <class T, class P, class Pred>
requires(P::host_accessible) T* local_find_if(distributed_vector<T, P>& vec, Pred pred) {
  return std::find_if(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}
template <class T, class P, class Pred>
requires(P::host_accessible) const T* local_find_if(const distributed_vector<T, P>& vec, Pred pred) {
  return std::find_if(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}
template <class T, class P, class Pred>
requires(P::host_accessible) T* local_find_if_not(distributed_vector<T, P>& vec, Pred pred) {
  return std::find_if_not(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}
template <class T, class P, class Pred>
requires(P::host_accessible) const T* local_find_if_not(const distributed_vector<T, P>& vec, Pred pred) {
  return std::find_if_not(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}
template <class T, class P, class Pred>
requires(P::host_accessible) bool local_all_of(const distributed_vector<T, P>& vec, Pred pred) {
  return std::all_of(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}
template <class T, class P, class Pred>
requires(P::host_accessible) bool local_any_of(const distributed_vector<T, P>& vec, Pred pred) {
  return std::any_of(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}
template <class T, class P, class Pred>
requires(P::host_accessible) bool local_none_of(const distributed_vector<T, P>& vec, Pred pred) {
  return std::none_of(vec.local_data(), vec.local_data() + vec.local_size(), pred);
}

}  // namespace dtl
