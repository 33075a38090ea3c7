// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's algorithm namespaces, which name the scope of each call:
//   dtl::algorithms::local::         this rank's block alone, no communication (the local_ forms);
//   dtl::algorithms::collective::    over every rank, with upstream's communicator last (it must be the
//                                    vector's: detail/communicator_forms.hpp);
//   dtl::algorithms::distributed::   reduce that keeps this rank's part beside the global value.
//
//   int here = dtl::algorithms::local::reduce(vec, 0, std::plus<>{});
//   int all = dtl::algorithms::collective::reduce(dtl::seq{}, vec, 0, std::plus<>{}, comm);

#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/algorithms/reduce.hpp>
#include <dtl/containers/algorithms/scan.hpp>
#include <dtl/containers/algorithms/search.hpp>

#include <utility>

namespace dtl::algorithms {

namespace local {
template <class C, class T, class Op>
auto reduce(const C& c, T init, Op op) {
  return ::dtl::local_reduce(c, init, std::move(op));
}
template <class C, class T>
auto count(const C& c, const T& value) {
  return ::dtl::local_count(c, value);
}
template <class C, class Pred>
auto count_if(const C& c, Pred pred) {
  return ::dtl::local_count_if(c, std::move(pred));
}
template <class C, class T>
auto find(C& c, const T& value) {
  return ::dtl::local_find(c, value);
}
template <class C, class Pred>
auto find_if(C& c, Pred pred) {
  return ::dtl::local_find_if(c, std::move(pred));
}
template <class C, class Out, class T, class Op>
void inclusive_scan(const C& in, Out& out, T init, Op op) {
  ::dtl::local_inclusive_scan(in, out, init, std::move(op));
}
template <class C, class Out, class T, class Op>
void exclusive_scan(const C& in, Out& out, T init, Op op) {
  ::dtl::local_exclusive_scan(in, out, init, std::move(op));
}
}  // namespace local

namespace collective {
template <::dtl::detail::blocking_policy Pol, class C, class T, class Op, ::dtl::detail::rank_group G>
auto reduce(Pol&& policy, const C& c, T init, Op op, G& group) {
  return ::dtl::global_reduce(policy, c, init, std::move(op), group);
}
template <::dtl::detail::blocking_policy Pol, class C, class T, ::dtl::detail::rank_group G>
auto count(Pol&& policy, const C& c, const T& value, G& group) {
  return ::dtl::detail::run_on_group("count", c, group, [&] { return ::dtl::count(policy, c, value); });
}
template <::dtl::detail::blocking_policy Pol, class C, class T, ::dtl::detail::rank_group G>
auto find(Pol&& policy, const C& c, const T& value, G& group) {
  return ::dtl::detail::run_on_group("find", c, group, [&] { return ::dtl::find(policy, c, value); });
}
template <::dtl::detail::blocking_policy Pol, class C, class Out, class T, class Op, ::dtl::detail::rank_group G>
auto inclusive_scan(Pol&& policy, const C& in, Out& out, T init, Op op, G& group) {
  return ::dtl::detail::run_on_group("inclusive_scan", in, group,
                                     [&] { return ::dtl::inclusive_scan(policy, in, out, init, std::move(op)); });
}
template <::dtl::detail::blocking_policy Pol, class C, class Out, class T, class Op, ::dtl::detail::rank_group G>
auto exclusive_scan(Pol&& policy, const C& in, Out& out, T init, Op op, G& group) {
  return ::dtl::detail::run_on_group("exclusive_scan", in, group,
                                     [&] { return ::dtl::exclusive_scan(policy, in, out, init, std::move(op)); });
}
}  // namespace collective

namespace distributed {
template <class Pol, class C, class T, class Op>
auto reduce(Pol&& policy, const C& c, T init, Op op) {
  return ::dtl::distributed_reduce(std::forward<Pol>(policy), c, init, std::move(op));
}
}  // namespace distributed

}  // namespace dtl::algorithms
