// SPDX-License-Identifier: MIT
#pragma once
// vector_access: how the algorithms reach the distributed_vector inside a container built on one
// (distributed_array), so that every algorithm takes such a container where it takes a vector, without
// the container handing its vector (and so resize()) to users. Not for users.

#include <type_traits>
#include <utility>

namespace dtl::detail {

struct vector_access {
  /// The vector inside `c` (a const one for a const container). Such a container declares
  /// `friend struct detail::vector_access;` and holds its vector as `vector_`.
  template <class C>
  requires requires(C& c) { c.vector_; }
  static constexpr auto& of(C& c) noexcept { return c.vector_; }
};

template <class A>
concept wraps_vector = requires(A& a) {
  vector_access::of(a);
};

/// An algorithm's argument as the algorithm bodies take it: the vector inside a wrapping container, any
/// other argument as it was given.
template <class A>
constexpr decltype(auto) algorithm_argument(A&& a) noexcept {
  if constexpr (wraps_vector<std::remove_reference_t<A>>)
    return vector_access::of(a);
  else
    return std::forward<A>(a);
}

}  // namespace dtl::detail
