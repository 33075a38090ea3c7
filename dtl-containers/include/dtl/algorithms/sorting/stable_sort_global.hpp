#pragma once
// Upstream DTL's name and include path for the global stable sort: stable_sort_global(vec[, comp]) and
// stable_sort_global(dtl::seq{} or dtl::par{}, vec[, comp]) are dtl::stable_sort, which is global and
// stable (<dtl/containers/algorithms/sort.hpp>), and return its result<void>. Upstream's overload that
// takes a communicator is not here (docs/upstream.md, "Forwarding headers").

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/sort.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace dtl {

namespace detail {
template <class P>
concept blocking_policy = std::is_same_v<std::remove_cvref_t<P>, seq> || std::is_same_v<std::remove_cvref_t<P>, par>;
}  // namespace detail

template <class Container, class Compare = std::less<>>
  requires(!detail::is_policy_v<std::remove_cvref_t<Container>>)
result<void> stable_sort_global(Container& container, Compare comp = Compare{}) {
  return dtl::stable_sort(container, std::move(comp));
}

template <detail::blocking_policy Policy, class Container, class Compare = std::less<>>
result<void> stable_sort_global(Policy&& policy, Container& container, Compare comp = Compare{}) {
  return dtl::stable_sort(std::forward<Policy>(policy), container, std::move(comp));
}

}  // namespace dtl
