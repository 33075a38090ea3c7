// SPDX-License-Identifier: MIT
#pragma once
// The host side of the reductions, shared by the vectors' (reduce.hpp) and the grid_tensors'
// (grid_forms.hpp): this rank's fold, the ranks' combine, and the value a reduction returns. Not for users.

#include <dtl/containers/algorithms/detail/algorithm_fn.hpp>
#include <dtl/containers/algorithms/detail/indexed_fold.hpp>
#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/containers/algorithms/detail/support.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/algorithms/reduce_result.hpp>
#include <dtl/containers/communication/context.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace dtl::detail {

/// This rank's partial (fold(): absent without elements) combined with the other ranks' as `scope` says.
template <class T, class Fold, class Op>
result<reduce_result<T>> combine_host_partial(const context& ctx, Fold fold, const T& init, Op& op, reduce_scope scope,
                                              int root) {
  // The user's functions over this rank's elements, before any rank communicates.
  const auto [mine, local_value] =
      before_communicating(ctx, scope != reduce_scope::local, "reduce (this rank's elements)", [&] {
        const maybe<T> partial = fold();
        return std::pair<maybe<T>, T>(partial, partial.present != 0 ? op(init, partial.value) : init);
      });
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

/// The host side of every reduction: fold this rank's elements (transformed by `f`), then combine.
template <class Policy, class In, class T, class Op, class F>
result<reduce_result<T>> host_reduce(const context& ctx, const In* data, std::size_t n, const T& init, Op& op, F& f,
                                     reduce_scope scope, int root) {
  if constexpr (!is_parallel_v<Policy>) {
    // Nothing crosses ranks (this rank's value, or a context of one rank) and one thread folds:
    // std::accumulate's left fold from init (upstream's), which needs no associative operator.
    if (scope == reduce_scope::local || ctx.size() == 1) {
      T acc = init;
      for (std::size_t i = 0; i < n; ++i) acc = op(acc, static_cast<T>(f(data[i])));
      return reduce_result<T>{acc, acc, scope != reduce_scope::local};
    }
  }
  return combine_host_partial(
      ctx, [&] { return host_fold<is_parallel_v<Policy>, In, T>(data, n, op, f); }, init, op, scope, root);
}

/// reduce_result<T> -> the global value (reduce, transform_reduce, count_if, count).
struct global_value {
  template <class Outcome>
  static auto finish(Outcome outcome) {
    return map_outcome(std::move(outcome), [](const auto& r) { return r.value(); });
  }
};

}  // namespace dtl::detail
