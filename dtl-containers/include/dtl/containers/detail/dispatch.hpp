#pragma once
// How an algorithm's outcome is handed back under each policy. Not for users.

#include <dtl/containers/config.hpp>
#include <dtl/containers/execution.hpp>
#include <dtl/core/result.hpp>

#include <type_traits>
#include <utility>

namespace dtl::detail {

template <class Policy>
inline constexpr bool is_parallel_v = std::is_same_v<std::remove_cvref_t<Policy>, par>;

/// A host computation's outcome under `Policy`: result<R>, or for async a ready (or failed) future.
template <class Policy, class R>
auto host_outcome(result<R> r) {
#if DTL_CONTAINERS_HAS_HIP
  if constexpr (is_async_v<std::remove_cvref_t<Policy>>) {
    if (!r) return hip::make_failed_future<R>(std::move(r).error());
    if constexpr (std::is_void_v<R>) {
      return hip::make_ready_future<void>();
    } else {
      return hip::make_ready_future<R>(std::move(r).value());
    }
  } else {
    return r;
  }
#else
  return r;
#endif
}

/// The same for a failure found before any work started.
template <class Policy, class R>
auto failed_outcome(status error) {
  return host_outcome<Policy, R>(result<R>(std::move(error)));
}

}  // namespace dtl::detail
