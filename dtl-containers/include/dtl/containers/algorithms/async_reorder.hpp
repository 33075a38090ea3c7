// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's async forms of the reordering algorithms, each returning a dtl::distributed_future as
// those of async.hpp do (their rules: our algorithm under dtl::async in HIP builds, dtl::seq otherwise;
// failures, a throwing user function's too, fail the future; the collective ones are collective).
//
//   auto done = dtl::async_unique(vec);                     // distributed_future<unique_result>
//   auto nth = dtl::async_nth_element(vec, 10);             // distributed_future<nth_element_result<T>>
//   auto sum = dtl::async_accumulate(vec, 0, std::plus<>{});

#include <dtl/containers/algorithms/accumulate.hpp>
#include <dtl/containers/algorithms/adjacent_difference.hpp>
#include <dtl/containers/algorithms/async.hpp>
#include <dtl/containers/algorithms/iota.hpp>
#include <dtl/containers/algorithms/nth_element.hpp>
#include <dtl/containers/algorithms/partial_sort.hpp>
#include <dtl/containers/algorithms/partition.hpp>
#include <dtl/containers/algorithms/replace.hpp>
#include <dtl/containers/algorithms/rotate.hpp>
#include <dtl/containers/algorithms/unique.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <functional>
#include <utility>

namespace dtl {

/// local_rotate of this rank's block.
template <class T, class P>
[[nodiscard]] auto async_local_rotate(distributed_vector<T, P>& vec, long long n_positions) {
  return detail::async_form("async_local_rotate", [&] { return local_rotate(vec, n_positions); });
}

template <class T, class P, class Pred = std::equal_to<>>
[[nodiscard]] auto async_unique(distributed_vector<T, P>& vec, Pred pred = {}) {
  return detail::async_form("async_unique", [&] { return unique(detail::async_form_policy{}, vec, std::move(pred)); });
}

template <class T, class P, class Comp = std::less<>>
[[nodiscard]] auto async_nth_element(distributed_vector<T, P>& vec, index_t n, Comp comp = {}) {
  return detail::async_form("async_nth_element",
                            [&] { return try_nth_element(detail::async_form_policy{}, vec, n, std::move(comp)); });
}

template <class T, class P, class Comp = std::less<>>
[[nodiscard]] auto async_partial_sort(distributed_vector<T, P>& vec, size_type k, Comp comp = {}) {
  return detail::async_form("async_partial_sort",
                            [&] { return partial_sort(detail::async_form_policy{}, vec, k, std::move(comp)); });
}

template <class T, class P, class Old, class New>
[[nodiscard]] auto async_replace(distributed_vector<T, P>& vec, const Old& old_value, const New& new_value) {
  return detail::async_form("async_replace",
                            [&] { return replace(detail::async_form_policy{}, vec, old_value, new_value); });
}

template <class T, class P, class Pred, class New>
[[nodiscard]] auto async_replace_if(distributed_vector<T, P>& vec, Pred pred, const New& new_value) {
  return detail::async_form("async_replace_if",
                            [&] { return replace_if(detail::async_form_policy{}, vec, std::move(pred), new_value); });
}

template <class T, class P, class Init, class Op = std::plus<>>
[[nodiscard]] auto async_accumulate(const distributed_vector<T, P>& vec, Init init, Op op = {}) {
  return detail::async_form("async_accumulate", [&] {
    return try_accumulate(detail::async_form_policy{}, vec, std::move(init), std::move(op));
  });
}

template <class T, class P, class U, class Q>
[[nodiscard]] auto async_adjacent_difference(const distributed_vector<T, P>& in, distributed_vector<U, Q>& out) {
  return detail::async_form("async_adjacent_difference",
                            [&] { return adjacent_difference(detail::async_form_policy{}, in, out); });
}

template <class T, class P, class S>
[[nodiscard]] auto async_distributed_iota(distributed_vector<T, P>& vec, const S& start) {
  return detail::async_form("async_distributed_iota",
                            [&] { return distributed_iota(detail::async_form_policy{}, vec, start); });
}

template <class T, class P, class Pred>
[[nodiscard]] auto async_partition_elements(distributed_vector<T, P>& vec, Pred pred) {
  return detail::async_form("async_partition_elements",
                            [&] { return try_partition_elements(detail::async_form_policy{}, vec, std::move(pred)); });
}

}  // namespace dtl
