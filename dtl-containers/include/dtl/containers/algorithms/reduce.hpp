// SPDX-License-Identifier: MIT
#pragma once
// Reductions: reduce, distributed_reduce, reduce_to_root, local_reduce, transform_reduce (of one vector or
// two: transform_reduce(a, b, init, reduce_op, transform_op)), count_if, count; and upstream DTL's
// spellings: global_reduce (reduce), reduce_to (reduce_to_root), and the forms of reduce, global_reduce,
// distributed_reduce and reduce_to that take its communicator (detail/communicator_forms.hpp).
//
//   float s = dtl::reduce(vec, 0.0f);                                   // every rank gets the sum
//   float m = dtl::reduce(dtl::par{}, vec, 0.0f, dtl::reduce_max<float>{});
//   dtl::result<float> r = dtl::try_reduce(vec, 0.0f, std::plus<>{});  // the same, without exceptions
//   auto f = dtl::reduce(dtl::async{}, vec, 0.0f);                      // dtl::hip::future<float>
//   auto& comm = ctx.get<dtl::mpi_domain>().communicator();             // upstream's forms:
//   int g = dtl::global_reduce(dtl::par{}, vec, 0, std::plus<>{}, comm);  // = dtl::reduce
//   dtl::reduce_result<int> r = dtl::reduce_to(dtl::par{}, vec, 0, comm, 0);  // the sum, on rank 0
//
// The result is init op (every element of every rank), on EVERY rank (reduce_to_root: on the root only).
// Operators must be associative and commutative (local_reduce under seq on host placements: any operator,
// a left fold from init as std::accumulate's). std::plus<>, std::multiplies<>, dtl::reduce_min and
// dtl::reduce_max on integers, float and double combine the ranks' partials with a native collective
// (MPI_Allreduce, or RCCL/NCCL on the GPU); any other operator combines them in rank order after an
// allgather. The bare forms (reduce, transform_reduce, count_if, ...) throw dtl::status_error when
// something fails (the GPU can); the try_ forms return dtl::result.

#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/device/reduce.hpp>
#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/communicator_forms.hpp>
#include <dtl/containers/algorithms/detail/message_forms.hpp>
#include <dtl/containers/algorithms/detail/host_reduce.hpp>
#include <dtl/containers/algorithms/detail/grid_forms.hpp>
#include <dtl/containers/algorithms/detail/indexed_fold.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/core/status_error.hpp>

#include <cstddef>
#include <functional>
#include <utility>
#include <algorithm>

namespace dtl {

namespace detail {

/// f(a[i], b[i]) as a present partial (the two-vector folds).
template <class T, class A, class B, class F>
struct maybe_pair_at {
  const A* a;
  const B* b;
  F& f;
  maybe<T> operator()(std::size_t i) const { return maybe<T>{static_cast<T>(f(a[i], b[i])), 1}; }
};

/// init op f(a[i], b[i]) over every rank's pairs, on every rank: one pass over each block.
template <class Policy, class A, class PA, class B, class PB, class T, class Op, class F>
result<reduce_result<T>> reduce_pairs_on_host(const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                                              const T& init, Op op, F f) {
  maybe_pair_at<T, A, B, F> at{a.local_data(), b.local_data(), f};
  maybe_op<T, Op&> fold_op{op};
  const auto fold = [&] {
    return host_fold_indexed<is_parallel_v<Policy>>(a.local_size(), maybe<T>{T{}, 0}, fold_op, at);
  };
  return combine_host_partial(a.get_context(), fold, init, op, reduce_scope::all, 0);
}

/// The device side of a reduction of `vec` (its elements transformed by `f`).
template <class Policy, class In, class P, class T, class Op, class F>
auto reduce_vector_on_device(const Policy& policy, const distributed_vector<In, P>& vec, const T& init, Op op, F f,
                             reduce_scope scope, int root) {
  return device::reduce(policy, vec.get_context(), vec.device_id(), vec.local_data(), vec.local_size(), init, op, f,
                        scope, root);
}
template <class Policy, class In, class P, class T, class Op, class F>
result<reduce_result<T>> reduce_vector_on_host(const Policy&, const distributed_vector<In, P>& vec, const T& init,
                                               Op op, F f, reduce_scope scope, int root) {
  return host_reduce<Policy>(vec.get_context(), vec.local_data(), vec.local_size(), init, op, f, scope, root);
}

/// The bodies of a reduction of the elements themselves, under `Scope`: (vec[, init[, op]]), init T{}
/// and std::plus<> by default.
template <reduce_scope Scope>
struct element_reduction {
  static constexpr bool communicates = Scope != reduce_scope::local;
  template <class Pol, class T, class P, class Init = T, class Op = std::plus<>>
  static auto host(const Pol& p, const distributed_vector<T, P>& vec, const Init& init = Init{}, Op op = {}) {
    return reduce_vector_on_host(p, vec, static_cast<T>(init), op, identity_transform{}, Scope, 0);
  }
  template <class Pol, class T, class P, class Init = T, class Op = std::plus<>>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, const Init& init = Init{}, Op op = {}) {
    return reduce_vector_on_device(p, vec, static_cast<T>(init), op, identity_transform{}, Scope, 0);
  }
};

/// The elements reduced with `op` from `init`, on every rank.
struct reduce_impl : element_reduction<reduce_scope::all>, global_value {
  static constexpr const char* name = "reduce";
};

/// reduce under upstream's explicit name.
struct global_reduce_impl : reduce_impl {
  static constexpr const char* name = "global_reduce";
};

/// As reduce, with this rank's value beside the global one (reduce_result<T>).
struct distributed_reduce_impl : element_reduction<reduce_scope::all> {
  static constexpr const char* name = "distributed_reduce";
};

/// The global value on `root` only (has_global false elsewhere).
struct reduce_to_root_impl {
  static constexpr const char* name = "reduce_to_root";
  static constexpr bool communicates = true;
  template <class T, class P, class Init, class Op>
  static status check(const distributed_vector<T, P>& vec, const Init&, const Op&, int root) {
    if (root < 0 || root >= vec.get_context().size())
      return status(status_code::invalid_rank, "reduce_to_root: root " + std::to_string(root) + " is not a rank of " +
                                                   std::to_string(vec.get_context().size()));
    return {};
  }
  template <class Pol, class T, class P, class Init, class Op>
  static auto host(const Pol& p, const distributed_vector<T, P>& vec, const Init& init, Op op, int root) {
    return reduce_vector_on_host(p, vec, static_cast<T>(init), op, identity_transform{}, reduce_scope::root, root);
  }
  template <class Pol, class T, class P, class Init, class Op>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, const Init& init, Op op, int root) {
    return reduce_vector_on_device(p, vec, static_cast<T>(init), op, identity_transform{}, reduce_scope::root, root);
  }
};

