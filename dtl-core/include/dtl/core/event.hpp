// SPDX-License-Identifier: MIT
#pragma once
// The state of asynchronous work, and the Event concept.
//
// One vocabulary for completion and waiting, in every layer:
// - synchronize(): blocks the calling (host) thread until the work is done; returns its error.
// - query(): says, without blocking, whether the work is done: an event_status (pending, complete,
//   or failed with the error), which converts to true only when complete.
// - wait(event), on a stream: later work on that stream waits for the event (ordering on the device;
//   the host never blocks).

#include <dtl/core/result.hpp>

#include <concepts>

namespace dtl {

/// What a query of asynchronous work found: pending, complete, or failed with an error.
/// Converts to true only when the work is complete, so `if (event.query())` reads "the work is done".
class [[nodiscard]] event_status {
 public:
  enum class state { pending, complete, failed };

  static event_status pending() noexcept { return event_status(state::pending, {}); }
  static event_status complete() noexcept { return event_status(state::complete, {}); }
  static event_status failed(status error) noexcept { return event_status(state::failed, std::move(error)); }

  [[nodiscard]] state get() const noexcept { return state_; }
  [[nodiscard]] bool is_pending() const noexcept { return state_ == state::pending; }
  [[nodiscard]] bool is_complete() const noexcept { return state_ == state::complete; }
  [[nodiscard]] bool is_failed() const noexcept { return state_ == state::failed; }
  /// The error of a failed query; ok otherwise.
  [[nodiscard]] const status& error() const noexcept { return error_; }
  explicit operator bool() const noexcept { return is_complete(); }

 private:
  event_status(state s, status e) noexcept : state_(s), error_(std::move(e)) {}
  state state_;
  status error_;
};

template <class E>
concept Event = requires(E& e, const E& ce) {
  { ce.query() } -> std::same_as<event_status>;
  { e.synchronize() } -> std::same_as<result<void>>;
};

}  // namespace dtl
