// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's background progress mode (dtl/futures/background_progress.hpp): a thread that polls
// progress_engine every poll_interval, so that work registered there (GPU futures, execute_algorithm's
// async work, a program's own callbacks) moves along without the program polling.
//
//   dtl::futures::scoped_background_progress bg;      // starts the thread; its end stops and joins it
//
// Host futures need no polling (their waits block on a condition variable); this is for callbacks.
// With adaptive_polling the thread backs off (by backoff_multiplier, up to max_poll_interval) while
// nothing is registered, and goes back to poll_interval as soon as something is; wake() polls at once.
// start() while running keeps the running thread (and its settings); stop() joins it.

#include <dtl/core/types.hpp>
#include <dtl/futures/diagnostics.hpp>
#include <dtl/futures/progress.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dtl::futures {

/// Who moves the progress engine along: the program's own polls, or a background thread too.
enum class progress_mode { explicit_mode, background };

struct background_progress_config {
  progress_mode mode = progress_mode::explicit_mode;
  std::chrono::microseconds poll_interval{100};
  bool adaptive_polling = true;  ///< back off while nothing is registered
  std::chrono::milliseconds max_poll_interval{10};
  double backoff_multiplier = 1.5;
  std::chrono::milliseconds shutdown_timeout{5000};  ///< kept for upstream's API; stop() always joins

  [[nodiscard]] static background_progress_config defaults() { return {}; }
  [[nodiscard]] static background_progress_config background_mode() {
    background_progress_config c;
    c.mode = progress_mode::background;
    return c;
  }
  /// Polls every 10 us, without backing off.
  [[nodiscard]] static background_progress_config aggressive_background() {
    background_progress_config c = background_mode();
    c.poll_interval = std::chrono::microseconds(10);
    c.adaptive_polling = false;
    return c;
  }
};

/// The process-wide background polling thread.
class background_progress_controller {
 public:
  [[nodiscard]] static background_progress_controller& instance() noexcept {
    static background_progress_controller controller;
    return controller;
  }
  background_progress_controller(const background_progress_controller&) = delete;
  background_progress_controller& operator=(const background_progress_controller&) = delete;
  ~background_progress_controller() { stop(); }

  /// Starts the thread with `config`; a no-op while it runs.
  void start(background_progress_config config = background_progress_config::background_mode()) {
    const std::lock_guard control(control_);
    if (worker_.joinable()) return;
    {
      const std::lock_guard lock(mutex_);
      config_ = config;
      stopping_ = false;
    }
    worker_ = std::thread([this] { run(); });
    running_.store(true, std::memory_order_release);
    diagnostic_collector::instance().set_background_progress(true, true);
  }

  /// Stops the thread and waits for it (it finishes the pass under way); a no-op when none runs.
  void stop() {
    const std::lock_guard control(control_);
    if (!worker_.joinable()) return;
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    worker_.join();
    running_.store(false, std::memory_order_release);
    diagnostic_collector::instance().set_background_progress(false, false);
  }

  [[nodiscard]] bool is_running() const noexcept { return running_.load(std::memory_order_acquire); }
  [[nodiscard]] background_progress_config config() const {
    const std::lock_guard lock(mutex_);
    return config_;
  }
  /// Passes the thread has made, over every start.
  [[nodiscard]] size_type poll_count() const noexcept { return polls_.load(std::memory_order_relaxed); }
  /// Makes the thread poll now instead of at the end of its interval.
  void wake() {
    {
      const std::lock_guard lock(mutex_);
      woken_ = true;
    }
    wake_.notify_all();
  }

 private:
  // What the thread and stop() use is made first, so it is destroyed after this (a thread still
  // running at exit is stopped by this destructor).
  background_progress_controller() {
    (void)progress_engine::instance();
    (void)diagnostic_collector::instance();
  }

  void run() {
    auto& engine = progress_engine::instance();
    const background_progress_config config = this->config();
    const auto fastest = std::chrono::duration_cast<std::chrono::microseconds>(config.poll_interval);
    const auto slowest =
        std::max(fastest, std::chrono::duration_cast<std::chrono::microseconds>(config.max_poll_interval));
    auto interval = fastest;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      (void)engine.poll();
      polls_.fetch_add(1, std::memory_order_relaxed);
      if (config.adaptive_polling && !engine.has_pending()) {
        const auto longer =
            std::chrono::microseconds(static_cast<std::chrono::microseconds::rep>(
                                          static_cast<double>(interval.count()) * config.backoff_multiplier) +
                                      1);
        interval = std::min(longer, slowest);
      } else {
        interval = fastest;
      }
      lock.lock();
      wake_.wait_for(lock, interval, [this] { return stopping_ || woken_; });
      if (woken_) interval = fastest;
      woken_ = false;
    }
  }

  std::mutex control_;        // serializes start() and stop()
  mutable std::mutex mutex_;  // guards config_, stopping_ and woken_
  std::condition_variable wake_;
  background_progress_config config_;
  bool stopping_ = false;
  bool woken_ = false;
  std::thread worker_;  // touched under control_ only
  std::atomic<bool> running_{false};
  std::atomic<size_type> polls_{0};
};

inline void start_background_progress(
    background_progress_config config = background_progress_config::background_mode()) {
  background_progress_controller::instance().start(config);
}
inline void stop_background_progress() { background_progress_controller::instance().stop(); }
[[nodiscard]] inline bool is_background_progress_enabled() {
  return background_progress_controller::instance().is_running();
}

/// Background progress for a scope: starts the thread (unless running) and stops it at the end.
class scoped_background_progress {
 public:
  explicit scoped_background_progress(
      background_progress_config config = background_progress_config::background_mode()) {
    start_background_progress(config);
  }
  ~scoped_background_progress() { stop_background_progress(); }
  scoped_background_progress(const scoped_background_progress&) = delete;
  scoped_background_progress& operator=(const scoped_background_progress&) = delete;
};

}  // namespace dtl::futures

namespace dtl {
using futures::background_progress_config;
using futures::background_progress_controller;
using futures::is_background_progress_enabled;
using futures::progress_mode;
using futures::scoped_background_progress;
using futures::start_background_progress;
using futures::stop_background_progress;
}  // namespace dtl
