// SPDX-License-Identifier: MIT
#pragma once
// The shared state behind dtl::futures::distributed_future and distributed_promise (upstream DTL's
// futures). Not for users: distributed_future.hpp is the interface. dtl::hip's future states
// (dtl/hip/future_state.hpp) build on the same completion and valued_state, with their own waiting.
//
// A state completes once: claim() picks the one completer, publish() makes the outcome visible, wakes
// the waiters and then runs the continuations on the completing thread. A continuation added to a ready
// state runs at once, on the adding thread (from inside a continuation: once that one returns).
// Continuations run from a per-thread work list, never one inside another: completing the head of a
// chain of a million then()s costs heap, not stack, whoever completes it (a user thread, a GPU poller,
// a dropped promise); the outermost completion returns once the whole chain has run. Waiting blocks on a
// condition variable; a state whose completion needs someone to drive a progress engine (GPU work,
// dtl/hip/distributed_future.hpp) lists that engine's drivers, and a waiter drives them between short
// sleeps instead.

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_boundary.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace dtl::futures {

/// What a wait says (upstream's values): ready (a value), error (failed), timeout (still pending).
enum class future_status { pending, ready, error, timeout };

/// when_any's value: which input completed first, and its value.
template <class T>
struct when_any_result {
  size_type index{0};
  T value{};
};
template <>
struct when_any_result<void> {
  size_type index{0};
};

namespace detail {

/// One non-blocking progress pass of the engine whose polling completes a state.
class progress_driver {
 public:
  progress_driver() = default;
  progress_driver(const progress_driver&) = delete;
  progress_driver& operator=(const progress_driver&) = delete;
  virtual ~progress_driver() = default;
  virtual void drive() noexcept = 0;
};

class completion;

/// Work to run once a state is ready, given that state; it must not throw.
class task {
 public:
  task() = default;
  task(const task&) = delete;
  task& operator=(const task&) = delete;
  virtual ~task() = default;
  virtual void run(completion& ready) noexcept = 0;
};

template <class F>
class task_of final : public task {
 public:
  explicit task_of(F f) : f_(std::move(f)) {}
  void run(completion&) noexcept override { f_(); }

 private:
  F f_;
};

/// The exception being handled as a status (dtl/core/status_boundary.hpp). Call only inside a catch block.
inline status current_exception_status() noexcept { return dtl::current_exception_status("a future's continuation"); }

/// The tasks of ready states waiting to run on this thread, and finished ones waiting to be destroyed.
/// Whoever finds the list idle drains it; a task that completes another state (or destroys one holding
/// tasks) only appends, so a chain of continuations runs in a loop instead of a recursion.
class task_list {
 public:
  /// Runs `t` on `state` (destroys it unrun when `state` is null), now or from the drain under way.
  static void run(std::shared_ptr<completion> state, std::unique_ptr<task> t) noexcept {
    auto& list = of_this_thread();
    try {
      list.items_.emplace_back();
    } catch (...) {  // no memory to queue it: run it here, recursion and all
      run_one(state, t);
      return;
    }
    list.items_.back().state = std::move(state);
    list.items_.back().t = std::move(t);
    if (list.depth_ == 0) list.drain();
  }
  /// Runs what this thread has queued, for a continuation about to block on a future: the work that
  /// completes it may be queued behind the continuation itself.
  static void run_queued() noexcept {
    auto& list = of_this_thread();
    if (list.depth_ > 0) list.drain();
  }

 private:
  struct item {
    std::shared_ptr<completion> state;  // keeps the state alive until its task has run
    std::unique_ptr<task> t;
  };
  static task_list& of_this_thread() noexcept {
    static thread_local task_list list;
    return list;
  }
  static void run_one(const std::shared_ptr<completion>& state, std::unique_ptr<task>& t) noexcept;
  void drain() noexcept {
    ++depth_;
    while (next_ < items_.size()) {  // in order; running an item may append more
      item it = std::move(items_[next_++]);
      run_one(it.state, it.t);
      // `it` goes here: destroying the task may release states, whose tasks only join the list.
    }
    if (--depth_ > 0) return;
    next_ = 0;
    if (items_.capacity() > 1024) {
      std::vector<item>().swap(items_);  // a long chain's list does not stay with the thread
    } else {
      items_.clear();
    }
  }

  std::vector<item> items_;  // those before next_ have run
  std::size_t next_ = 0;
  int depth_ = 0;  // drains under way on this thread (more than one: run_queued() from a task)
};

/// What every future state is, these futures' and dtl::hip's (dtl/hip/future_state.hpp): it completes
/// once, with an outcome, and then runs the tasks added to it. How a waiter waits is the derived
/// state's; it waits on ready_cv() under mutex(), which publish() notifies. States live in shared_ptrs
/// (make_shared): the work list holds each one until its tasks have run.
class completion : public std::enable_shared_from_this<completion> {
 public:
  completion() = default;
  completion(const completion&) = delete;
  completion& operator=(const completion&) = delete;
  /// Tasks never run (a chain dropped before its head completed) are destroyed through the work list,
  /// so destroying a long pending chain does not recurse either.
  virtual ~completion() {
    for (auto& t : tasks_) task_list::run(nullptr, std::move(t));
  }

  [[nodiscard]] bool ready() const noexcept { return ready_.load(std::memory_order_acquire); }
  /// ok on success, the error otherwise; meaningful once ready().
  [[nodiscard]] const status& outcome() const noexcept {
    static const status ok{};
    return outcome_ ? *outcome_ : ok;
  }
  [[nodiscard]] bool has_error() const noexcept { return ready() && !outcome().ok(); }

  /// Runs `t` once this state is ready: at once, here, if it already is (added from inside a
  /// continuation: on this thread, once that continuation returns).
  void add_task(std::unique_ptr<task> t) {
    {
      std::lock_guard lock(mutex_);
      if (!ready_.load(std::memory_order_relaxed)) {
        tasks_.push_back(std::move(t));
        return;
      }
    }
    run_task(std::move(t));
  }
  /// Runs f() once this state is ready: at once, here, if it already is.
  template <class F>
  void on_ready(F f) {
    add_task(std::make_unique<task_of<F>>(std::move(f)));
  }

 protected:
  /// true for exactly one caller: the one that completes this state.
  [[nodiscard]] bool claim() noexcept { return !claimed_.exchange(true, std::memory_order_acq_rel); }
  /// Only after claim(): publishes `outcome`, wakes the waiters, runs the tasks here.
  void publish(status outcome) noexcept {
    std::vector<std::unique_ptr<task>> tasks;
    {
      std::lock_guard lock(mutex_);
      // (Statuses are made, never assigned, in these headers: nvcc warns about the discarded status&
      // of an assignment.)
      static_cast<void>(outcome_.emplace(std::move(outcome)));
      ready_.store(true, std::memory_order_release);
      tasks.swap(tasks_);
      cv_.notify_all();
    }
    for (auto& t : tasks) run_task(std::move(t));
  }

  /// Guards the tasks (and what a derived state keeps with them); publish() notifies ready_cv() under it.
  [[nodiscard]] std::mutex& mutex() const noexcept { return mutex_; }
  [[nodiscard]] std::condition_variable& ready_cv() noexcept { return cv_; }

 private:
  /// Runs `t` on this state through the work list; here and now if no shared_ptr owns this state.
  void run_task(std::unique_ptr<task> t) noexcept {
    if (auto self = weak_from_this().lock()) {
      task_list::run(std::move(self), std::move(t));
    } else {
      t->run(*this);
    }
  }

  std::atomic<bool> claimed_{false};
  std::atomic<bool> ready_{false};
  std::optional<status> outcome_;  // set once, by publish()
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<task>> tasks_;
};

inline void task_list::run_one(const std::shared_ptr<completion>& state, std::unique_ptr<task>& t) noexcept {
  if (state) t->run(*state);
  t.reset();
}

/// The state of these futures: a waiter blocks on the condition variable or, when the state is
/// completed by an engine someone must drive, drives that engine between short sleeps.
class state_core : public completion {
 public:
  /// Completes with `error` (an ok status reads as invalid_argument); false if already completed.
  bool fail(status error) noexcept {
    if (!claim()) return false;
    publish(error.ok() ? status(status_code::invalid_argument, "a future failed with an ok status") : std::move(error));
    return true;
  }

  /// Waiting on this state also drives `driver`.
  void add_driver(std::shared_ptr<progress_driver> driver) {
    std::lock_guard lock(mutex());
    drivers_.push_back(std::move(driver));
  }
  /// Waiting on this state drives what waiting on `other` drives (a continuation, a combinator).
  void add_drivers_of(const state_core& other) {
    auto theirs = other.drivers();
    std::lock_guard lock(mutex());
    drivers_.insert(drivers_.end(), theirs.begin(), theirs.end());
  }

  /// Blocks until ready or `deadline`; true when ready.
  [[nodiscard]] bool wait_until(std::chrono::steady_clock::time_point deadline) {
    if (ready()) return true;
    task_list::run_queued();
    auto is_ready = [this] { return ready(); };
    std::unique_lock lock(mutex());
    auto pause = std::chrono::microseconds(5);
    while (!is_ready()) {
      if (drivers_.empty()) {
        if (deadline == std::chrono::steady_clock::time_point::max()) {
          ready_cv().wait(lock, is_ready);
          return true;
        }
        return ready_cv().wait_until(lock, deadline, is_ready);
      }
      // Completed by an engine someone must drive: drive it, then sleep a little (5 us doubling to 200 us).
      auto drivers = drivers_;
      lock.unlock();
      for (const auto& d : drivers) d->drive();
      task_list::run_queued();
      lock.lock();
      const auto now = std::chrono::steady_clock::now();
      if (is_ready()) break;
      if (now >= deadline) return false;
      ready_cv().wait_until(lock, deadline - now > pause ? now + pause : deadline, is_ready);
      pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::microseconds(200));
    }
    return true;
  }

 protected:
  /// The status a state fails with when its value's constructor throws (valued_state).
  [[nodiscard]] static status value_construction_error() noexcept { return current_exception_status(); }

 private:
  [[nodiscard]] std::vector<std::shared_ptr<progress_driver>> drivers() const {
    std::lock_guard lock(mutex());
    return drivers_;
  }

  std::vector<std::shared_ptr<progress_driver>> drivers_;  // guarded by mutex()
};

/// A state of kind Base (a completion; these futures' or dtl::hip's) that holds a T on success.
/// Base::value_construction_error() says what a throwing constructor of the value fails the state with.
template <class Base, class T>
class valued_state : public Base {
 public:
  using Base::Base;

  /// Completes with a value; false if already completed.
  template <class... Args>
  bool set_value(Args&&... args) noexcept {
    if (!this->claim()) return false;
    try {
      value_.emplace(std::forward<Args>(args)...);
    } catch (...) {
      this->publish(Base::value_construction_error());
      return true;
    }
    this->publish(status{});
    return true;
  }
  /// The value (moved out) or the error; after ready(). The value is moved once: later takes see
  /// the moved-from value, as upstream's get() after a then() or a second get() through a copy does.
  [[nodiscard]] result<T> take() {
    if (!this->outcome().ok()) return this->outcome();
    return result<T>(std::in_place, std::move(*value_));
  }

 private:
  std::optional<T> value_;
};

template <class Base>
class valued_state<Base, void> : public Base {
 public:
  using Base::Base;

  bool set_value() noexcept {
    if (!this->claim()) return false;
    this->publish(status{});
    return true;
  }
  [[nodiscard]] result<void> take() const { return this->outcome(); }
};

/// A state with a value of type T on success. Futures share one through a shared_ptr; upstream also lets
/// a program own one and complete and read it directly (dtl::futures::shared_state), hence the names below.
template <class T>
class shared_state final : public valued_state<state_core, T> {
 public:
  [[nodiscard]] bool is_ready() const noexcept { return this->ready(); }
  /// Fails the state; false if it was already completed.
  bool set_error(status error) noexcept { return this->fail(std::move(error)); }
  /// Blocks until ready.
  void wait() { (void)this->wait_until(std::chrono::steady_clock::time_point::max()); }
  /// Waits, then the value (moved out) or the error.
  [[nodiscard]] result<T> get_result() {
    wait();
    return this->take();
  }
  /// Waits, then the value (moved out); throws dtl::status_error carrying the failure.
  T get() {
    if constexpr (std::is_void_v<T>) {
      value_or_throw(get_result());
    } else {
      return value_or_throw(get_result());
    }
  }
};

/// The count behind every when_all (these futures' and dtl::hip's): each input's arrival counts down,
/// and the (n+1)-th arrival, the caller's own once every input is registered, runs `done`.
template <class Done>
class join {
 public:
  join(std::size_t inputs, Done done) : remaining_(inputs + 1), done_(std::move(done)) {}
  void arrive() noexcept {
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_();
  }

 private:
  std::atomic<std::size_t> remaining_;
  Done done_;
};

template <class Done>
auto make_join(std::size_t inputs, Done done) {
  return std::make_shared<join<Done>>(inputs, std::move(done));
}

/// Completes `out` with thunk()'s value (or nothing, for void), or the exception it throws.
template <class U, class Thunk>
void deliver(shared_state<U>& out, Thunk&& thunk) noexcept {
  try {
    if constexpr (std::is_void_v<U>) {
      thunk();
      out.set_value();
    } else {
      out.set_value(thunk());
    }
  } catch (...) {
    out.fail(current_exception_status());
  }
}

}  // namespace detail

using detail::shared_state;  // upstream's name for it
}  // namespace dtl::futures
