// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's name and include path for the global stable sort: stable_sort_global(vec[, comp]) and
// stable_sort_global(dtl::seq{} or dtl::par{}, vec[, comp]) are dtl::stable_sort, which is global and
// stable (<dtl/containers/algorithms/sort.hpp>), and return its result<void>.
// stable_sort_global(policy, vec, comp, comm), upstream's form with its communicator, is the same sort
// and returns stable_sort_global_result (what this rank sent and received); it throws
// dtl::communication_error where it fails, or when comm is not the communicator of vec's context.
// is_globally_sorted(vec, comp, comm) is dtl::is_sorted (rank boundaries included), with that check.

#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/sort.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace dtl {

/// Upstream's name of the result of its communicator form (its distributed_sort_result).
using stable_sort_global_result = distributed_sort_result;

template <class Container, class Compare = std::less<>>
requires(!detail::is_policy_v<std::remove_cvref_t<Container>>) result<void> stable_sort_global(
    Container& container, Compare comp = Compare{}) {
  return dtl::stable_sort(container, std::move(comp));
}

template <detail::blocking_policy Policy, class Container, class Compare = std::less<>>
result<void> stable_sort_global(Policy&& policy, Container& container, Compare comp = Compare{}) {
  return dtl::stable_sort(std::forward<Policy>(policy), container, std::move(comp));
}

template <detail::blocking_policy Policy, class Container, class Compare, detail::rank_group Comm>
stable_sort_global_result stable_sort_global(Policy&& policy, Container& container, Compare comp, Comm& comm) {
  return dtl::stable_sort(policy, container, std::move(comp), comm);
}

template <class Container, class Compare, detail::rank_group Comm>
bool is_globally_sorted(const Container& container, Compare comp, Comm& comm) {
  return detail::run_on_group("is_globally_sorted", container, comm,
                              [&] { return dtl::is_sorted(container, std::move(comp)); });
}

}  // namespace dtl
