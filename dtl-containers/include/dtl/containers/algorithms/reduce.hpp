#pragma once
// Reductions: reduce, distributed_reduce, reduce_to_root, local_reduce, transform_reduce, count_if, count.
//
//   float s = dtl::reduce(vec, 0.0f);                                   // every rank gets the sum
//   float m = dtl::reduce(dtl::par{}, vec, 0.0f, dtl::reduce_max<float>{});
//   dtl::result<float> r = dtl::try_reduce(vec, 0.0f, std::plus<>{});  // the same, without exceptions
//   auto f = dtl::reduce(dtl::async{}, vec, 0.0f);                      // dtl::hip::future<float>
//
// The result is init op (every element of every rank), on EVERY rank (reduce_to_root: on the root only).
// Operators must be associative and commutative. std::plus<>, std::multiplies<>, dtl::reduce_min and
// dtl::reduce_max on integers, float and double combine the ranks' partials with a native collective
// (MPI_Allreduce, or RCCL/NCCL on the GPU); any other operator combines them in rank order after an
// allgather. The bare forms (reduce, transform_reduce, count_if, ...) throw dtl::status_error when
// something fails (the GPU can); the try_ forms return dtl::result.

#include <dtl/containers/detail/algorithm_support.hpp>
#include <dtl/containers/detail/device_algorithms.hpp>
#include <dtl/containers/detail/dispatch.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/execution.hpp>
#include <dtl/core/status_error.hpp>

#include <cstddef>
#include <functional>
#include <utility>

namespace dtl {

namespace detail {

/// The host side of every reduction: fold this rank's elements (transformed by `f`), then combine.
template <class Policy, class In, class T, class Op, class F>
result<reduce_result<T>> host_reduce(const context& ctx, const In* data, std::size_t n, const T& init, Op& op, F& f,
                                     reduce_scope scope, int root) {
  const maybe<T> mine = host_fold<is_parallel_v<Policy>, In, T>(data, n, op, f);
  const T local_value = mine.present != 0 ? op(init, mine.value) : init;
  if (scope == reduce_scope::local) return reduce_result<T>{local_value, local_value, false};
  T global{};
  if constexpr (is_native_reduction_v<Op, T>) {
    constexpr auto native = *native_reduction_of<Op, T>();
    const T part = mine.present != 0 ? mine.value : native.identity;
    if (scope == reduce_scope::all) {
      if (result<void> r = ctx.allreduce(&part, &global, 1, native.op); !r) return std::move(r).error();
    } else {
      if (result<void> r = ctx.reduce(&part, &global, 1, native.op, root); !r) return std::move(r).error();
    }
    global = op(init, global);
  } else {
    DTL_ASSIGN_OR_RETURN(global, combine_partials_on_host(ctx, mine, init, op));
  }
  const bool has = scope == reduce_scope::all || ctx.rank() == root;
  return reduce_result<T>{local_value, has ? global : T{}, has};
}

/// Runs a reduction of `vec` (its elements transformed by `f`) under `Policy`.
template <class Policy, class In, class P, class T, class Op, class F>
auto run_reduce(Policy& policy, const distributed_vector<In, P>& vec, const T& init, Op op, F f, reduce_scope scope,
                int root) {
  using Pol = std::remove_cvref_t<Policy>;
  const context& ctx = vec.get_context();
  if (status s = ctx.check(); !s.ok()) return failed_outcome<Pol, reduce_result<T>>(std::move(s));
  if (scope == reduce_scope::root && (root < 0 || root >= ctx.size()))
    return failed_outcome<Pol, reduce_result<T>>(status(status_code::invalid_rank, "reduce_to_root: root is not a rank"));
  if constexpr (P::device_accessible) {
    return device_algo::reduce(policy, ctx, vec.device_id(), vec.local_data(), vec.local_size(), init, op, f, scope,
                               root);
  } else {
    return host_outcome<Pol, reduce_result<T>>(host_reduce<Pol>(ctx, vec.local_data(), vec.local_size(), init, op, f,
                                                                scope, root));
  }
}

/// reduce_result<T> -> T for the forms that give a value; futures map through then().
template <class Outcome>
auto global_value_of(Outcome outcome) {
  if constexpr (is_result_v<Outcome>) {
    using T = decltype(outcome.value().global_value);
    if (!outcome) return result<T>(std::move(outcome).error());
    return result<T>(outcome.value().value());
  } else {
    using partial = typename Outcome::value_type;
    return std::move(outcome).then([](const partial& r) { return r.value(); });
  }
}

template <class Outcome>
auto value_or_throw_unless_future(Outcome outcome) {
  if constexpr (is_result_v<Outcome>)
    return value_or_throw(std::move(outcome));
  else
    return outcome;
}

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

}  // namespace detail

// --- reduce: the value on every rank ---
template <ExecutionPolicy Policy, class T, class P, class Init, class Op = std::plus<>>
auto try_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return detail::global_value_of(
      detail::run_reduce(policy, vec, static_cast<T>(init), op, detail::identity_transform{}, detail::reduce_scope::all, 0));
}
template <class T, class P, class Init, class Op = std::plus<>>
result<T> try_reduce(const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return try_reduce(seq{}, vec, init, op);
}
/// Throws dtl::status_error on failure (a future under dtl::async).
template <ExecutionPolicy Policy, class T, class P, class Init, class Op = std::plus<>>
auto reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return detail::value_or_throw_unless_future(try_reduce(policy, vec, init, op));
}
template <class T, class P, class Init, class Op = std::plus<>>
T reduce(const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return reduce(seq{}, vec, init, op);
}
/// The sum of every element (init T{}).
template <ExecutionPolicy Policy, class T, class P>
auto reduce(Policy&& policy, const distributed_vector<T, P>& vec) {
  return reduce(policy, vec, T{});
}

