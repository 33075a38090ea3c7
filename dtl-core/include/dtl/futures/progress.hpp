// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's explicit progress API (dtl::futures::progress_engine and the free poll functions).
//
// A program registers callbacks that move its own asynchronous work along; poll() runs each once and drops
// those that return false (done). GPU futures need no callback of their own: dtl-hip-exec registers one
// that drives its progress engine while such futures are pending, so upstream's
// `dtl::futures::progress_engine::instance().poll()` completes them (and runs their continuations) too.
// One thread polls at a time; a caller that finds another thread polling returns 0 at once, so a callback
// never runs twice concurrently. Callbacks run without the engine's lock held: they may register others.

#include <dtl/core/types.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace dtl::futures {

/// Where a progress-tracked operation stands (upstream's values).
enum class progress_state { pending, ready, error };

/// Moves one piece of work along; returns true while there is more to do, false once it is done.
using progress_callback = std::function<bool()>;

/// The process-wide registry of progress callbacks.
class progress_engine {
 public:
  [[nodiscard]] static progress_engine& instance() noexcept {
    static progress_engine engine;
    return engine;
  }

  progress_engine(const progress_engine&) = delete;
  progress_engine& operator=(const progress_engine&) = delete;

  /// Adds a callback; the id unregisters it.
  size_type register_callback(progress_callback callback) {
    const std::lock_guard lock(mutex_);
    const size_type id = next_id_++;
    callbacks_.push_back({id, std::make_shared<progress_callback>(std::move(callback))});
    return id;
  }

  /// Removes a callback (a no-op for an id that is done or unknown). A poll running it now finishes that run.
  void unregister_callback(size_type id) {
    const std::lock_guard lock(mutex_);
    std::erase_if(callbacks_, [id](const entry& e) { return e.id == id; });
  }

  /// Runs every registered callback once and drops those that report done. Returns how many reported more
  /// to do (upstream's count): 0 when none did, nothing is registered or another thread is polling. A
  /// callback that throws is dropped and its exception swallowed, as upstream's: the poll goes on.
  size_type poll() {
    bool expected = false;
    if (!polling_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return 0;
    const struct release {
      std::atomic<bool>& flag;
      ~release() { flag.store(false, std::memory_order_release); }
    } unlock_polling{polling_};
    passes_.fetch_add(1, std::memory_order_relaxed);
    last_pass_.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);

    std::vector<entry> pass;
    {
      const std::lock_guard lock(mutex_);
      pass = callbacks_;
    }
    std::vector<size_type> done;
    size_type more_to_do = 0;
    for (const entry& e : pass) {
      bool again = false;
      try {
        again = (*e.callback)();
      } catch (...) {  // upstream's contract: a failing callback is dropped, not reported
      }
      if (again)
        ++more_to_do;
      else
        done.push_back(e.id);
    }
    if (!done.empty()) {
      const std::lock_guard lock(mutex_);
      std::erase_if(callbacks_, [&](const entry& e) { return std::ranges::find(done, e.id) != done.end(); });
    }
    return more_to_do;
  }

  [[nodiscard]] bool has_pending() const {
    const std::lock_guard lock(mutex_);
    return !callbacks_.empty();
  }

  [[nodiscard]] size_type pending_count() const {
    const std::lock_guard lock(mutex_);
    return callbacks_.size();
  }

  /// Passes made so far (polls that found another thread polling do not count).
  [[nodiscard]] size_type poll_count() const noexcept { return passes_.load(std::memory_order_relaxed); }
  /// When the last pass began (the clock's epoch before the first).
  [[nodiscard]] std::chrono::steady_clock::time_point last_poll_time() const noexcept {
    return std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(last_pass_.load(std::memory_order_relaxed)));
  }

 private:
  struct entry {
    size_type id;
    std::shared_ptr<progress_callback> callback;  // shared: a pass runs its copy outside the lock
  };

  progress_engine() = default;
  ~progress_engine() = default;

  mutable std::mutex mutex_;
  std::vector<entry> callbacks_;
  size_type next_id_{1};
  std::atomic<bool> polling_{false};
  std::atomic<size_type> passes_{0};
  std::atomic<std::chrono::steady_clock::rep> last_pass_{0};
};

