// SPDX-License-Identifier: MIT
#pragma once
// Upstream's guarantee where the host can see the difference (outcome.hpp's table): under seq and par, a
// device call over a vector the host can reach (unified_memory, device_preferred_on; a host vector in a
// mixed copy) returns once its work is done, so that the host reads the results right after. Not for
// users.

#include <dtl/containers/algorithms/execution.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/result.hpp>

#include <type_traits>
#include <utility>

namespace dtl::detail {

template <class V>
inline constexpr bool is_host_reachable_vector_v = false;
template <class T, class P>
inline constexpr bool is_host_reachable_vector_v<distributed_vector<T, P>> = P::host_accessible;

/// Whether a device call over `A...` under `Policy` waits for its work before it returns.
template <class Policy, class... A>
inline constexpr bool waits_for_host_v = (std::is_same_v<Policy, seq> || std::is_same_v<Policy, par>)&&(
    is_host_reachable_vector_v<std::remove_cvref_t<A>> || ...);

/// The context and device of the first device vector among the arguments (nullptr, no_device: none).
inline std::pair<const context*, int> first_device_vector() { return {nullptr, no_device}; }
template <class A, class... Rest>
std::pair<const context*, int> first_device_vector(const A& arg, const Rest&... rest) {
  if constexpr (requires { std::remove_cvref_t<A>::is_device_accessible(); }) {
    if constexpr (std::remove_cvref_t<A>::is_device_accessible()) return {&arg.get_context(), arg.device_id()};
  }
  return first_device_vector(rest...);
}

/// `outcome` of a device call over `args`, waited for when waits_for_host_v says so.
template <class Policy, class Outcome, class... A>
Outcome settled_for_host(Outcome outcome, const A&... args) {
  if constexpr (waits_for_host_v<Policy, A...>) {
    if (!outcome) return outcome;
    const auto [ctx, device] = first_device_vector(args...);
    if (ctx != nullptr)
      if (status s = settle_device_work(*ctx, device); !s.ok()) return Outcome(std::move(s));
  }
  return outcome;
}

}  // namespace dtl::detail
