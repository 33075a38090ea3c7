// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's completion tracking (dtl/futures/completion.hpp): a completion_token per operation,
// a completion_set that completes once all (or any one) of its tokens have, and a completion_waiter
// that drives the progress engine until its set completes.
//
//   auto set = std::make_shared<dtl::futures::completion_set>(2);
//   auto a = set->create_token(0), b = set->create_token(1);
//   ... a->complete(); b->fail(); ...                 // from any thread, each once
//   dtl::futures::completion_waiter(set).wait();      // polls progress_engine until both are done
//
// Tokens keep what they report to alive, so a token may outlive its set. Callbacks run on the thread
// that completes the token (or the set), once.

#include <dtl/core/types.hpp>
#include <dtl/futures/progress.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace dtl::futures {

/// One operation's completion: complete() or fail(), the first call counts.
class completion_token {
 public:
  using callback_type = std::function<void(size_type index, bool success)>;

  /// `on_complete` (may be empty) gets this token's index and whether it succeeded, once.
  explicit completion_token(size_type index, callback_type on_complete = nullptr)
      : index_(index), on_complete_(std::move(on_complete)) {}

  void complete() { finish(true); }
  void fail() { finish(false); }

  [[nodiscard]] bool is_complete() const noexcept { return complete_.load(std::memory_order_acquire); }
  /// True once completed by complete() (false while pending and after fail()).
  [[nodiscard]] bool is_success() const noexcept { return success_.load(std::memory_order_acquire); }
  [[nodiscard]] size_type index() const noexcept { return index_; }

 private:
  void finish(bool success) {
    if (claimed_.exchange(true, std::memory_order_acq_rel)) return;
    success_.store(success, std::memory_order_release);
    complete_.store(true, std::memory_order_release);
    if (on_complete_) on_complete_(index_, success);
  }

  size_type index_;
  std::atomic<bool> claimed_{false};
  std::atomic<bool> complete_{false};
  std::atomic<bool> success_{false};
  callback_type on_complete_;
};

/// A group of operations that completes when all of them (mode::all) or the first (mode::any) have.
/// A failed token counts as completed.
class completion_set {
 public:
  enum class mode { all, any };
  using callback_type = std::function<void()>;

  /// A set of `count` operations; one of none is complete at once.
  explicit completion_set(size_type count, mode m = mode::all) : state_(std::make_shared<shared>(count, m)) {}

  /// A token for operation `index` (below total_count()) that reports to this set.
  [[nodiscard]] std::shared_ptr<completion_token> create_token(size_type index) {
    return std::make_shared<completion_token>(index, [s = state_](size_type i, bool) { s->token_completed(i); });
  }

  [[nodiscard]] bool is_complete() const noexcept { return state_->complete.load(std::memory_order_acquire); }
  /// Under mode::any, the index of the first token to complete; total_count() before that.
  [[nodiscard]] size_type first_completed() const noexcept { return state_->first.load(std::memory_order_acquire); }
  [[nodiscard]] size_type completed_count() const noexcept { return state_->completed.load(std::memory_order_acquire); }
  [[nodiscard]] size_type total_count() const noexcept { return state_->count; }

  /// Runs `callback` once the set completes (at once, here, if it already has); replaces an earlier one.
  void on_complete(callback_type callback) {
    std::unique_lock lock(state_->mutex);
    if (!state_->complete.load(std::memory_order_acquire)) {
      state_->callback = std::move(callback);
      return;
    }
    lock.unlock();
    if (callback) callback();
  }

  /// Polls the progress engine until the set completes; true.
  bool wait_with_progress() {
    while (!is_complete()) {
      if (poll() == 0 && !is_complete()) std::this_thread::yield();
    }
    return true;
  }

 private:
  struct shared {
    shared(size_type n, mode m) : count(n), how(m), first(n), complete(n == 0) {}
    void token_completed(size_type index) {
      const size_type done = completed.fetch_add(1, std::memory_order_acq_rel) + 1;
      if (how == mode::any) {
        size_type none = count;
        first.compare_exchange_strong(none, index, std::memory_order_acq_rel);
      }
      if (how == mode::all && done < count) return;
      callback_type run;
      {
        const std::lock_guard lock(mutex);
        if (complete.exchange(true, std::memory_order_acq_rel)) return;
        run = std::move(callback);
      }
      if (run) run();
    }

    const size_type count;
    const mode how;
    std::atomic<size_type> completed{0};
    std::atomic<size_type> first;
    std::atomic<bool> complete;
    std::mutex mutex;  // orders setting the callback against completing
    callback_type callback;
  };

  std::shared_ptr<shared> state_;
};

/// Drives the progress engine for one completion_set.
class completion_waiter {
 public:
  explicit completion_waiter(std::shared_ptr<completion_set> set) : set_(std::move(set)) {}

  /// Polls until the set completes; true.
  bool wait() { return set_->wait_with_progress(); }
  /// One progress pass; whether the set has completed.
  bool poll() {
    (void)futures::poll();
    return set_->is_complete();
  }
  [[nodiscard]] bool is_complete() const noexcept { return set_->is_complete(); }

 private:
  std::shared_ptr<completion_set> set_;
};

}  // namespace dtl::futures

namespace dtl {
using futures::completion_set;
using futures::completion_token;
using futures::completion_waiter;
}  // namespace dtl
