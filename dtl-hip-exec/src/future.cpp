// SPDX-License-Identifier: MIT
#include <dtl/hip/future.hpp>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <thread>

namespace dtl::hip::detail {

namespace {

/// The waiting policy (see future.hpp). A waiter first spins: it drives progress and yields, up to
/// spin_passes times (a few microseconds), so that short waits end with the lowest latency.
constexpr int spin_passes = 32;
/// Then, without a background poller, it drives progress itself between sleeps of 5 us, doubling up to
/// 200 us: a finished kernel is noticed within 200 us, for about 5,000 wake-ups a second.
constexpr auto first_sleep = std::chrono::microseconds(5);
constexpr auto longest_sleep = std::chrono::microseconds(200);
/// With a background poller it sleeps on the state's condition variable until the poller completes
/// the state, waking this often only to check that the poller is still running.
constexpr auto background_recheck = std::chrono::milliseconds(10);
/// With no engine to drive, completion always comes with a notification; wake up rarely.
constexpr auto idle_sleep = std::chrono::milliseconds(100);

}  // namespace

void state_base::add_engine(const std::weak_ptr<engine_core>& engine) {
  if (engine.expired()) return;
  auto same = [&](const std::weak_ptr<engine_core>& e) { return !e.owner_before(engine) && !engine.owner_before(e); };
  if (engine_.expired()) {
    engine_ = engine;
    return;
  }
  if (same(engine_) || std::any_of(more_engines_.begin(), more_engines_.end(), same)) return;
  more_engines_.push_back(engine);
}

void state_base::add_engines_of(const state_base& other) {
  add_engine(other.engine_);
  for (const auto& e : other.more_engines_) add_engine(e);
}

void state_base::drive() noexcept {
  drive_engine(engine_);
  for (const auto& e : more_engines_) drive_engine(e);
}

bool state_base::polled_in_background() const noexcept {
  if (!engine_polled_in_background(engine_)) return false;
  return std::all_of(more_engines_.begin(), more_engines_.end(),
                     [](const std::weak_ptr<engine_core>& e) { return engine_polled_in_background(e); });
}

bool state_base::wait_until(std::chrono::steady_clock::time_point deadline) noexcept {
  if (ready()) return true;
  futures::detail::task_list::run_queued();  // a continuation waiting: what completes it may be queued
  const bool has_engine = !engine_.expired();
  auto sleep = std::chrono::duration_cast<std::chrono::nanoseconds>(first_sleep);
  for (int pass = 0;; ++pass) {
    const bool spinning = has_engine && pass < spin_passes;
    // Past the spin, a background poller does the polling and wakes this thread (publish() notifies).
    const bool left_to_poller = has_engine && !spinning && polled_in_background();
    if (has_engine && !left_to_poller) {
      drive();
      futures::detail::task_list::run_queued();
    }
    if (ready()) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    if (spinning) {
      std::this_thread::yield();
      continue;
    }
    std::chrono::nanoseconds limit = sleep;
    if (!has_engine) limit = idle_sleep;
    if (left_to_poller) limit = background_recheck;
    const auto slice = std::min<std::chrono::nanoseconds>(limit, deadline - now);
    {
      std::unique_lock lock(mutex());
      ready_cv().wait_for(lock, slice, [this] { return ready(); });
    }
    if (!left_to_poller) sleep = std::min<std::chrono::nanoseconds>(sleep * 2, longest_sleep);
  }
}

status ensure_error(status error) noexcept {
  if (!error.ok()) return error;
  return status(status_code::invalid_argument, "a future was completed with an ok status given as its error");
}

std::chrono::steady_clock::time_point deadline_after(std::chrono::nanoseconds timeout) noexcept {
  using clock = std::chrono::steady_clock;
  const auto now = clock::now();
  if (timeout <= std::chrono::nanoseconds::zero()) return now;
  if (timeout >= std::chrono::duration_cast<std::chrono::nanoseconds>(clock::time_point::max() - now))
    return clock::time_point::max();
  return now + std::chrono::duration_cast<clock::duration>(timeout);
}

status empty_future_status() {
  return status(status_code::invalid_state,
                "the future is empty (default-made, moved from, or consumed by get() or then())");
}

status wait_timeout_status(std::chrono::nanoseconds waited) {
  return status(status_code::timeout, fmt::format("the future was not ready after {}",
                                                  std::chrono::duration_cast<std::chrono::microseconds>(waited)));
}

}  // namespace dtl::hip::detail
