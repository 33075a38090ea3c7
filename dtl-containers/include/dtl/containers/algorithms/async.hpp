// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's async algorithm forms, each returning a dtl::distributed_future (dtl/futures/):
//
//   dtl::distributed_future<double> s = dtl::async_reduce(vec, 0.0, std::plus<>{});   // collective
//   auto done = dtl::async_for_each(vec, [](double& x) { x *= 2; });                   // distributed_future<void>
//   dtl::async_transform(in, out, op);  dtl::async_transform(vec, op);  dtl::async_transform_reduce(...)
//   dtl::distributed_future<dtl::size_type> n = dtl::async_count(vec, 42);             // and async_count_if
//   dtl::distributed_future<bool> ok = dtl::async_all_of(vec, pred);   // async_any_of, async_none_of
//   dtl::async_fill(vec, 0);  dtl::distributed_future<dtl::copy_result> c = dtl::async_copy(in, out);
//   dtl::async_sort(vec);  dtl::async_inclusive_scan(in, out, 0);  dtl::async_exclusive_scan(in, out, 0);
//   auto lo = dtl::async_min_element(vec);   // and async_max_element, async_minmax_element (collective)
//
// Each is our algorithm under dtl::async{} (HIP builds) or dtl::seq{} (host-only builds), its outcome
// made a distributed_future: host work is done before it returns (a ready future, as upstream's are);
// device work under async returns once enqueued and the future completes through the HIP progress
// engine (dtl::hip::to_distributed_future), which waiting on it drives. Failures fail the future (get()
// throws dtl::status_error); nothing throws from the call itself, not even the user's function (its
// exception fails the future, in host-only builds as in HIP builds). The reductions are collective, as
// dtl::reduce is: every rank calls them, and every rank's future gets the global value; a function that
// throws on one rank fails the other ranks' futures too (collective_failure, naming that rank and the
// exception's message) instead of leaving them waiting.

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/minmax.hpp>
#include <dtl/containers/algorithms/modify.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/scan.hpp>
#include <dtl/containers/algorithms/search.hpp>
#include <dtl/containers/algorithms/sort.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_boundary.hpp>
#include <dtl/futures/futures.hpp>

#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/distributed_future.hpp>
#endif

