// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's one-sided accesses driven by the progress engine (dtl::futures::progress_engine):
//   rma::async_put<T> put(target, byte_offset, span, window);   put.wait(); put.get_result();
//   rma::async_get<T> get(target, byte_offset, span, window);   get.get_result() -> the span
// Nothing happens until the engine is polled (wait() polls). The first step issues the access in the
// epoch this rank holds on target: in a passive-target one it then completes at the next step (a flush
// for a put, a local flush for a get); in a fence epoch it is done once issued, its bytes arriving at the
// closing fence; outside any epoch the step takes the access's own lock of the target (exclusive for a
// put, shared for a get), so it is complete at once. An object that is destroyed waits for its access.

#include <dtl/communication/memory_window.hpp>
#include <dtl/communication/rma_operations.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/futures/progress.hpp>

#include <atomic>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

namespace dtl::rma {

enum class async_rma_state { pending, initiated, ready, error };

inline constexpr size_type invalid_callback_id = static_cast<size_type>(-1);

namespace async_detail {

/// One put or get of bytes, stepped by the progress engine. Shared with the engine's callback, so that the
/// async_put / async_get holding it may move.
class access_step {
 public:
  access_step(bool is_put, rank_t target, size_type offset, void* bytes, size_type size, memory_window& window)
      : is_put_(is_put), target_(target), offset_(offset), bytes_(bytes), size_(size), window_(&window) {}

  [[nodiscard]] async_rma_state state() const noexcept { return state_.load(std::memory_order_acquire); }
  [[nodiscard]] bool done() const noexcept {
    const async_rma_state s = state();
    return s == async_rma_state::ready || s == async_rma_state::error;
  }
  [[nodiscard]] const result<void>& outcome() const noexcept { return outcome_; }

  /// One step; true while there is more to do.
  bool step() {
    if (done()) return false;
    outcome_ = state() == async_rma_state::pending ? issue() : complete();
    if (outcome_.has_error()) state_.store(async_rma_state::error, std::memory_order_release);
    return !done();
  }

 private:
  result<void> access() {
    return is_put_ ? window_->put(bytes_, size_, target_, offset_) : window_->get(bytes_, size_, target_, offset_);
  }
  result<void> issue() {
    if (!window_->valid()) return status(status_code::invalid_state, "async RMA on an invalid memory_window");
    switch (window_->access_epoch(target_)) {
      case rma_access_epoch::passive:
        DTL_TRY(access());
        state_.store(async_rma_state::initiated, std::memory_order_release);
        return {};
      case rma_access_epoch::fence: DTL_TRY(access()); break;
      case rma_access_epoch::none: {
        DTL_TRY(window_->lock(target_, is_put_ ? rma_lock_mode::exclusive : rma_lock_mode::shared));
        const result<void> done_here = access();
        DTL_TRY(window_->unlock(target_));
        DTL_TRY(done_here);
        break;
      }
    }
    state_.store(async_rma_state::ready, std::memory_order_release);
    return {};
  }
  result<void> complete() {
    DTL_TRY(is_put_ ? window_->flush(target_) : window_->flush_local(target_));
    state_.store(async_rma_state::ready, std::memory_order_release);
    return {};
  }

  bool is_put_;
  rank_t target_;
  size_type offset_;
  void* bytes_;
  size_type size_;
  memory_window* window_;
  std::atomic<async_rma_state> state_{async_rma_state::pending};
  result<void> outcome_;
};

/// An access_step registered with the progress engine while it runs.
class driven_access {
 public:
  driven_access(bool is_put, rank_t target, size_type offset, void* bytes, size_type size, memory_window& window)
      : step_(std::make_shared<access_step>(is_put, target, offset, bytes, size, window)) {
    callback_id_ = futures::progress_engine::instance().register_callback([s = step_] { return s->step(); });
  }
  driven_access(driven_access&& other) noexcept
      : step_(std::move(other.step_)), callback_id_(std::exchange(other.callback_id_, invalid_callback_id)) {}
  driven_access& operator=(driven_access&&) = delete;
  driven_access(const driven_access&) = delete;
  driven_access& operator=(const driven_access&) = delete;
  ~driven_access() {
    if (callback_id_ == invalid_callback_id) return;
    wait();
    futures::progress_engine::instance().unregister_callback(callback_id_);
  }

  [[nodiscard]] bool ready() const noexcept { return step_ != nullptr && step_->done(); }
  void wait() {
    while (step_ != nullptr && !step_->done()) (void)futures::progress_engine::instance().poll();
  }
  [[nodiscard]] result<void> outcome() {
    wait();
    if (step_ == nullptr) return status(status_code::invalid_state, "a moved-from async RMA access");
    return step_->outcome();
  }

 private:
  std::shared_ptr<access_step> step_;
  size_type callback_id_ = invalid_callback_id;
};

}  // namespace async_detail

template <class T>
class async_put {
 public:
  async_put(rank_t target, size_type offset, std::span<const T> data, memory_window& window)
      : access_(true, target, offset, const_cast<std::remove_const_t<T>*>(data.data()), data.size_bytes(), window) {}
  [[nodiscard]] bool ready() const noexcept { return access_.ready(); }
  void wait() { access_.wait(); }
  [[nodiscard]] result<void> get_result() { return access_.outcome(); }

 private:
  async_detail::driven_access access_;  // a put only reads its bytes
};

template <class T>
class async_get {
 public:
  async_get(rank_t target, size_type offset, std::span<T> buffer, memory_window& window)
      : buffer_(buffer), access_(false, target, offset, buffer.data(), buffer.size_bytes(), window) {}
  [[nodiscard]] bool ready() const noexcept { return access_.ready(); }
  void wait() { access_.wait(); }
  /// The buffer, filled.
  [[nodiscard]] result<std::span<T>> get_result() {
    DTL_TRY(access_.outcome());
    return buffer_;
  }

 private:
  std::span<T> buffer_;
  async_detail::driven_access access_;
};

template <class T>
[[nodiscard]] async_put<T> async_put_to(rank_t target, size_type offset, std::span<const T> data,
                                        memory_window& window) {
  return async_put<T>(target, offset, data, window);
}
template <class T>
[[nodiscard]] async_get<T> async_get_from(rank_t target, size_type offset, std::span<T> buffer, memory_window& window) {
  return async_get<T>(target, offset, buffer, window);
}

/// An async_put whose callback gets its result once, when a wait() or check_completion() finds it done.
template <class T, class Callback>
class async_put_with_callback {
 public:
  async_put_with_callback(rank_t target, size_type offset, std::span<const T> data, memory_window& window,
                          Callback callback)
      : put_(target, offset, data, window), callback_(std::move(callback)) {}
  [[nodiscard]] bool ready() const noexcept { return put_.ready(); }
  void check_completion() {
    if (!put_.ready() || called_) return;
    called_ = true;
    callback_(put_.get_result());
  }
  void wait() {
    put_.wait();
    check_completion();
  }

 private:
  async_put<T> put_;
  Callback callback_;
  bool called_ = false;
};

template <class T, class Callback>
[[nodiscard]] auto async_put_then(rank_t target, size_type offset, std::span<const T> data, memory_window& window,
                                  Callback&& callback) {
  return async_put_with_callback<T, std::decay_t<Callback>>(target, offset, data, window,
                                                            std::forward<Callback>(callback));
}

}  // namespace dtl::rma
