#pragma once
// The shared state behind dtl::hip::future and promise (an implementation detail of future.hpp).
//
// A state completes exactly once: claim() picks the one completer, finish() publishes the outcome,
// wakes waiters and runs the continuations on the completing thread. A state remembers the progress
// engines whose polling completes it, so that waiting on it can drive them.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/result.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace dtl::hip::detail {

class engine_core;
class state_base;

/// One progress pass of `engine`, if it still exists.
DTL_HIP_EXEC_API void drive_engine(const std::weak_ptr<engine_core>& engine) noexcept;
/// true while `engine` exists and its background thread polls it.
[[nodiscard]] DTL_HIP_EXEC_API bool engine_polled_in_background(const std::weak_ptr<engine_core>& engine) noexcept;

/// The exception being handled, as a status naming `what` threw it. Call only inside a catch block.
[[nodiscard]] DTL_HIP_EXEC_API status exception_to_status(std::string_view what) noexcept;

/// `error` itself, or invalid_argument when it is (wrongly) ok: an error must never read as success.
[[nodiscard]] DTL_HIP_EXEC_API status ensure_error(status error) noexcept;

/// The deadline `timeout` from now; no overflow for huge timeouts.
[[nodiscard]] DTL_HIP_EXEC_API std::chrono::steady_clock::time_point deadline_after(
    std::chrono::nanoseconds timeout) noexcept;

/// Work to run once a state is ready: exactly once, on the thread that completes the state, or on
/// the thread that adds it when the state is already ready. It must not throw.
class DTL_HIP_EXEC_API continuation {
 public:
  continuation() = default;
  continuation(const continuation&) = delete;
  continuation& operator=(const continuation&) = delete;
  virtual ~continuation() = default;
  virtual void run(state_base& ready) noexcept = 0;
};

class DTL_HIP_EXEC_API state_base {
 public:
  state_base() noexcept = default;
  explicit state_base(std::weak_ptr<engine_core> engine) noexcept : engine_(std::move(engine)) {}
  state_base(const state_base&) = delete;
  state_base& operator=(const state_base&) = delete;
  virtual ~state_base() = default;

  [[nodiscard]] bool ready() const noexcept { return ready_.load(std::memory_order_acquire); }
  /// ok on success, the error otherwise; meaningful once ready().
  [[nodiscard]] const status& outcome() const noexcept { return outcome_; }

  /// true for exactly one caller: the one that may complete this state.
  [[nodiscard]] bool claim() noexcept { return !claimed_.exchange(true, std::memory_order_acq_rel); }
  /// Publishes `outcome` (ok = success), wakes waiters, runs continuations. Only after claim().
  void finish(status outcome) noexcept;

  /// Completes with an error; false when the state was already completed.
  bool set_error(status error) noexcept {
    if (!claim()) return false;
    finish(ensure_error(std::move(error)));
    return true;
  }

  /// Runs `c` when this state is ready (at once, here, if it already is).
  void add_continuation(std::unique_ptr<continuation> c) noexcept;

  /// This state also completes through the engines that complete `other` (before it is shared).
  void add_engines_of(const state_base& other);

  /// One progress pass of every engine this state depends on.
  void drive() noexcept;
  /// Waits until ready or `deadline`; true when ready. Spins briefly, driving progress; then sleeps on
  /// the condition variable if every engine it depends on has a background poller (which completes
  /// the state and wakes it), and otherwise keeps driving progress, sleeping between passes.
  [[nodiscard]] bool wait_until(std::chrono::steady_clock::time_point deadline) noexcept;

 private:
  void add_engine(const std::weak_ptr<engine_core>& engine);
  /// true when every engine this state depends on has a background poller.
  [[nodiscard]] bool polled_in_background() const noexcept;

  std::weak_ptr<engine_core> engine_;
  std::vector<std::weak_ptr<engine_core>> more_engines_;
  std::atomic<bool> claimed_{false};
  std::atomic<bool> ready_{false};
  status outcome_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int waiters_ = 0;
  std::vector<std::unique_ptr<continuation>> continuations_;
};

/// The state of a future<T>: the outcome, plus the value on success.
template <class T>
class shared_state final : public state_base {
 public:
  using state_base::state_base;

  /// Completes with a value; false when the state was already completed.
  template <class... Args>
  bool set_value(Args&&... args) noexcept {
    if (!claim()) return false;
    try {
      value_.emplace(std::forward<Args>(args)...);
    } catch (...) {
      finish(exception_to_status("constructing a future's value"));
      return true;
    }
    finish(status{});
    return true;
  }


  /// The value (moved out) or the error. Once, by the single consumer, after ready().
  [[nodiscard]] result<T> take() {
    if (!outcome().ok()) return outcome();
    return result<T>(std::in_place, std::move(*value_));
  }

 private:
  std::optional<T> value_;
};

template <>
class shared_state<void> final : public state_base {
 public:
  using state_base::state_base;

  bool set_value() noexcept {
    if (!claim()) return false;
    finish(status{});
    return true;
  }
  /// Completes with `s`: success when s is ok.
  bool set_status(status s) noexcept {
    if (!claim()) return false;
    finish(std::move(s));
    return true;
  }
  [[nodiscard]] result<void> take() const { return outcome(); }
};

}  // namespace dtl::hip::detail
