// SPDX-License-Identifier: MIT
#pragma once
// The shared state behind dtl::hip::future and promise (an implementation detail of future.hpp).
//
// It is dtl-core's future state (dtl/futures/shared_state.hpp: completes once, claim() picking the one
// completer, publish() making the outcome visible, waking waiters and running the continuations on the
// completing thread) with what GPU work adds: a state remembers the progress engines whose polling
// completes it, so that waiting on it can drive them, and waits as future.hpp describes.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_boundary.hpp>
#include <dtl/futures/shared_state.hpp>

#include <chrono>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace dtl::hip::detail {

class engine_core;

/// One progress pass of `engine`, if it still exists.
DTL_HIP_EXEC_API void drive_engine(const std::weak_ptr<engine_core>& engine) noexcept;
/// true while `engine` exists and its background thread polls it.
[[nodiscard]] DTL_HIP_EXEC_API bool engine_polled_in_background(const std::weak_ptr<engine_core>& engine) noexcept;

/// `error` itself, or invalid_argument when it is (wrongly) ok: an error must never read as success.
[[nodiscard]] DTL_HIP_EXEC_API status ensure_error(status error) noexcept;

/// The deadline `timeout` from now; no overflow for huge timeouts.
[[nodiscard]] DTL_HIP_EXEC_API std::chrono::steady_clock::time_point deadline_after(
    std::chrono::nanoseconds timeout) noexcept;

/// Work to run once a state is ready: exactly once, on the thread that completes the state, or on
/// the thread that adds it when the state is already ready. It must not throw.
using continuation = futures::detail::task;

class DTL_HIP_EXEC_API state_base : public futures::detail::completion {
 public:
  state_base() noexcept = default;
  explicit state_base(std::weak_ptr<engine_core> engine) noexcept : engine_(std::move(engine)) {}

  /// Completes with an error; false when the state was already completed.
  bool set_error(status error) noexcept {
    if (!claim()) return false;
    publish(ensure_error(std::move(error)));
    return true;
  }

  /// Runs `c` when this state is ready (at once, here, if it already is).
  void add_continuation(std::unique_ptr<continuation> c) noexcept { add_task(std::move(c)); }

  /// This state also completes through the engines that complete `other` (before it is shared).
  void add_engines_of(const state_base& other);

  /// One progress pass of every engine this state depends on.
  void drive() noexcept;
  /// Waits until ready or `deadline`; true when ready. Spins briefly, driving progress; then sleeps on
  /// the condition variable if every engine it depends on has a background poller (which completes
  /// the state and wakes it), and otherwise keeps driving progress, sleeping between passes.
  [[nodiscard]] bool wait_until(std::chrono::steady_clock::time_point deadline) noexcept;

 protected:
  /// The status a state fails with when its value's constructor throws (valued_state).
  [[nodiscard]] static status value_construction_error() noexcept {
    return dtl::current_exception_status("constructing a future's value");
  }

 private:
  void add_engine(const std::weak_ptr<engine_core>& engine);
  /// true when every engine this state depends on has a background poller.
  [[nodiscard]] bool polled_in_background() const noexcept;

  std::weak_ptr<engine_core> engine_;
  std::vector<std::weak_ptr<engine_core>> more_engines_;
};

/// The state of a future<T>: the outcome, plus the value on success.
template <class T>
class shared_state final : public futures::detail::valued_state<state_base, T> {
 public:
  using futures::detail::valued_state<state_base, T>::valued_state;
};

template <>
class shared_state<void> final : public futures::detail::valued_state<state_base, void> {
 public:
  using valued_state::valued_state;

  /// Completes with `s`: success when s is ok.
  bool set_status(status s) noexcept {
    if (!claim()) return false;
    publish(std::move(s));
    return true;
  }
};

}  // namespace dtl::hip::detail
