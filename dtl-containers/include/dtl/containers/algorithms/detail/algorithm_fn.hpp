// SPDX-License-Identifier: MIT
#pragma once
// algorithm_fn<Impl, Form>: the public forms of an algorithm, made from one definition of it (the
// algorithm objects of std::ranges and CCCL). Not for users.
//
// An algorithm is a struct Impl that supplies its bodies and nothing else:
//   static constexpr const char* name;                          // for messages
//   template <class Pol, class... A> static result<R> host(const Pol&, A&&...);   // host placements
//   template <class Pol, class... A> static auto device(const Pol&, A&&...);      // device placements:
//                                                               // the policy's outcome (outcome.hpp)
// and, where it needs them:
//   template <class... A> static status check(const A&...);    // more argument checks, before any work
//   template <class O> static auto finish(O outcome);          // maps the outcome (reduce_result -> T)
//   static constexpr bool mixed_placements = true;             // host and device vectors may meet (copy)
//   static status layout_mismatch(status s);                   // restates a context, size or partition mismatch
//                                                               // (copy: upstream's invalid_argument)
//
// The object supplies what every algorithm shares:
//   - the forms: f(policy, args...) and f(args...), which runs under dtl::seq{};
//   - the checks: the context of the first vector is usable, and every vector has its layout (context,
//     global size, partition), before Impl::check and before any work;
//   - host or device: the device body when the vectors are on the device (all of them, or with
//     mixed_placements any of them), else the host body, whose result<R> becomes the policy's outcome;
//   - Form: status (result<R>, a future under async), value (the bare value: throws dtl::status_error;
//     a future under async) or try_value (the value form's non-throwing twin: result<R>, or a future).

#include <dtl/containers/algorithms/detail/host_visible.hpp>
#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/block_partition.hpp>
#include <dtl/containers/detail/vector_access.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_boundary.hpp>

#include <exception>
#include <string>
#include <type_traits>
#include <utility>

