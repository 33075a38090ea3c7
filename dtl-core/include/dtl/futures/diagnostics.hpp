// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's wait timeouts and futures diagnostics (dtl/futures/diagnostics.hpp).
//
// distributed_future::wait() gives up after effective_wait_timeout() (30 s by default, 0: never) and
// throws timeout_exception, which carries a snapshot of what was pending (progress_diagnostics); the
// snapshot's text also goes to timeout_config::on_timeout_callback first. DTL_CI_MODE in the environment
// selects ci_wait_timeout instead of default_wait_timeout. A program may register its own long-running
// operations with diagnostic_collector so that such a report names them.

#include <dtl/core/types.hpp>
#include <dtl/futures/progress.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dtl::futures {

/// How long a plain wait() may block, and what happens when it gives up.
struct timeout_config {
  std::chrono::milliseconds default_wait_timeout{30000};        ///< 0: no limit
  std::chrono::milliseconds ci_wait_timeout{30000};             ///< used instead when DTL_CI_MODE is set
  std::chrono::milliseconds poll_interval{1};                   ///< how often a polling waiter looks again
  bool enable_timeout_diagnostics = true;                       ///< snapshot and callback on a timeout
  std::function<void(const std::string&)> on_timeout_callback;  ///< gets the snapshot's text

  [[nodiscard]] static timeout_config defaults() { return {}; }
  [[nodiscard]] static timeout_config ci_mode() { return {}; }
  [[nodiscard]] static timeout_config lenient() {
    timeout_config c;
    c.default_wait_timeout = std::chrono::minutes(5);
    c.ci_wait_timeout = std::chrono::minutes(1);
    return c;
  }
  [[nodiscard]] static timeout_config no_timeout() {
    timeout_config c;
    c.default_wait_timeout = c.ci_wait_timeout = std::chrono::milliseconds(0);
    return c;
  }
};

/// One operation registered with diagnostic_collector.
struct pending_future_info {
  size_type id = 0;
  std::chrono::steady_clock::time_point created_at;
  std::string description;
  bool is_waiting = false;
};

/// What was pending at one moment.
struct progress_diagnostics {
  std::chrono::steady_clock::time_point snapshot_time;
  size_type pending_callback_count = 0;    ///< progress_engine callbacks
  size_type pending_cuda_event_count = 0;  ///< upstream's CUDA events; this build's GPU work polls as callbacks
  size_type pending_future_count = 0;
  size_type total_polls = 0;
  std::chrono::steady_clock::time_point last_poll_time;
  bool background_progress_enabled = false;
  bool background_thread_running = false;
  std::vector<pending_future_info> pending_futures;

  /// A readable report, headed "=== DTL Futures Diagnostics ===".
  [[nodiscard]] std::string to_string() const {
    using std::chrono::duration_cast;
    using ms = std::chrono::milliseconds;
    std::ostringstream out;
    out << "=== DTL Futures Diagnostics ===\n"
        << "Pending callbacks: " << pending_callback_count << '\n'
        << "Pending CUDA events: " << pending_cuda_event_count << '\n'
        << "Pending futures: " << pending_future_count << '\n'
        << "Total polls: " << total_polls << '\n'
        << "Time since last poll: " << duration_cast<ms>(snapshot_time - last_poll_time).count() << "ms\n"
        << "Background progress: " << (background_progress_enabled ? "enabled" : "disabled");
    if (background_progress_enabled) out << " (thread " << (background_thread_running ? "running" : "stopped") << ')';
    out << '\n';
    for (const auto& f : pending_futures) {
      out << "  future " << f.id << ": " << (f.description.empty() ? "(no description)" : f.description) << ", age "
          << duration_cast<ms>(snapshot_time - f.created_at).count() << "ms" << (f.is_waiting ? ", waited on" : "")
          << '\n';
    }
    out << "===============================\n";
    return out.str();
  }
};

/// The process-wide record of registered operations and polls.
class diagnostic_collector {
 public:
  [[nodiscard]] static diagnostic_collector& instance() noexcept {
    static diagnostic_collector collector;
    return collector;
  }
  diagnostic_collector(const diagnostic_collector&) = delete;
  diagnostic_collector& operator=(const diagnostic_collector&) = delete;