/// One pass over the registered callbacks; the explicit polling call of upstream's API.
inline size_type poll() { return progress_engine::instance().poll(); }

/// The older name of poll().
inline size_type make_progress() { return poll(); }

/// Up to max_polls passes, stopping early once nothing is registered; the sum of poll()'s counts.
inline size_type make_progress(size_type max_polls) {
  size_type ran = 0;
  for (size_type i = 0; i < max_polls && progress_engine::instance().has_pending(); ++i) ran += poll();
  return ran;
}

/// Polls until at least one callback is done; false when nothing was registered.
inline bool poll_one() {
  auto& engine = progress_engine::instance();
  const size_type before = engine.pending_count();
  if (before == 0) return false;
  while (engine.has_pending() && engine.pending_count() >= before) {
    if (engine.poll() == 0) std::this_thread::yield();
  }
  return true;
}

/// Polls for about `duration` (less when nothing is left to poll); the sum of poll()'s counts.
template <class Rep, class Period>
size_type poll_for(std::chrono::duration<Rep, Period> duration) {
  const auto deadline = std::chrono::steady_clock::now() + duration;
  size_type ran = 0;
  while (std::chrono::steady_clock::now() < deadline && progress_engine::instance().has_pending()) {
    const size_type n = poll();
    ran += n;
    if (n == 0) std::this_thread::yield();
  }
  return ran;
}

/// Polls until predicate() holds: true, or false once `timeout` has passed (0: no limit).
template <class Predicate>
bool poll_until(Predicate predicate, std::chrono::milliseconds timeout = std::chrono::milliseconds{0}) {
  const auto start = std::chrono::steady_clock::now();
  while (!predicate()) {
    if (timeout.count() > 0 && std::chrono::steady_clock::now() - start >= timeout) return false;
    if (poll() == 0) std::this_thread::yield();
  }
  return true;
}

/// Polls until every callback is done: true, or false after max_iterations passes (0: no limit).
inline bool drain_progress(size_type max_iterations = 0) {
  for (size_type i = 0; progress_engine::instance().has_pending(); ++i) {
    if (max_iterations > 0 && i >= max_iterations) return false;
    if (poll() == 0) std::this_thread::yield();
  }
  return true;
}

/// Polls when the scope ends, exceptions included: max_polls passes (0: one).
class progress_guard {
 public:
  explicit progress_guard(size_type max_polls = 1) noexcept : max_polls_(max_polls) {}
  progress_guard(const progress_guard&) = delete;
  progress_guard& operator=(const progress_guard&) = delete;
  ~progress_guard() {
    try {
      make_progress(max_polls_ == 0 ? 1 : max_polls_);
    } catch (...) {  // a destructor must not throw (the engine's lock can)
    }
  }
  void poll() { make_progress(); }

 private:
  size_type max_polls_;
};

/// A callback registered for the lifetime of this object.
class scoped_progress_callback {
 public:
  explicit scoped_progress_callback(progress_callback callback)
      : id_(progress_engine::instance().register_callback(std::move(callback))) {}
  scoped_progress_callback(const scoped_progress_callback&) = delete;
  scoped_progress_callback& operator=(const scoped_progress_callback&) = delete;
  ~scoped_progress_callback() { progress_engine::instance().unregister_callback(id_); }
  [[nodiscard]] size_type id() const noexcept { return id_; }

 private:
  size_type id_;
};

}  // namespace dtl::futures

namespace dtl {  // upstream re-exports the progress API into dtl::
using futures::drain_progress;
using futures::make_progress;
using futures::poll;
using futures::poll_for;
using futures::poll_one;
using futures::poll_until;
using futures::progress_callback;
using futures::progress_engine;
using futures::progress_guard;
using futures::progress_state;
using futures::scoped_progress_callback;
}  // namespace dtl