/// This rank's elements only, no communication.
struct local_reduce_impl : element_reduction<reduce_scope::local> {
  static constexpr const char* name = "local_reduce";
  template <class Outcome>
  static auto finish(Outcome outcome) {
    return map_outcome(std::move(outcome), [](const auto& r) { return r.local_value; });
  }
};

/// init reduce_op (transform_op(x) for every x), in the type of init.
struct transform_reduce_impl : global_value {
  static constexpr const char* name = "transform_reduce";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Init, class ReduceOp, class TransformOp>
  static auto host(const Pol& p, const distributed_vector<T, P>& vec, const Init& init, ReduceOp reduce_op,
                   TransformOp transform_op) {
    return reduce_vector_on_host(p, vec, init, reduce_op, transform_op, reduce_scope::all, 0);
  }
  template <class Pol, class T, class P, class Init, class ReduceOp, class TransformOp>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, const Init& init, ReduceOp reduce_op,
                     TransformOp transform_op) {
    return reduce_vector_on_device(p, vec, init, reduce_op, transform_op, reduce_scope::all, 0);
  }
  // Two vectors of one layout: init reduce_op (transform_op(a[i], b[i]) for every i), one pass over each.
  template <class Pol, class A, class PA, class B, class PB, class Init, class ReduceOp, class TransformOp>
  static auto host(const Pol&, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b, const Init& init,
                   ReduceOp reduce_op, TransformOp transform_op) {
    return reduce_pairs_on_host<Pol>(a, b, init, reduce_op, transform_op);
  }
  template <class Pol, class A, class PA, class B, class PB, class Init, class ReduceOp, class TransformOp>
  static auto device(const Pol& p, const distributed_vector<A, PA>& a, const distributed_vector<B, PB>& b,
                     const Init& init, ReduceOp reduce_op, TransformOp transform_op) {
    return device::reduce_pairs(p, a.get_context(), a.device_id(), a.local_data(), b.local_data(), a.local_size(), init,
                                reduce_op, transform_op);
  }
};

template <class Pred>
struct count_transform {
  Pred pred;
  template <class X>
  DTL_HOST_DEVICE constexpr std::size_t operator()(const X& x) const {
    return pred(x) ? std::size_t{1} : std::size_t{0};
  }
};

template <class V>
struct equal_to_value {
  V value;
  template <class X>
  DTL_HOST_DEVICE constexpr bool operator()(const X& x) const {
    return x == value;
  }
};

/// How many elements satisfy pred, over every rank.
struct count_if_impl : global_value {
  static constexpr const char* name = "count_if";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class Pred>
  static auto host(const Pol& p, const distributed_vector<T, P>& vec, Pred pred) {
    return reduce_vector_on_host(p, vec, std::size_t{0}, std::plus<std::size_t>{}, count_transform<Pred>{pred},
                                 reduce_scope::all, 0);
  }
  template <class Pol, class T, class P, class Pred>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, Pred pred) {
    return reduce_vector_on_device(p, vec, std::size_t{0}, std::plus<std::size_t>{}, count_transform<Pred>{pred},
                                   reduce_scope::all, 0);
  }
};

