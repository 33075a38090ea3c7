// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's callback executor (dtl/futures/callback_executor.hpp): runs callbacks away from the
// thread that hands them over, so a long one does not hold up whoever completes futures or polls.
//
//   dtl::futures::callback_executor ex(dtl::futures::executor_config::thread_pool_execution(4));
//   ex.enqueue([] { ... });   // false once shut down (or while max_queue_depth callbacks wait)
//   ex.drain();               // returns once everything handed over so far has run
//
// inline_mode runs each callback inside enqueue(); single_thread on one worker thread, in order;
// thread_pool on thread_count workers (0: one per hardware thread). A callback's exception is swallowed
// (it counts as executed). shutdown() and the destructor refuse new callbacks, run the queued ones and
// join the workers.

#include <dtl/core/types.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace dtl::futures {

enum class executor_mode { inline_mode, single_thread, thread_pool };

struct executor_config {
  executor_mode mode = executor_mode::single_thread;
  size_type thread_count = 0;                        ///< thread_pool's workers; 0: one per hardware thread
  size_type max_queue_depth = 0;                     ///< enqueue() refuses while this many wait; 0: no limit
  std::chrono::milliseconds shutdown_timeout{5000};  ///< kept for upstream's API; shutdown() always drains

  [[nodiscard]] static executor_config defaults() { return {}; }
  [[nodiscard]] static executor_config inline_execution() {
    executor_config c;
    c.mode = executor_mode::inline_mode;
    return c;
  }
  [[nodiscard]] static executor_config thread_pool_execution(size_type threads = 0) {
    executor_config c;
    c.mode = executor_mode::thread_pool;
    c.thread_count = threads;
    return c;
  }
};

class callback_executor {
 public:
  using callback_type = std::function<void()>;

  explicit callback_executor(executor_config config = executor_config::defaults()) : config_(config) {
    const size_type workers = worker_count();
    workers_.reserve(workers);
    for (size_type i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  }
  callback_executor(const callback_executor&) = delete;
  callback_executor& operator=(const callback_executor&) = delete;
  ~callback_executor() { shutdown(); }

  /// Hands `callback` over; false after shutdown() or while the queue is full.
  bool enqueue(callback_type callback) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) return false;
      if (config_.max_queue_depth > 0 && queue_.size() >= config_.max_queue_depth) return false;
      ++enqueued_;
      if (config_.mode != executor_mode::inline_mode) {
        queue_.push_back(std::move(callback));
        work_ready_.notify_one();
        return true;
      }
      ++running_;
    }
    execute(std::move(callback));
    return true;
  }

  /// Blocks until every callback handed over so far (and any they hand over) has run.
  void drain() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
  }

  /// Refuses new callbacks, runs the queued ones and joins the workers; idempotent.
  void shutdown() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    const std::lock_guard join_lock(join_mutex_);
    for (auto& w : workers_)
      if (w.joinable()) w.join();
    drain();  // inline callbacks still running on other threads
  }

  [[nodiscard]] bool is_running() const {
    const std::lock_guard lock(mutex_);
    return !stopping_;
  }
  /// Callbacks queued or running.
  [[nodiscard]] size_type pending_count() const {
    const std::lock_guard lock(mutex_);
    return queue_.size() + running_;
  }
  [[nodiscard]] size_type total_executed() const {
    const std::lock_guard lock(mutex_);
    return executed_;
  }
  [[nodiscard]] size_type total_enqueued() const {
    const std::lock_guard lock(mutex_);
    return enqueued_;
  }
  [[nodiscard]] executor_mode mode() const noexcept { return config_.mode; }

 private:
  [[nodiscard]] size_type worker_count() const {
    switch (config_.mode) {
      case executor_mode::inline_mode: return 0;
      case executor_mode::single_thread: return 1;
      case executor_mode::thread_pool: break;
    }
    if (config_.thread_count > 0) return config_.thread_count;
    return std::max<size_type>(1, std::thread::hardware_concurrency());
  }

  /// Runs one callback that running_ already counts, and destroys it before it counts as executed.
  void execute(callback_type callback) noexcept {
    try {
      if (callback) callback();
    } catch (...) {  // upstream's contract: a failing callback is dropped, the others still run
    }
    callback = nullptr;
    const std::lock_guard lock(mutex_);
    ++executed_;
    if (--running_ == 0 && queue_.empty()) idle_.notify_all();
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      callback_type next = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
      lock.unlock();
      execute(std::move(next));
      lock.lock();
    }
  }

  const executor_config config_;
  mutable std::mutex mutex_;  // guards everything below but the workers
  std::condition_variable work_ready_;
  std::condition_variable idle_;
  std::deque<callback_type> queue_;
  size_type running_ = 0;
  size_type enqueued_ = 0;
  size_type executed_ = 0;
  bool stopping_ = false;
  std::mutex join_mutex_;  // one shutdown() joins at a time
  std::vector<std::thread> workers_;
};

/// The process-wide executor (single_thread), made on first use.
[[nodiscard]] inline callback_executor& global_callback_executor() {
  static callback_executor executor;
  return executor;
}

}  // namespace dtl::futures

namespace dtl {
using futures::callback_executor;
using futures::executor_config;
using futures::executor_mode;
using futures::global_callback_executor;
}  // namespace dtl