// --- distributed_reduce: local and global values ---
template <ExecutionPolicy Policy, class T, class P, class Init, class Op = std::plus<>>
auto try_distributed_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return detail::run_reduce(policy, vec, static_cast<T>(init), op, detail::identity_transform{},
                            detail::reduce_scope::all, 0);
}
template <ExecutionPolicy Policy, class T, class P, class Init, class Op = std::plus<>>
auto distributed_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return detail::value_or_throw_unless_future(try_distributed_reduce(policy, vec, init, op));
}
template <class T, class P, class Init, class Op = std::plus<>>
reduce_result<T> distributed_reduce(const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return distributed_reduce(seq{}, vec, init, op);
}

// --- reduce_to_root: the value on `root` only (has_global false elsewhere) ---
template <ExecutionPolicy Policy, class T, class P, class Init, class Op>
auto try_reduce_to_root(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op, int root) {
  return detail::run_reduce(policy, vec, static_cast<T>(init), op, detail::identity_transform{},
                            detail::reduce_scope::root, root);
}
template <ExecutionPolicy Policy, class T, class P, class Init, class Op>
auto reduce_to_root(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op, int root) {
  return detail::value_or_throw_unless_future(try_reduce_to_root(policy, vec, init, op, root));
}
template <class T, class P, class Init, class Op>
reduce_result<T> reduce_to_root(const distributed_vector<T, P>& vec, const Init& init, Op op, int root) {
  return reduce_to_root(seq{}, vec, init, op, root);
}

// --- local_reduce: this rank's elements only, no communication ---
template <ExecutionPolicy Policy, class T, class P, class Init, class Op = std::plus<>>
auto try_local_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  auto outcome = detail::run_reduce(policy, vec, static_cast<T>(init), op, detail::identity_transform{},
                                    detail::reduce_scope::local, 0);
  if constexpr (is_result_v<decltype(outcome)>) {
    if (!outcome) return result<T>(std::move(outcome).error());
    return result<T>(outcome->local_value);
  } else {
    return std::move(outcome).then([](const reduce_result<T>& r) { return r.local_value; });
  }
}
template <ExecutionPolicy Policy, class T, class P, class Init, class Op = std::plus<>>
auto local_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return detail::value_or_throw_unless_future(try_local_reduce(policy, vec, init, op));
}
template <class T, class P, class Init, class Op = std::plus<>>
T local_reduce(const distributed_vector<T, P>& vec, const Init& init, Op op = {}) {
  return local_reduce(seq{}, vec, init, op);
}

// --- transform_reduce: init reduce_op (transform_op(x) for every x), in the type of init ---
template <ExecutionPolicy Policy, class T, class P, class Init, class ReduceOp, class TransformOp>
auto try_transform_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, ReduceOp reduce_op,
                          TransformOp transform_op) {
  return detail::global_value_of(
      detail::run_reduce(policy, vec, init, reduce_op, transform_op, detail::reduce_scope::all, 0));
}
template <ExecutionPolicy Policy, class T, class P, class Init, class ReduceOp, class TransformOp>
auto transform_reduce(Policy&& policy, const distributed_vector<T, P>& vec, const Init& init, ReduceOp reduce_op,
                      TransformOp transform_op) {
  return detail::value_or_throw_unless_future(try_transform_reduce(policy, vec, init, reduce_op, transform_op));
}
template <class T, class P, class Init, class ReduceOp, class TransformOp>
Init transform_reduce(const distributed_vector<T, P>& vec, const Init& init, ReduceOp reduce_op, TransformOp transform_op) {
  return transform_reduce(seq{}, vec, init, reduce_op, transform_op);
}

// --- count_if / count: how many elements, over every rank ---
template <ExecutionPolicy Policy, class T, class P, class Pred>
auto try_count_if(Policy&& policy, const distributed_vector<T, P>& vec, Pred pred) {
  return try_transform_reduce(policy, vec, std::size_t{0}, std::plus<std::size_t>{}, detail::count_transform<Pred>{pred});
}
template <ExecutionPolicy Policy, class T, class P, class Pred>
auto count_if(Policy&& policy, const distributed_vector<T, P>& vec, Pred pred) {
  return detail::value_or_throw_unless_future(try_count_if(policy, vec, pred));
}
template <class T, class P, class Pred>
std::size_t count_if(const distributed_vector<T, P>& vec, Pred pred) {
  return count_if(seq{}, vec, pred);
}
template <ExecutionPolicy Policy, class T, class P, class V>
auto count(Policy&& policy, const distributed_vector<T, P>& vec, const V& value) {
  return count_if(policy, vec, detail::equal_to_value<T>{static_cast<T>(value)});
}
template <class T, class P, class V>
std::size_t count(const distributed_vector<T, P>& vec, const V& value) {
  return count(seq{}, vec, value);
}

}  // namespace dtl