/// How many elements equal value, over every rank.
struct count_impl : global_value {
  static constexpr const char* name = "count";
  static constexpr bool communicates = true;
  template <class Pol, class T, class P, class V>
  static auto host(const Pol& p, const distributed_vector<T, P>& vec, const V& value) {
    return count_if_impl::host(p, vec, equal_to_value<T>{static_cast<T>(value)});
  }
  template <class Pol, class T, class P, class V>
  static auto device(const Pol& p, const distributed_vector<T, P>& vec, const V& value) {
    return count_if_impl::device(p, vec, equal_to_value<T>{static_cast<T>(value)});
  }
};

}  // namespace detail

// Each value algorithm in its two forms: the bare one throws dtl::status_error, try_ returns result<T>.
// Both take an execution policy first or run under dtl::seq{}; under dtl::async both give a future.
// With upstream's buffer forms over a communicator too: reduce(comm, send, recv, op, root) (message_forms.hpp).
inline constexpr detail::with_grid_forms<detail::with_message_forms<detail::with_communicator_forms<
                                             detail::value_algorithm<detail::reduce_impl>, detail::reduce_impl>>,
                                         detail::grid_reduce_impl, detail::algorithm_form::value>
    reduce{};
inline constexpr detail::with_grid_forms<detail::try_value_algorithm<detail::reduce_impl>, detail::grid_reduce_impl,
                                         detail::algorithm_form::try_value>
    try_reduce{};
inline constexpr detail::with_communicator_forms<detail::value_algorithm<detail::distributed_reduce_impl>,
                                                 detail::distributed_reduce_impl>
    distributed_reduce{};
inline constexpr detail::try_value_algorithm<detail::distributed_reduce_impl> try_distributed_reduce{};
inline constexpr detail::value_algorithm<detail::reduce_to_root_impl> reduce_to_root{};
inline constexpr detail::try_value_algorithm<detail::reduce_to_root_impl> try_reduce_to_root{};
// Upstream's explicit name of reduce (it takes a communicator there; here it may, or not).
inline constexpr detail::with_communicator_forms<detail::value_algorithm<detail::global_reduce_impl>,
                                                 detail::global_reduce_impl>
    global_reduce{};
inline constexpr detail::value_algorithm<detail::local_reduce_impl> local_reduce{};
inline constexpr detail::try_value_algorithm<detail::local_reduce_impl> try_local_reduce{};
inline constexpr detail::with_grid_forms<detail::value_algorithm<detail::transform_reduce_impl>,
                                         detail::grid_transform_reduce_impl, detail::algorithm_form::value>
    transform_reduce{};
inline constexpr detail::with_grid_forms<detail::try_value_algorithm<detail::transform_reduce_impl>,
                                         detail::grid_transform_reduce_impl, detail::algorithm_form::try_value>
    try_transform_reduce{};
inline constexpr detail::value_algorithm<detail::count_if_impl> count_if{};
inline constexpr detail::try_value_algorithm<detail::count_if_impl> try_count_if{};
inline constexpr detail::value_algorithm<detail::count_impl> count{};
inline constexpr detail::try_value_algorithm<detail::count_impl> try_count{};

namespace detail {

/// Upstream's reduce_to: reduce_to(policy, c, init, comm, root) is the sum (init + every element) on
/// `root`, reduce_to(policy, c, init, op, root) the same with `op`; reduce_result<T> for `T init`, its
/// global_value valid (has_global) on the root alone, T{} elsewhere. reduce_to_root underneath.
struct reduce_to_fn {
  template <blocking_policy P, class C, class T, rank_group G>
  reduce_result<std::decay_t<T>> operator()(P&& policy, C&& c, T&& init, G&& group, rank_t root) const {
    return run_on_group("reduce_to", c, group, [&] {
      return in_init_type<std::decay_t<T>>(dtl::reduce_to_root(policy, c, init, std::plus<>{}, root));
    });
  }
  template <blocking_policy P, class C, class T, class Op>
  requires(!rank_group<Op>) reduce_result<std::decay_t<T>>
  operator()(P&& policy, C&& c, T&& init, Op&& op, rank_t root) const {
    return in_init_type<std::decay_t<T>>(dtl::reduce_to_root(policy, c, init, op, root));
  }
};

}  // namespace detail

inline constexpr detail::reduce_to_fn reduce_to{};

// Upstream DTL's counts and transform-reduce of this rank's block alone (no communication; host
// placements; any operator, folded left from init).
template <class T, class P, class V>
requires(P::host_accessible) size_type local_count(const distributed_vector<T, P>& vec, const V& value) {
  return static_cast<size_type>(std::count(vec.local_data(), vec.local_data() + vec.local_size(), value));
}
template <class T, class P, class Pred>
requires(P::host_accessible) size_type local_count_if(const distributed_vector<T, P>& vec, Pred pred) {
  return static_cast<size_type>(std::count_if(vec.local_data(), vec.local_data() + vec.local_size(), pred));
}
template <class T, class P, class Init, class ReduceOp, class TransformOp>
requires(P::host_accessible) Init local_transform_reduce(const distributed_vector<T, P>& vec, Init init,
                                                         ReduceOp reduce_op, TransformOp transform_op) {
  for (std::size_t i = 0; i < vec.local_size(); ++i) init = reduce_op(init, transform_op(vec.local_data()[i]));
  return init;
}

}  // namespace dtl
