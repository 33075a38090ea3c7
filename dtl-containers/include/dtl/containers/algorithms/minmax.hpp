// SPDX-License-Identifier: MIT
#pragma once
// Extremes: min_element, max_element (upstream DTL's minmax_result) and minmax_element (its
// minmax_pair_result); upstream's local_ forms of one rank's block are at the end of this file.
//
//   dtl::minmax_result<double> m = dtl::min_element(vec);              // value, global_index, owner_rank
//   auto far = dtl::max_element(dtl::par{}, vec, [](const P& a, const P& b) { return a.r < b.r; });
//   dtl::minmax_pair_result<int> both = dtl::minmax_element(vec);      // .min and .max, one pass
//   dtl::result<dtl::minmax_result<double>> r = dtl::try_min_element(vec);
//   if (dtl::min_element(vec) == 1.0) ...                             // valid and holding 1.0
//
// Each is collective: every rank gets the same answer. comp is a strict weak order (std::less<> by
// default); among equivalent elements the one with the lowest global index wins (for max_element and
// minmax_element's max too). An empty vector gives valid == false. Host placements fold the block on
// one thread (seq) or on host threads (par); device placements in one pass on the GPU over the elements
// with their indices (CUB / rocPRIM), then read back one small struct; the ranks then allgather one
// candidate each and fold them (on the GPU for device placements: comp may be a device function).
// Blocking under every policy (async gives a ready future).

#include <dtl/containers/algorithms/search.hpp>
#include <dtl/containers/communication/reduction_ops.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <algorithm>

