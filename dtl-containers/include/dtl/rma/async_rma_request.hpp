// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's single-value async requests on a window's implementation (memory_window::get_impl()):
//   rma::async_get_request<T> r(target, byte_offset, impl);        r.get() -> result<T>
//   rma::async_put_request<T> r(target, byte_offset, value, impl); r.get() -> result<void>
// The access begins at construction (memory_window_impl::async_get / async_put, inside an epoch of the
// window); one that is not complete then is tested by the progress engine until it is. DTL's windows
// complete them at once in a passive-target epoch (memory_window.hpp).

#include <dtl/communication/memory_window.hpp>
#include <dtl/core/result.hpp>
#include <dtl/futures/progress.hpp>

#include <atomic>
#include <memory>
#include <utility>

namespace dtl::rma {

enum class rma_request_state { pending, ready, error };

class async_rma_request_base {
 public:
  [[nodiscard]] bool ready() const noexcept { return state_->state.load() != rma_request_state::pending; }
  [[nodiscard]] bool has_error() const noexcept { return state_->state.load() == rma_request_state::error; }
  [[nodiscard]] status get_error() const noexcept { return state_->error; }
  void wait() {
    while (!ready()) (void)futures::progress_engine::instance().poll();
  }

 protected:
  /// What the progress engine's callback shares with the request (which may move).
  struct shared {
    std::atomic<rma_request_state> state{rma_request_state::pending};
    status error;
    memory_window_impl::rma_request_handle handle;
    memory_window_impl* window = nullptr;
    void fail(status why) {
      error = std::move(why);
      state.store(rma_request_state::error);
    }
    bool poll() {
      const result<bool> done = window->test_async(handle);
      if (!done) {
        fail(done.error());
      } else if (*done) {
        state.store(rma_request_state::ready);
      }
      return state.load() == rma_request_state::pending;
    }
  };

  explicit async_rma_request_base(memory_window_impl* window) : state_(std::make_shared<shared>()) {
    state_->window = window;
    if (window == nullptr || !window->valid())
      state_->fail(status(status_code::invalid_state, "async RMA request on an invalid window"));
  }
  async_rma_request_base(async_rma_request_base&& other) noexcept
      : state_(other.state_), callback_id_(std::exchange(other.callback_id_, no_callback)) {}
  async_rma_request_base& operator=(async_rma_request_base&&) = delete;
  async_rma_request_base(const async_rma_request_base&) = delete;
  async_rma_request_base& operator=(const async_rma_request_base&) = delete;
  ~async_rma_request_base() {
    if (callback_id_ == no_callback) return;
    wait();
    futures::progress_engine::instance().unregister_callback(callback_id_);
  }

  /// After the access began: ready, failed, or tested by the engine from now on.
  void began(const result<void>& started) {
    if (!started) {
      state_->fail(started.error());
    } else if (state_->handle.completed) {
      state_->state.store(rma_request_state::ready);
    } else {
      callback_id_ = futures::progress_engine::instance().register_callback([s = state_] { return s->poll(); });
    }
  }
  [[nodiscard]] bool usable() const noexcept { return !has_error(); }
  shared& state() noexcept { return *state_; }

 private:
  static constexpr size_type no_callback = static_cast<size_type>(-1);
  std::shared_ptr<shared> state_;
  size_type callback_id_ = no_callback;
};

template <class T>
class async_get_request : public async_rma_request_base {
 public:
  async_get_request(rank_t target, size_type offset, memory_window_impl* window)
      : async_rma_request_base(window), value_(std::make_unique<T>()) {
    if (usable()) began(window->async_get(value_.get(), sizeof(T), target, offset, state().handle));
  }
  /// The value read, once the request is ready.
  [[nodiscard]] result<T> get() {
    wait();
    if (has_error()) return get_error();
    return *value_;
  }

 private:
  std::unique_ptr<T> value_;  // where the access writes: stays put when the request moves
};

template <class T>
class async_put_request : public async_rma_request_base {
 public:
  async_put_request(rank_t target, size_type offset, const T& value, memory_window_impl* window)
      : async_rma_request_base(window), value_(std::make_unique<T>(value)) {
    if (usable()) began(window->async_put(value_.get(), sizeof(T), target, offset, state().handle));
  }
  [[nodiscard]] result<void> get() {
    wait();
    if (has_error()) return get_error();
    return {};
  }

 private:
  std::unique_ptr<T> value_;  // what the access reads until it completes
};

}  // namespace dtl::rma