namespace dtl::detail {

enum class algorithm_form { status, value, try_value };

template <class V>
inline constexpr bool is_distributed_vector_v = false;
template <class T, class P>
inline constexpr bool is_distributed_vector_v<distributed_vector<T, P>> = true;

template <class V>
inline constexpr bool is_device_vector_v = false;
template <class T, class P>
inline constexpr bool is_device_vector_v<distributed_vector<T, P>> = P::device_accessible;

template <class... A>
inline constexpr bool any_device_vector_v = (is_device_vector_v<std::remove_cvref_t<A>> || ...);
template <class... A>
inline constexpr bool all_vectors_on_device_v = ((!is_distributed_vector_v<std::remove_cvref_t<A>> ||
                                                  is_device_vector_v<std::remove_cvref_t<A>>)&&...);

template <class First, class... Rest>
inline constexpr bool starts_with_policy_v = ExecutionPolicy<First>;

/// What two vectors must share to meet in one algorithm. The whole partition, every rank's block, not
/// this rank's alone: every rank holds the same partition (agreed at construction, redistribute and
/// resize), so every rank decides alike without communicating, and no rank runs while another refuses.
struct vector_layout {
  const context* ctx;
  const block_partition<>* partition;
};

template <class T, class P>
status compare_layouts(const char* algorithm, const vector_layout& first, const distributed_vector<T, P>& v) {
  if (!first.ctx->same_as(v.get_context()))
    return status(status_code::invalid_argument, std::string(algorithm) + ": the vectors belong to different contexts");
  if (v.global_size() != first.partition->global_size())
    return status(status_code::extent_mismatch, std::string(algorithm) + ": the vectors hold " +
                                                    std::to_string(first.partition->global_size()) + " and " +
                                                    std::to_string(v.global_size()) + " elements");
  if (!v.partition().same_layout(*first.partition))
    return status(status_code::dimension_mismatch,
                  std::string(algorithm) + ": the vectors are partitioned differently");
  return {};
}

inline status check_later_vectors(const char*, const vector_layout&) { return {}; }
template <class A, class... Rest>
status check_later_vectors(const char* algorithm, const vector_layout& first, const A& arg, const Rest&... rest) {
  if constexpr (is_distributed_vector_v<A>) {
    if (status s = compare_layouts(algorithm, first, arg); !s.ok()) return s;
  }
  return check_later_vectors(algorithm, first, rest...);
}

/// The check after check_first_context: every later vector among its arguments has the first one's layout
/// (context, partition).
inline status check_layouts(const char*) { return {}; }
template <class A, class... Rest>
status check_layouts(const char* algorithm, const A& arg, const Rest&... rest) {
  if constexpr (is_distributed_vector_v<A>)
    return check_later_vectors(algorithm, vector_layout{&arg.get_context(), &arg.partition()}, rest...);
  else
    return check_layouts(algorithm, rest...);
}

/// The context of the first vector among the arguments (every algorithm has one).
inline const context* first_context() { return nullptr; }
template <class A, class... Rest>
const context* first_context(const A& arg, const Rest&... rest) {
  if constexpr (is_distributed_vector_v<A>)
    return &arg.get_context();
  else
    return first_context(rest...);
}

/// The first check every algorithm shares: the context of the first vector among its arguments is usable.
template <class... A>
status check_first_context(const A&... args) {
  const context* ctx = first_context(args...);
  return ctx != nullptr ? ctx->check() : status{};
}

/// Whether the algorithm communicates between the ranks (Impl::communicates; default: it does not).
template <class Impl>
constexpr bool communicates_of() {
  if constexpr (requires { Impl::communicates; })
    return Impl::communicates;
  else
    return false;
}

/// A failed check, as the algorithm returns it. An algorithm that communicates takes the failure to the
/// agreement step, where the other ranks' first collective of the algorithm meets it: a check that
/// fails on one rank (a root only it has wrong, say) fails the algorithm on every rank, with no rank
/// left waiting.
template <class Impl, class... A>
status checked_failure(status s, const A&... args) {
  const context* ctx = first_context(args...);
  return ctx != nullptr ? agree_before(communicates_of<Impl>(), *ctx, s, Impl::name) : s;
}

/// local(): this rank's part of an algorithm before the ranks' first collective (the user's functions
/// over its own elements). What it throws reaches the other ranks before it goes on here (as under
/// seq): when `communicates`, this rank takes it to the agreement step, where their first collective
/// meets it and fails there (collective_failure, naming this rank and the exception's message) instead
/// of waiting for this rank or pairing with a later call of it.
template <class Local>
auto before_communicating(const context& ctx, bool communicates, const char* what, Local&& local) {
  try {
    return std::forward<Local>(local)();
  } catch (...) {
    const std::exception_ptr thrown = std::current_exception();
    (void)agree_before(communicates, ctx, current_exception_status(what), what);
    std::rethrow_exception(thrown);
  }
}

template <class Impl>
constexpr bool mixed_placements_of() {
  if constexpr (requires { Impl::mixed_placements; })
    return Impl::mixed_placements;
  else
    return false;
}

/// Runs `Impl` under `policy`: the shared checks, then its host or device body.
template <class Impl, class Policy, class... A>
auto run_algorithm(const Policy& policy, A&&... args) {
  using Pol = std::remove_cvref_t<Policy>;
  constexpr bool on_device = any_device_vector_v<A...>;  // all of them, unless mixed_placements
  static_assert(mixed_placements_of<Impl>() || !any_device_vector_v<A...> || all_vectors_on_device_v<A...>,
                "the vectors of one algorithm must all be on the device, or all on the host");
  auto work = [&]() {
    if constexpr (on_device)
      return settled_for_host<Pol>(Impl::device(policy, std::forward<A>(args)...), args...);
    else
      return to_outcome<Pol>(Impl::host(policy, std::forward<A>(args)...));
  };
  using Outcome = decltype(work());
  if (status s = check_first_context(args...); !s.ok())
    return failed_as<Outcome>(checked_failure<Impl>(std::move(s), args...));
  if (status s = check_layouts(Impl::name, args...); !s.ok()) {
    if constexpr (requires { Impl::layout_mismatch(s); }) s = Impl::layout_mismatch(s);
    return failed_as<Outcome>(checked_failure<Impl>(std::move(s), args...));
  }
  if constexpr (requires { Impl::check(args...); }) {
    if (status s = Impl::check(args...); !s.ok())
      return failed_as<Outcome>(checked_failure<Impl>(std::move(s), args...));
  }
  return work();
}

template <class Impl, class Outcome>
auto finish_algorithm(Outcome outcome) {
  if constexpr (requires { Impl::finish(std::move(outcome)); })
    return Impl::finish(std::move(outcome));
  else
    return outcome;
}

/// The public object of an algorithm (see the top of this header). A container built on a vector
/// (distributed_array) reaches the bodies as that vector (detail/vector_access.hpp).
template <class Impl, algorithm_form Form>
struct algorithm_fn {
  template <ExecutionPolicy Policy, class... A>
  auto operator()(Policy&& policy, A&&... args) const {
    auto outcome = finish_algorithm<Impl>(run_algorithm<Impl>(policy, algorithm_argument(std::forward<A>(args))...));
    if constexpr (Form == algorithm_form::value)
      return value_or_throw_unless_future(std::move(outcome));
    else
      return outcome;
  }
  template <class... A>
  requires(sizeof...(A) > 0 && !starts_with_policy_v<A...>) auto operator()(A&&... args) const {
    return (*this)(seq{}, std::forward<A>(args)...);
  }
};

/// The objects' types, by form: an algorithm that modifies (status), a value algorithm's bare form
/// (value) and its try_ twin.
template <class Impl>
using status_algorithm = algorithm_fn<Impl, algorithm_form::status>;
template <class Impl>
using value_algorithm = algorithm_fn<Impl, algorithm_form::value>;
template <class Impl>
using try_value_algorithm = algorithm_fn<Impl, algorithm_form::try_value>;

}  // namespace dtl::detail