namespace dtl {

/// An extreme element and where it is (upstream DTL's minmax_result).
template <class T>
struct minmax_result {
  /// The element (valid when valid).
  T value{};
  /// Its global index (upstream's index_t).
  std::ptrdiff_t global_index = 0;
  /// The rank that holds it (-1, upstream's no_rank, when not valid).
  int owner_rank = -1;
  /// Whether the vector had elements.
  bool valid = false;
  explicit operator bool() const noexcept { return valid; }
  /// Equal to a value when it holds that value: upstream's <dtl/algorithms/reductions/reduce.hpp> declares
  /// min_element and max_element returning the bare value, and its programs compare that with one.
  friend bool operator==(const minmax_result& r, const T& v) requires std::equality_comparable<T> {
    return r.valid && r.value == v;
  }
};

/// The smallest and the largest element (upstream DTL's minmax_pair_result).
template <class T>
struct minmax_pair_result {
  minmax_result<T> min;
  minmax_result<T> max;
  explicit operator bool() const noexcept { return min.valid && max.valid; }
};

namespace detail {

template <class T, class P>
minmax_result<T> to_minmax_result(const distributed_vector<T, P>& vec, const indexed<T>& c) {
  if (!c.present()) return {};
  const result<int> owner = vec.owner(c.index);
  return minmax_result<T>{c.value, static_cast<std::ptrdiff_t>(c.index), owner ? *owner : -1, true};
}

/// One extreme: Fold<Comp> picks it (least_of: min_element, greatest_of: max_element).
template <template <class> class Fold>
struct extreme_bodies {
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto host(const Pol&, const distributed_vector<T, P>& vec, Comp comp = {}) {
    using portable = portable_compare_t<Comp>;
    auto c = locate_on_host<Pol>(vec, no_match<T>(), Fold<portable>{to_portable(comp)},
                                 element_at<T>{vec.local_data(), vec.global_offset()});
    return map_outcome(std::move(c), [&](const indexed<T>& m) { return to_minmax_result(vec, m); });
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, Comp comp = {}) {
    using portable = portable_compare_t<Comp>;
    auto c = locate_on_device(p, vec, no_match<T>(), Fold<portable>{to_portable(comp)},
                              element_at<T>{vec.local_data(), vec.global_offset()}, "min_element / max_element");
    return to_outcome<Pol>(map_outcome(std::move(c), [&](const indexed<T>& m) { return to_minmax_result(vec, m); }));
  }
};

struct min_element_impl : extreme_bodies<least_of> {
  static constexpr const char* name = "min_element";
};
struct max_element_impl : extreme_bodies<greatest_of> {
  static constexpr const char* name = "max_element";
};

/// Both extremes in one pass.
struct minmax_element_impl {
  static constexpr const char* name = "minmax_element";
  static constexpr bool communicates = true;
  template <class T>
  static indexed_pair<T> none() {
    return {no_match<T>(), no_match<T>()};
  }
  template <class T, class P>
  static minmax_pair_result<T> answer(const distributed_vector<T, P>& vec, const indexed_pair<T>& c) {
    return {to_minmax_result(vec, c.low), to_minmax_result(vec, c.high)};
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto host(const Pol&, const distributed_vector<T, P>& vec, Comp comp = {}) {
    using portable = portable_compare_t<Comp>;
    auto c = locate_on_host<Pol>(vec, none<T>(), extremes_of<portable>{to_portable(comp)},
                                 element_pair_at<T>{vec.local_data(), vec.global_offset()});
    return map_outcome(std::move(c), [&](const indexed_pair<T>& m) { return answer(vec, m); });
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, Comp comp = {}) {
    using portable = portable_compare_t<Comp>;
    auto c = locate_on_device(p, vec, none<T>(), extremes_of<portable>{to_portable(comp)},
                              element_pair_at<T>{vec.local_data(), vec.global_offset()}, name);
    return to_outcome<Pol>(map_outcome(std::move(c), [&](const indexed_pair<T>& m) { return answer(vec, m); }));
  }
};

}  // namespace detail

inline constexpr detail::value_algorithm<detail::min_element_impl> min_element{};
inline constexpr detail::try_value_algorithm<detail::min_element_impl> try_min_element{};
inline constexpr detail::value_algorithm<detail::max_element_impl> max_element{};
inline constexpr detail::try_value_algorithm<detail::max_element_impl> try_max_element{};
inline constexpr detail::value_algorithm<detail::minmax_element_impl> minmax_element{};
inline constexpr detail::try_value_algorithm<detail::minmax_element_impl> try_minmax_element{};

// Upstream DTL's extremes of this rank's block alone (no communication; host placements). local_min_element
// and local_max_element give the first extreme element with its global index and this rank (not valid
// for an empty block); local_min and local_max give the value (the operator's identity for an empty block).
template <class T, class P, class Compare = std::less<>>
requires(P::host_accessible) minmax_result<T> local_min_element(const distributed_vector<T, P>& vec,
                                                                Compare comp = {}) {
  const T* first = vec.local_data();
  if (vec.local_size() == 0) return {};
  const T* best = std::min_element(first, first + vec.local_size(), comp);
  return {*best, static_cast<std::ptrdiff_t>(vec.global_offset() + static_cast<size_type>(best - first)), vec.rank(),
          true};
}
template <class T, class P, class Compare = std::less<>>
requires(P::host_accessible) minmax_result<T> local_max_element(const distributed_vector<T, P>& vec,
                                                                Compare comp = {}) {
  const T* first = vec.local_data();
  if (vec.local_size() == 0) return {};
  const T* best = std::max_element(first, first + vec.local_size(), comp);
  return {*best, static_cast<std::ptrdiff_t>(vec.global_offset() + static_cast<size_type>(best - first)), vec.rank(),
          true};
}
template <class T, class P>
requires(P::host_accessible) T local_min(const distributed_vector<T, P>& vec) {
  const T* first = vec.local_data();
  return vec.local_size() == 0 ? reduce_min<T>::identity() : *std::min_element(first, first + vec.local_size());
}
template <class T, class P>
requires(P::host_accessible) T local_max(const distributed_vector<T, P>& vec) {
  const T* first = vec.local_data();
  return vec.local_size() == 0 ? reduce_max<T>::identity() : *std::max_element(first, first + vec.local_size());
}

}  // namespace dtl
