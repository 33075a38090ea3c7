// SPDX-License-Identifier: MIT
#pragma once
// nth_element and median over every rank, and upstream DTL's local_nth_element of one rank's block.
//
//   dtl::nth_element_result<int> r = dtl::nth_element(vec, 10);   // r.value: the 11th smallest
//   if (r) use(r.value, r.owner_rank);                             // r.valid: n was within [0, size())
//   auto m = dtl::median(vec);                                     // nth_element at size() / 2
//   dtl::local_nth_element(vec, 3);                                // this rank's block alone
//
// nth_element is collective: afterwards the element at global index n is the one a sort would put there,
// those before it are not greater (by comp) and those after it not smaller, across the ranks; each rank
// keeps its block's size. It is built on the distributed sort (which gives that order and more: the
// vector ends sorted). The result is the same on every rank: the value, n, the rank that holds it, and
// valid; an n outside [0, size()) gives valid == false and leaves the vector as it is, and ranks that pass
// different n fail alike (invalid_argument). It returns the
// result itself and throws dtl::status_error on a failure of the ranks (try_nth_element: result<...>).
// Host placements; a device placement gives not_supported.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/group_forms.hpp>
#include <dtl/containers/algorithms/detail/host_only.hpp>
#include <dtl/containers/algorithms/detail/host_sort.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace dtl {

/// What nth_element found (upstream DTL's type).
template <class T>
struct nth_element_result {
  T value{};
  index_t global_index = 0;
  rank_t owner_rank = no_rank;
  bool valid = false;
  explicit operator bool() const noexcept { return valid; }
};

namespace detail {

struct nth_element_impl {
  static constexpr const char* name = "nth_element";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Comp = std::less<>>
  static result<nth_element_result<T>> host(const Pol&, distributed_vector<T, P>& vec, index_t n, Comp comp = {}) {
    const context& ctx = vec.get_context();
    // The ranks must agree on n before any of them may leave without sorting (n out of range).
    if (ctx.size() > 1) DTL_TRY(agree(ctx, {}, call_signature{name, {static_cast<std::int64_t>(n)}, {"index"}}));
    if (n < 0 || static_cast<size_type>(n) >= vec.global_size()) return nth_element_result<T>{};
    DTL_TRY(host_sample_sort<false, is_parallel_v<Pol>>(ctx, vec.local_data(), vec.local_size(), key_itself{}, comp));
    const std::size_t at = static_cast<std::size_t>(n);
    DTL_ASSIGN_OR_RETURN(const int owner, vec.partition().owner(at));
    T value = owner == ctx.rank() ? vec.local_data()[at - vec.global_offset()] : T{};
    DTL_TRY(ctx.broadcast(&value, 1, owner));
    return nth_element_result<T>{value, n, owner, true};
  }
  template <class Pol, class T, class P, class Comp = std::less<>>
  static auto device(const Pol&, distributed_vector<T, P>&, index_t, Comp = {}) {
    return host_only_outcome<Pol, nth_element_result<T>>(name);
  }
};

}  // namespace detail

inline constexpr detail::with_group_forms<detail::value_algorithm<detail::nth_element_impl>, detail::nth_element_impl>
    nth_element{};
inline constexpr detail::try_value_algorithm<detail::nth_element_impl> try_nth_element{};

/// nth_element at size() / 2 (for an even size the upper of the two middle elements).
template <ExecutionPolicy Pol, class T, class P>
auto median(Pol&& policy, distributed_vector<T, P>& vec) {
  return nth_element(policy, vec, static_cast<index_t>(vec.global_size() / 2));
}
template <class T, class P>
auto median(distributed_vector<T, P>& vec) {
  return median(seq{}, vec);
}

/// This rank's block partitioned around its local index n (std::nth_element); an n outside the block
/// leaves it as it is. No communication.
template <class T, class P, class Comp = std::less<>>
requires(P::host_accessible) void local_nth_element(distributed_vector<T, P>& vec, index_t n, Comp comp = {}) {
  T* data = vec.local_data();
  const std::size_t size = vec.local_size();
  if (n >= 0 && static_cast<std::size_t>(n) < size) std::nth_element(data, data + n, data + size, comp);
}

}  // namespace dtl
