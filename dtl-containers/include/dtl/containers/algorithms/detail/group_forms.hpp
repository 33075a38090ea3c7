// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's communicator forms of the algorithms that take one or two more arguments after the
// container and return what the algorithm returns (rotate, unique, nth_element, adjacent_difference):
// the same call with upstream's communicator, or the context itself, as the last argument. It must be the
// container's (communicator_forms.hpp: run_on_group; else communication_error). Not for users.
//
//   dtl::rotate(dtl::seq{}, vec, 3, comm);
//   dtl::nth_element(dtl::seq{}, vec, 10, std::less<>{}, comm);

#include <dtl/containers/algorithms/detail/communicator_forms.hpp>

#include <utility>

namespace dtl::detail {

template <class Algorithm, class Impl>
struct with_group_forms : Algorithm {
  using Algorithm::operator();

  template <blocking_policy P, class C, class A, rank_group G>
  auto operator()(P&& policy, C&& c, A&& a, G&& group) const {
    return run_on_group(Impl::name, c, group, [&] { return Algorithm::operator()(policy, c, std::forward<A>(a)); });
  }
  template <blocking_policy P, class C, class A, class B, rank_group G>
  requires(!rank_group<B>) auto operator()(P&& policy, C&& c, A&& a, B&& b, G&& group) const {
    return run_on_group(Impl::name, c, group,
                        [&] { return Algorithm::operator()(policy, c, std::forward<A>(a), std::forward<B>(b)); });
  }
  template <class C, class A, rank_group G>
  requires(!ExecutionPolicy<C>) auto operator()(C&& c, A&& a, G&& group) const {
    return (*this)(seq{}, c, std::forward<A>(a), group);
  }
  template <class C, class A, class B, rank_group G>
  requires(!ExecutionPolicy<C> && !rank_group<B>) auto operator()(C&& c, A&& a, B&& b, G&& group) const {
    return (*this)(seq{}, c, std::forward<A>(a), std::forward<B>(b), group);
  }
};

}  // namespace dtl::detail
