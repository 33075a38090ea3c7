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
//
// The object supplies what every algorithm shares:
//   - the forms: f(policy, args...) and f(args...), which runs under dtl::seq{};
//   - the checks: the context of the first vector is usable, and every vector has its layout (context,
//     global size, partition), before Impl::check and before any work;
//   - host or device: the device body when the vectors are on the device (all of them, or with
//     mixed_placements any of them), else the host body, whose result<R> becomes the policy's outcome;
//   - Form: status (result<R>, a future under async), value (the bare value: throws dtl::status_error;
//     a future under async) or try_value (the value form's non-throwing twin: result<R>, or a future).

#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/result.hpp>

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
inline constexpr bool all_vectors_on_device_v =
    ((!is_distributed_vector_v<std::remove_cvref_t<A>> || is_device_vector_v<std::remove_cvref_t<A>>) && ...);

template <class First, class... Rest>
inline constexpr bool starts_with_policy_v = ExecutionPolicy<First>;

/// The checks every algorithm shares, over the vectors among its arguments (in order).
class vector_checks {
 public:
  explicit vector_checks(const char* algorithm) noexcept : algorithm_(algorithm) {}

  template <class A>
  vector_checks& operator<<(const A& arg) {
    if constexpr (is_distributed_vector_v<A>) {
      if (!failure_.ok()) return *this;
      if (first_ == nullptr) {
        first_ = &arg.get_context();
        global_size_ = arg.global_size();
        range_ = arg.local_range();
        failure_ = first_->check();
      } else if (!first_->same_as(arg.get_context())) {
        failure_ = status(status_code::invalid_argument, std::string(algorithm_) + ": the vectors belong to different contexts");
      } else if (arg.global_size() != global_size_) {
        failure_ = status(status_code::extent_mismatch, std::string(algorithm_) + ": the vectors hold " +
                                                            std::to_string(global_size_) + " and " +
                                                            std::to_string(arg.global_size()) + " elements");
      } else if (arg.local_range() != range_) {
        failure_ = status(status_code::dimension_mismatch, std::string(algorithm_) + ": the vectors are partitioned differently");
      }
    }
    return *this;
  }

  /// ok, or the first failed check.
  [[nodiscard]] const status& failure() const noexcept { return failure_; }

 private:
  const char* algorithm_;
  const context* first_ = nullptr;
  std::size_t global_size_ = 0;
  index_range range_{};
  status failure_;
};

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
      return Impl::device(policy, std::forward<A>(args)...);
    else
      return to_outcome<Pol>(Impl::host(policy, std::forward<A>(args)...));
  };
  using Outcome = decltype(work());
  vector_checks checks(Impl::name);
  (checks << ... << args);
  status failure = checks.failure();
  if constexpr (requires { Impl::check(args...); }) {
    if (failure.ok()) failure = Impl::check(args...);
  }
  if (!failure.ok()) return failed_as<Outcome>(std::move(failure));
  return work();
}

template <class Impl, class Outcome>
auto finish_algorithm(Outcome outcome) {
  if constexpr (requires { Impl::finish(std::move(outcome)); })
    return Impl::finish(std::move(outcome));
  else
    return outcome;
}

/// The public object of an algorithm (see the top of this header).
template <class Impl, algorithm_form Form>
struct algorithm_fn {
  template <ExecutionPolicy Policy, class... A>
  auto operator()(Policy&& policy, A&&... args) const {
    auto outcome = finish_algorithm<Impl>(run_algorithm<Impl>(policy, std::forward<A>(args)...));
    if constexpr (Form == algorithm_form::value)
      return value_or_throw_unless_future(std::move(outcome));
    else
      return outcome;
  }
  template <class... A>
    requires(sizeof...(A) > 0 && !starts_with_policy_v<A...>)
  auto operator()(A&&... args) const {
    return (*this)(seq{}, std::forward<A>(args)...);
  }
};

}  // namespace dtl::detail