namespace dtl {

namespace detail {

/// The policy the async forms run under: async where it exists, else seq (host work, done at once).
#if DTL_CONTAINERS_HAS_HIP
using async_form_policy = async;
#else
using async_form_policy = seq;
#endif

/// An algorithm's outcome (result<R>, or a hip::future<R>) as a distributed_future<R>.
template <class R>
futures::distributed_future<R> as_distributed_future(result<R> r) {
  if (!r.has_value()) return futures::make_failed_distributed_future<R>(r.error());
  if constexpr (std::is_void_v<R>) {
    return futures::make_ready_distributed_future();
  } else {
    return futures::make_ready_distributed_future(std::move(r).value());
  }
}
#if DTL_CONTAINERS_HAS_HIP
template <class R>
futures::distributed_future<R> as_distributed_future(hip::future<R> f) {
  return hip::to_distributed_future(std::move(f));
}
#endif

/// call()'s outcome as a distributed_future. What the user's function throws fails the future, as it
/// does in HIP builds (where it runs in the future's work), instead of leaving the call.
template <class Call>
auto async_form(std::string_view what, Call&& call) -> decltype(as_distributed_future(call())) {
  using future_type = decltype(as_distributed_future(call()));
  try {
    return as_distributed_future(call());
  } catch (...) {
    return futures::make_failed_distributed_future<typename future_type::value_type>(current_exception_status(what));
  }
}

}  // namespace detail

/// init op (every element of every rank), on every rank, as a future. Collective.
template <class T, class P, class Init, class Op = std::plus<>>
[[nodiscard]] auto async_reduce(const distributed_vector<T, P>& vec, Init init, Op op = {}) {
  return detail::async_form(
      "async_reduce", [&] { return try_reduce(detail::async_form_policy{}, vec, std::move(init), std::move(op)); });
}

/// init reduce_op (transform_op(x) for every element of every rank), on every rank. Collective.
template <class T, class P, class Init, class ReduceOp, class TransformOp>
[[nodiscard]] auto async_transform_reduce(const distributed_vector<T, P>& vec, Init init, ReduceOp reduce_op,
                                          TransformOp transform_op) {
  return detail::async_form("async_transform_reduce", [&] {
    return try_transform_reduce(detail::async_form_policy{}, vec, std::move(init), std::move(reduce_op),
                                std::move(transform_op));
  });
}

/// How many elements of every rank equal value, on every rank. Collective.
template <class T, class P, class V>
[[nodiscard]] auto async_count(const distributed_vector<T, P>& vec, const V& value) {
  return detail::async_form("async_count", [&] { return try_count(detail::async_form_policy{}, vec, value); });
}

/// How many elements of every rank satisfy pred, on every rank. Collective.
template <class T, class P, class Pred>
[[nodiscard]] auto async_count_if(const distributed_vector<T, P>& vec, Pred pred) {
  return detail::async_form("async_count_if",
                            [&] { return try_count_if(detail::async_form_policy{}, vec, std::move(pred)); });
}

/// Whether pred holds for every element (any_of: for some; none_of: for none) over every rank, on every
/// rank. Collective.
template <class T, class P, class Pred>
[[nodiscard]] auto async_all_of(const distributed_vector<T, P>& vec, Pred pred) {
  return detail::async_form("async_all_of",
                            [&] { return try_all_of(detail::async_form_policy{}, vec, std::move(pred)); });
}
template <class T, class P, class Pred>
[[nodiscard]] auto async_any_of(const distributed_vector<T, P>& vec, Pred pred) {
  return detail::async_form("async_any_of",
                            [&] { return try_any_of(detail::async_form_policy{}, vec, std::move(pred)); });
}
template <class T, class P, class Pred>
[[nodiscard]] auto async_none_of(const distributed_vector<T, P>& vec, Pred pred) {
  return detail::async_form("async_none_of",
                            [&] { return try_none_of(detail::async_form_policy{}, vec, std::move(pred)); });
}

/// Every local element set to value.
template <class T, class P, class V>
[[nodiscard]] futures::distributed_future<void> async_fill(distributed_vector<T, P>& vec, const V& value) {
  return detail::async_form("async_fill", [&] { return fill(detail::async_form_policy{}, vec, value); });
}

/// out's block a copy of in's (dtl::copy's checks); the future gives the elements this rank copied.
template <class T, class P, class U, class Q>
[[nodiscard]] futures::distributed_future<copy_result> async_copy(const distributed_vector<T, P>& in,
                                                                  distributed_vector<U, Q>& out) {
  return detail::async_form("async_copy", [&] { return copy(detail::async_form_policy{}, in, out); });
}

/// f(x) for every local element; the future completes when all are done.
template <class T, class P, class F>
[[nodiscard]] futures::distributed_future<void> async_for_each(distributed_vector<T, P>& vec, F f) {
  return detail::async_form("async_for_each", [&] { return for_each(detail::async_form_policy{}, vec, std::move(f)); });
}

/// out[i] = op(in[i]) for every local element.
template <class T, class P, class U, class Q, class F>
[[nodiscard]] futures::distributed_future<void> async_transform(const distributed_vector<T, P>& in,
                                                                distributed_vector<U, Q>& out, F op) {
  return detail::async_form("async_transform",
                            [&] { return transform(detail::async_form_policy{}, in, out, std::move(op)); });
}

/// vec[i] = op(vec[i]) for every local element (in place).
template <class T, class P, class F>
[[nodiscard]] futures::distributed_future<void> async_transform(distributed_vector<T, P>& vec, F op) {
  return detail::async_form("async_transform",
                            [&] { return transform(detail::async_form_policy{}, vec, vec, std::move(op)); });
}

/// The vector sorted across the ranks (dtl::sort). Collective.
template <class T, class P, class Comp = std::less<>>
[[nodiscard]] futures::distributed_future<void> async_sort(distributed_vector<T, P>& vec, Comp comp = {}) {
  return detail::async_form("async_sort", [&] { return sort(detail::async_form_policy{}, vec, std::move(comp)); });
}

/// out[i] = init op in[0] op ... op in[i] over the global order (exclusive: up to in[i - 1]). Collective.
template <class T, class P, class Q, class Init, class Op = std::plus<>>
[[nodiscard]] futures::distributed_future<void> async_inclusive_scan(const distributed_vector<T, P>& in,
                                                                     distributed_vector<T, Q>& out, Init init,
                                                                     Op op = {}) {
  return detail::async_form("async_inclusive_scan", [&] {
    return inclusive_scan(detail::async_form_policy{}, in, out, std::move(init), std::move(op));
  });
}
template <class T, class P, class Q, class Init, class Op = std::plus<>>
[[nodiscard]] futures::distributed_future<void> async_exclusive_scan(const distributed_vector<T, P>& in,
                                                                     distributed_vector<T, Q>& out, Init init,
                                                                     Op op = {}) {
  return detail::async_form("async_exclusive_scan", [&] {
    return exclusive_scan(detail::async_form_policy{}, in, out, std::move(init), std::move(op));
  });
}

/// The least (greatest; both) element over every rank, on every rank (dtl::min_element's
/// minmax_result: value, global index, rank, valid). Collective.
template <class T, class P, class Comp = std::less<>>
[[nodiscard]] auto async_min_element(const distributed_vector<T, P>& vec, Comp comp = {}) {
  return detail::async_form("async_min_element",
                            [&] { return try_min_element(detail::async_form_policy{}, vec, std::move(comp)); });
}
template <class T, class P, class Comp = std::less<>>
[[nodiscard]] auto async_max_element(const distributed_vector<T, P>& vec, Comp comp = {}) {
  return detail::async_form("async_max_element",
                            [&] { return try_max_element(detail::async_form_policy{}, vec, std::move(comp)); });
}
template <class T, class P, class Comp = std::less<>>
[[nodiscard]] auto async_minmax_element(const distributed_vector<T, P>& vec, Comp comp = {}) {
  return detail::async_form("async_minmax_element",
                            [&] { return try_minmax_element(detail::async_form_policy{}, vec, std::move(comp)); });
}

}  // namespace dtl
