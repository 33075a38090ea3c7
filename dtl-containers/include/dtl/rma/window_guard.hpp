// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's scoped epochs of a dtl::memory_window:
//   fence_guard g(w);         fence now and at scope end (collective: every rank makes one)
//   lock_guard g(target, w);  lock(target) now, unlock at scope end; lock_guard g(w): lock_all/unlock_all
//   rma_batch b(w);           puts and gets in a lock_all epoch that it opens unless the window is in one
//                             already, flushed (and closed, if it opened it) at scope end
//   with_fence_epoch(w, f), with_lock_epoch(target, w, mode, f): f inside such an epoch
// The guards neither copy nor move: each belongs to one scope.

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/communication/memory_window.hpp>
#include <dtl/communication/rma_operations.hpp>
#include <dtl/core/result.hpp>

#include <concepts>
#include <span>
#include <type_traits>
#include <utility>

namespace dtl::rma {

namespace guard_detail {
inline status invalid_window() { return status(status_code::invalid_state, "the memory_window is not valid"); }
}  // namespace guard_detail

class fence_guard {
 public:
  explicit fence_guard(memory_window& window, int assert_flags = 0) : window_(window), assert_flags_(assert_flags) {
    if (window_.valid()) (void)window_.fence(assert_flags_);
  }
  ~fence_guard() {
    if (window_.valid()) (void)window_.fence(assert_flags_);
  }
  fence_guard(const fence_guard&) = delete;
  fence_guard& operator=(const fence_guard&) = delete;

  [[nodiscard]] bool valid() const noexcept { return window_.valid(); }
  /// A fence inside the guard's scope (collective).
  [[nodiscard]] result<void> fence(int assert_flags = 0) {
    if (!valid()) return guard_detail::invalid_window();
    return window_.fence(assert_flags);
  }

 private:
  memory_window& window_;
  int assert_flags_;
};

class lock_guard {
 public:
  lock_guard(rank_t target, memory_window& window, rma_lock_mode mode = rma_lock_mode::exclusive)
      : window_(window), target_(target), all_(false) {
    locked_ = window_.valid() && window_.lock(target, mode).has_value();
  }
  explicit lock_guard(memory_window& window) : window_(window), target_(no_rank), all_(true) {
    locked_ = window_.valid() && window_.lock_all().has_value();
  }
  ~lock_guard() {
    if (!locked_) return;
    if (all_) {
      (void)window_.unlock_all();
    } else {
      (void)window_.unlock(target_);
    }
  }
  lock_guard(const lock_guard&) = delete;
  lock_guard& operator=(const lock_guard&) = delete;

  [[nodiscard]] bool locked() const noexcept { return locked_; }
  [[nodiscard]] rank_t target() const noexcept { return target_; }
  [[nodiscard]] bool is_all() const noexcept { return all_; }
  /// Completes the accesses made under the lock (at the targets too).
  [[nodiscard]] result<void> flush() {
    if (!locked_) return status(status_code::invalid_state, "lock_guard::flush: the guard holds no lock");
    return all_ ? window_.flush_all() : window_.flush(target_);
  }
  /// Completes them at this rank only.
  [[nodiscard]] result<void> flush_local() {
    if (!locked_) return status(status_code::invalid_state, "lock_guard::flush_local: the guard holds no lock");
    return all_ ? window_.flush_local_all() : window_.flush_local(target_);
  }

 private:
  memory_window& window_;
  rank_t target_;
  bool all_;
  bool locked_ = false;
};

class rma_batch {
 public:
  explicit rma_batch(memory_window& window) : window_(window) {
    // lock_all refuses inside an epoch: the batch then uses that one.
    opened_ = window_.valid() && window_.lock_all().has_value();
  }
  ~rma_batch() {
    if (!window_.valid()) return;
    if (opened_) {
      (void)window_.unlock_all();  // completes every access, as a flush would
    } else {
      (void)window_.flush_all();
    }
  }
  rma_batch(const rma_batch&) = delete;
  rma_batch& operator=(const rma_batch&) = delete;

  [[nodiscard]] bool valid() const noexcept { return window_.valid(); }
  /// The puts and gets made through the batch.
  [[nodiscard]] size_type operation_count() const noexcept { return operations_; }

  template <class T>
  [[nodiscard]] result<void> put(rank_t target, size_type offset, std::span<const T> data) {
    return count(rma::put(target, offset, data, window_));
  }
  template <class T>
  [[nodiscard]] result<void> put(rank_t target, size_type offset, const T& value) {
    return count(rma::put(target, offset, value, window_));
  }
  template <class T>
  [[nodiscard]] result<void> get(rank_t target, size_type offset, std::span<T> buffer) {
    return count(rma::get(target, offset, buffer, window_));
  }
  template <class T>
  [[nodiscard]] result<void> get(rank_t target, size_type offset, T& value) {
    return count(rma::get(target, offset, value, window_));
  }
  [[nodiscard]] result<void> flush_all() {
    if (!valid()) return guard_detail::invalid_window();
    return window_.flush_all();
  }
  [[nodiscard]] result<void> flush(rank_t target) {
    if (!valid()) return guard_detail::invalid_window();
    return window_.flush(target);
  }

 private:
  result<void> count(result<void> done) {
    if (done.has_value()) ++operations_;
    return done;
  }
  memory_window& window_;
  bool opened_ = false;
  size_type operations_ = 0;
};

namespace guard_detail {
template <class F>
result<void> run(F&& f) {
  if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
    std::forward<F>(f)();
    return {};
  } else {
    return std::forward<F>(f)();
  }
}
}  // namespace guard_detail

/// f() between two fences (collective). Its result, or invalid_state for an invalid window (f not run).
template <class F>
requires std::invocable<F>
[[nodiscard]] result<void> with_fence_epoch(memory_window& window, F&& f) {
  if (!window.valid()) return guard_detail::invalid_window();
  fence_guard guard(window);
  return guard_detail::run(std::forward<F>(f));
}

/// f() under lock(target, mode), flushed before the unlock. f's error, or the flush's status.
template <class F>
requires std::invocable<F>
[[nodiscard]] result<void> with_lock_epoch(rank_t target, memory_window& window, rma_lock_mode mode, F&& f) {
  lock_guard guard(target, window, mode);
  if (!guard.locked()) return status(status_code::invalid_state, "with_lock_epoch: the lock was not taken");
  DTL_TRY(guard_detail::run(std::forward<F>(f)));
  return guard.flush();
}

}  // namespace dtl::rma
