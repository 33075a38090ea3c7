// SPDX-License-Identifier: MIT
#pragma once
// event_poller: completes futures by polling pooled HIP events (and host completion sources).
//
//   future<void> f = engine.enqueue(stream);   // a pooled, timing-disabled event recorded now
//   engine.poll();                              // from any thread; or f.get(timeout) polls for you
//
// How it stays cheap and safe:
// - Events recorded on one stream complete in order, so each stream's pending operations are polled
//   oldest first and the pass stops at the first one still pending: a poll costs one hipEventQuery
//   per busy stream, not one per pending operation.
// - hipErrorNotReady means pending; any other error completes the operation's future with that
//   error (a kernel fault, a sticky error): a failure never looks like "still running".
// - Finished operations go to a shared ready list, and whichever thread polls next completes them one
//   at a time, outside every engine lock. Any number of threads may poll at once: they share out the
//   streams (one another thread is polling this instant is left to it) and all drain the ready list.
//   No poller waits on another, and a continuation may itself wait on another future (a poll from
//   inside a continuation works: no engine lock is held while user code runs).
// - Recording an event can block while a stream's command queue is full (about a thousand commands on
//   CUDA); pollers skip that stream meanwhile instead of waiting on it.
// - Each completion (and each continuation) is isolated: one that fails or throws loses no other.
// - unwatch() is safe during a poll. From outside every poll function it waits until a running call of
//   the source's poll function has returned. From inside a poll function (of any engine) it never
//   waits for another thread: two poll functions that unwatch each other would wait forever.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace dtl::hip {

class hip_stream;

namespace detail {

/// A host completion source: polled until it reports complete or failed.
class DTL_HIP_EXEC_API source_node {
 public:
  source_node() = default;
  source_node(const source_node&) = delete;
  source_node& operator=(const source_node&) = delete;
  virtual ~source_node() = default;
  /// Never throws: an exception from the user's function becomes failed(status).
  virtual event_status poll() noexcept = 0;
};

template <class F>
class source_node_impl final : public source_node {
 public:
  template <class G>
  explicit source_node_impl(G&& f) : f_(std::forward<G>(f)) {}
  event_status poll() noexcept override {
    try {
      return std::invoke(f_);
    } catch (...) {
      return event_status::failed(dtl::current_exception_status("a watch() poll function"));
    }
  }

 private:
  F f_;
};

}  // namespace detail

/// A registered host completion source: its id (for unwatch) and the future it completes.
struct watch_handle {
  std::uint64_t id = 0;
  future<void> done;
};

class DTL_HIP_EXEC_API event_poller {
 public:
  /// An engine with its own event pools (one per device, created when first used).
  event_poller();
  /// Stops the background thread. Futures still pending complete with status_code::canceled.
  /// Destroy an engine only when no other thread is using it.
  ~event_poller();
  event_poller(const event_poller&) = delete;
  event_poller& operator=(const event_poller&) = delete;

  /// The process-wide engine used when none is given. Never destroyed (so it cannot outlive the HIP
  /// runtime's teardown); its background thread, if started, is stopped at exit.
  [[nodiscard]] static event_poller& global();

  /// A future that completes when the work submitted to `stream` so far is done, or fails with the
  /// device's error. A moved-from stream gives a future failed with invalid_state.
  [[nodiscard]] future<void> enqueue(const hip_stream& stream);
  /// Same, for a stream of `device` given as a view.
  [[nodiscard]] future<void> enqueue(stream_ref stream, int device);

  /// Registers a host completion source: poll() calls `poll_fn` (an event_status function) until it
  /// returns complete or failed, which completes the returned future. It runs on polling threads,
  /// never on two at once; it may call back into the engine.
  template <class F>
  requires std::is_invocable_r_v < event_status, std::decay_t<F>
  & > [[nodiscard]] watch_handle watch(F&& poll_fn) {
    return watch_node(std::make_unique<detail::source_node_impl<std::decay_t<F>>>(std::forward<F>(poll_fn)));
  }
  /// Stops polling source `id` and completes its future with status_code::canceled; the function is
  /// never called again after unwatch() returns. If another thread is inside that function right now:
  /// called from outside every poll function, unwatch() waits for that call to return; called from
  /// inside a poll function it does not wait (the other thread may be waiting for this one), so that
  /// last call may still be finishing when unwatch() returns. false when the source had already
  /// completed or was removed.
  bool unwatch(std::uint64_t id);

  /// One progress pass: completes every operation whose work is done. Returns how many this call
  /// completed (others may be completed by concurrent pollers). Callable from any thread, also from
  /// a continuation.
  std::size_t poll() noexcept;
  /// Operations registered and not yet completed.
  [[nodiscard]] std::size_t pending() const noexcept;
  /// Blocks the host, polling, until nothing is pending; status_code::timeout after `timeout`. Says
  /// nothing about the operations' outcomes: their futures carry those.
  [[nodiscard]] result<void> synchronize(std::chrono::nanoseconds timeout = no_timeout);

  /// Starts a thread that polls every `interval` while work is pending and sleeps otherwise.
  /// invalid_argument for a negative interval; invalid_state if one is already running.
  [[nodiscard]] result<void> start_background(std::chrono::microseconds interval = std::chrono::microseconds(20));
  /// Stops and joins the background thread (no-op when none runs). invalid_state when called from
  /// the background thread itself (from a continuation).
  [[nodiscard]] result<void> stop_background();
  [[nodiscard]] bool background_running() const noexcept;

  /// Creates `count` idle events on `device` ahead of time, so enqueue() makes no event-creation call.
  /// The statuses of check_device() for a bad id or no device; as event_pool::reserve otherwise (a count
  /// above the engine's event_pool::default_max_cached is invalid_argument).
  [[nodiscard]] result<void> reserve_events(int device, std::size_t count);

 private:
  watch_handle watch_node(std::unique_ptr<detail::source_node> node);
  std::shared_ptr<detail::engine_core> core_;
};

/// Starts an engine's background thread for a scope.
class [[nodiscard]] DTL_HIP_EXEC_API scoped_background_progress {
 public:
  explicit scoped_background_progress(event_poller& engine = event_poller::global(),
                                      std::chrono::microseconds interval = std::chrono::microseconds(20));
  scoped_background_progress(const scoped_background_progress&) = delete;
  scoped_background_progress& operator=(const scoped_background_progress&) = delete;
  /// Stops the thread if this object started it.
  ~scoped_background_progress();
  /// ok when this object started the thread; invalid_state when one was already running.
  [[nodiscard]] const status& started() const noexcept { return started_; }

 private:
  event_poller& engine_;
  status started_;
};

}  // namespace dtl::hip