  /// Registers an operation; the id (never 0) unregisters it.
  size_type register_future(std::string description = {}) {
    const std::lock_guard lock(mutex_);
    const size_type id = next_id_++;
    pending_.push_back({id, std::chrono::steady_clock::now(), std::move(description), false});
    return id;
  }
  void unregister_future(size_type id) {
    const std::lock_guard lock(mutex_);
    std::erase_if(pending_, [id](const pending_future_info& f) { return f.id == id; });
  }
  /// Notes that someone waits on the operation.
  void mark_waiting(size_type id) {
    const std::lock_guard lock(mutex_);
    if (auto* f = find(id)) f->is_waiting = true;
  }
  /// Notes that a wait on the operation timed out.
  void record_timeout(size_type id) {
    const std::lock_guard lock(mutex_);
    ++timeouts_;
    if (auto* f = find(id)) f->is_waiting = true;
  }
  /// Counts a poll made outside progress_engine (whose own passes count anyway).
  void record_poll() {
    const std::lock_guard lock(mutex_);
    ++recorded_polls_;
    last_recorded_poll_ = std::chrono::steady_clock::now();
  }
  /// Polls so far: progress_engine's passes and the recorded ones.
  [[nodiscard]] size_type total_polls() const {
    const std::lock_guard lock(mutex_);
    return recorded_polls_ + progress_engine::instance().poll_count();
  }
  [[nodiscard]] size_type timeout_count() const {
    const std::lock_guard lock(mutex_);
    return timeouts_;
  }
  /// Set by the background progress thread as it starts and stops.
  void set_background_progress(bool enabled, bool running) {
    const std::lock_guard lock(mutex_);
    background_enabled_ = enabled;
    background_running_ = running;
  }

  [[nodiscard]] progress_diagnostics get_diagnostics() const {
    auto& engine = progress_engine::instance();
    progress_diagnostics d;
    d.pending_callback_count = engine.pending_count();
    const std::lock_guard lock(mutex_);
    d.snapshot_time = std::chrono::steady_clock::now();
    d.total_polls = recorded_polls_ + engine.poll_count();
    d.last_poll_time = std::max(last_recorded_poll_, engine.last_poll_time());
    d.background_progress_enabled = background_enabled_;
    d.background_thread_running = background_running_;
    d.pending_futures = pending_;
    d.pending_future_count = pending_.size();
    return d;
  }

 private:
  diagnostic_collector() = default;
  pending_future_info* find(size_type id) {
    auto it = std::ranges::find(pending_, id, &pending_future_info::id);
    return it == pending_.end() ? nullptr : &*it;
  }

  mutable std::mutex mutex_;
  std::vector<pending_future_info> pending_;
  size_type next_id_ = 1;
  size_type recorded_polls_ = 0;
  size_type timeouts_ = 0;
  std::chrono::steady_clock::time_point last_recorded_poll_{};
  bool background_enabled_ = false;
  bool background_running_ = false;
};

/// What a wait that gave up throws: the message and the snapshot taken then.
class timeout_exception : public std::runtime_error {
 public:
  explicit timeout_exception(const std::string& message, progress_diagnostics diagnostics = {})
      : std::runtime_error(message), diagnostics_(std::move(diagnostics)) {}
  [[nodiscard]] const progress_diagnostics& diagnostics() const noexcept { return diagnostics_; }

 private:
  progress_diagnostics diagnostics_;
};

namespace detail {
struct global_timeout {
  std::mutex mutex;
  timeout_config config;
};
inline global_timeout& the_global_timeout() {
  static global_timeout g;
  return g;
}
}  // namespace detail

/// A copy of the process-wide timeout settings.
[[nodiscard]] inline timeout_config global_timeout_config() {
  auto& g = detail::the_global_timeout();
  const std::lock_guard lock(g.mutex);
  return g.config;
}
inline void set_global_timeout_config(timeout_config config) {
  auto& g = detail::the_global_timeout();
  const std::lock_guard lock(g.mutex);
  g.config = std::move(config);
}

/// True when DTL_CI_MODE is set (read once).
[[nodiscard]] inline bool is_ci_mode() noexcept {
  static const bool ci = std::getenv("DTL_CI_MODE") != nullptr;
  return ci;
}

/// The limit a plain wait() uses under `config` (0: none).
[[nodiscard]] inline std::chrono::milliseconds effective_wait_timeout(const timeout_config& config) noexcept {
  return is_ci_mode() ? config.ci_wait_timeout : config.default_wait_timeout;
}
[[nodiscard]] inline std::chrono::milliseconds effective_wait_timeout() {
  return effective_wait_timeout(global_timeout_config());
}

/// "Timeout waiting for: <operation>" and the current snapshot.
[[nodiscard]] inline std::string format_timeout_diagnostics(const std::string& operation) {
  return "Timeout waiting for: " + operation + '\n' + diagnostic_collector::instance().get_diagnostics().to_string();
}

namespace detail {
/// What a wait() that gave up after `limit` under `config` does: report, then throw timeout_exception.
[[noreturn]] inline void throw_wait_timeout(const timeout_config& config, std::chrono::milliseconds limit) {
  const std::string message = "a future's wait() passed its timeout of " + std::to_string(limit.count()) + "ms";
  if (!config.enable_timeout_diagnostics) throw timeout_exception(message);
  auto snapshot = diagnostic_collector::instance().get_diagnostics();
  if (config.on_timeout_callback) config.on_timeout_callback(snapshot.to_string());
  throw timeout_exception(message, std::move(snapshot));
}
}  // namespace detail

}  // namespace dtl::futures

namespace dtl {
using futures::diagnostic_collector;
using futures::effective_wait_timeout;
using futures::global_timeout_config;
using futures::pending_future_info;
using futures::progress_diagnostics;
using futures::set_global_timeout_config;
using futures::timeout_config;
using futures::timeout_exception;
}  // namespace dtl
