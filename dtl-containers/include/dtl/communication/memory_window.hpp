// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's one-sided communication window: host memory that every rank of a job exposes to the
// others' put, get and atomic updates (MPI-3 RMA underneath while MPI runs; this process alone
// otherwise). Creating and destroying a window are collective over the ranks it spans.
//
//   auto w = dtl::memory_window::create(buf.data(), bytes);   // every rank, collective
//   (void)w->fence();                                          // opens an active-target epoch
//   (void)w->put(&v, sizeof v, 1, 0);                          // or dtl::rma::put(1, 0, v, *w)
//   (void)w->fence();                                          // completes it everywhere
//
// Accesses happen inside an epoch: between fences, inside lock(target)/unlock(target) for that target,
// or inside lock_all()/unlock_all(). A call outside one, a second lock of a locked target, an unlock
// without a lock, a target rank outside the window, or bytes past the target's exposed region return
// a status before anything reaches MPI (docs/containers.md, "One-sided windows").

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/core/result.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

namespace dtl {

class context;

struct window_info {
  void* base = nullptr;
  size_type size = 0;
  bool owns_memory = false;
  void* native_handle = nullptr;  // a pointer to the MPI_Win, or nullptr without MPI
};

/// The epoch through which this rank may access a target now: none, the fence epoch (accesses complete
/// at the next fence), or a passive-target one (lock or lock_all: they complete at a flush or unlock).
enum class rma_access_epoch { none, fence, passive };

/// What a memory_window does; upstream's extension point (memory_window::from_impl). Offsets and sizes
/// are bytes. The typed_ forms combine elements of an rma_datatype; their default serves u8 through the
/// byte forms and refuses other types.
class DTL_CONTAINERS_API memory_window_impl {
 public:
  memory_window_impl() = default;
  memory_window_impl(const memory_window_impl&) = delete;
  memory_window_impl& operator=(const memory_window_impl&) = delete;
  virtual ~memory_window_impl() = default;

  [[nodiscard]] virtual void* base() const noexcept = 0;
  [[nodiscard]] virtual size_type size() const noexcept = 0;
  [[nodiscard]] virtual bool valid() const noexcept = 0;
  [[nodiscard]] virtual void* native_handle() const noexcept = 0;

  [[nodiscard]] virtual result<void> fence(int assert_flags = 0) = 0;
  [[nodiscard]] virtual result<void> lock_all() = 0;
  [[nodiscard]] virtual result<void> unlock_all() = 0;
  [[nodiscard]] virtual result<void> lock(rank_t target, rma_lock_mode mode) = 0;
  [[nodiscard]] virtual result<void> unlock(rank_t target) = 0;
  [[nodiscard]] virtual result<void> flush(rank_t target) = 0;
  [[nodiscard]] virtual result<void> flush_all() = 0;
  [[nodiscard]] virtual result<void> flush_local(rank_t target) = 0;
  [[nodiscard]] virtual result<void> flush_local_all() = 0;

  [[nodiscard]] virtual result<void> put(const void* origin, size_type size, rank_t target,
                                         size_type target_offset) = 0;
  [[nodiscard]] virtual result<void> get(void* origin, size_type size, rank_t target, size_type target_offset) = 0;
  [[nodiscard]] virtual result<void> accumulate(const void* origin, size_type size, rank_t target,
                                                size_type target_offset, rma_reduce_op op) = 0;
  [[nodiscard]] virtual result<void> fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                                                  size_type target_offset, rma_reduce_op op) = 0;
  /// Stores origin where the target's bytes equal compare; result_buf gets the bytes that were there.
  [[nodiscard]] virtual result<void> compare_and_swap(const void* origin, const void* compare, void* result_buf,
                                                      size_type size, rank_t target, size_type target_offset) = 0;
  [[nodiscard]] virtual result<void> get_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                                    size_type target_offset, rma_reduce_op op) = 0;

  /// accumulate (result_buf == nullptr) or get_accumulate of size / rma_datatype_size(type) elements.
  [[nodiscard]] virtual result<void> typed_accumulate(const void* origin, void* result_buf, size_type size,
                                                      rank_t target, size_type target_offset, rma_reduce_op op,
                                                      rma_datatype type);

  /// By default passive (an implementation that tracks no epochs, whose flushes always serve).
  [[nodiscard]] virtual rma_access_epoch access_epoch(rank_t /*target*/) const noexcept {
    return rma_access_epoch::passive;
  }

  /// A put or get begun by async_put / async_get: complete once completed is true.
  struct rma_request_handle {
    void* handle = nullptr;
    bool completed = false;
  };
  /// Begins a put whose completion test_async / wait_async report (by default: a put, completed).
  [[nodiscard]] virtual result<void> async_put(const void* origin, size_type size, rank_t target,
                                               size_type target_offset, rma_request_handle& request);
  [[nodiscard]] virtual result<void> async_get(void* origin, size_type size, rank_t target, size_type target_offset,
                                               rma_request_handle& request);
  [[nodiscard]] virtual result<bool> test_async(rma_request_handle& request);
  [[nodiscard]] virtual result<void> wait_async(rma_request_handle& request);
};

namespace detail {
class rma_window;
}

/// Upstream's window of one process: [base, base + size) of this process, reached as rank 0 only, with no
/// epoch to open (each access is a copy, done on return). Where upstream's memory_window runs without
/// MPI; here for programs and tests that make one by hand (memory_window::from_impl, or a remote_ref's
/// window). A base of nullptr gives an invalid window; owns_memory: base came from ::operator new and is
/// freed with the window. Checks as upstream's: invalid_state when invalid, invalid_rank for a target
/// other than 0, out_of_range past size, invalid_argument for a null buffer.
class DTL_CONTAINERS_API null_window_impl final : public memory_window_impl {
 public:
  null_window_impl(void* base, size_type size, bool owns_memory);
  ~null_window_impl() override;

  [[nodiscard]] void* base() const noexcept override { return base_; }
  [[nodiscard]] size_type size() const noexcept override { return size_; }
  [[nodiscard]] bool valid() const noexcept override { return base_ != nullptr; }
  [[nodiscard]] void* native_handle() const noexcept override { return nullptr; }

  [[nodiscard]] result<void> fence(int) override { return {}; }
  [[nodiscard]] result<void> lock_all() override { return {}; }
  [[nodiscard]] result<void> unlock_all() override { return {}; }
  [[nodiscard]] result<void> lock(rank_t, rma_lock_mode) override { return {}; }
  [[nodiscard]] result<void> unlock(rank_t) override { return {}; }
  [[nodiscard]] result<void> flush(rank_t) override { return {}; }
  [[nodiscard]] result<void> flush_all() override { return {}; }
  [[nodiscard]] result<void> flush_local(rank_t) override { return {}; }
  [[nodiscard]] result<void> flush_local_all() override { return {}; }

  [[nodiscard]] result<void> put(const void* origin, size_type size, rank_t target, size_type target_offset) override;
  [[nodiscard]] result<void> get(void* origin, size_type size, rank_t target, size_type target_offset) override;
  [[nodiscard]] result<void> accumulate(const void* origin, size_type size, rank_t target, size_type target_offset,
                                        rma_reduce_op op) override {
    return typed_accumulate(origin, nullptr, size, target, target_offset, op, rma_datatype::u8);
  }
  [[nodiscard]] result<void> fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                                          size_type target_offset, rma_reduce_op op) override;
  [[nodiscard]] result<void> compare_and_swap(const void* origin, const void* compare, void* result_buf, size_type size,
                                              rank_t target, size_type target_offset) override;
  [[nodiscard]] result<void> get_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                            size_type target_offset, rma_reduce_op op) override {
    return fetch_and_op(origin, result_buf, size, target, target_offset, op);
  }
  [[nodiscard]] result<void> typed_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                              size_type target_offset, rma_reduce_op op, rma_datatype type) override;

 private:
  /// In upstream's order: the window, the caller's buffer, the target, its bytes [offset, offset + bytes).
  [[nodiscard]] status check(const char* what, bool buffer_given, rank_t target, size_type offset,
                             size_type bytes) const;

  void* base_;
  size_type size_;
  bool owns_memory_;
  std::unique_ptr<detail::rma_window> memory_;  // the copies and combines (a window of this process alone)
};

class DTL_CONTAINERS_API memory_window {
 public:
  /// Exposes [base, base + size) of this process (collective over MPI_COMM_WORLD while MPI runs, over
  /// this process alone otherwise). size may differ between ranks, and be 0. Host memory only: a device
  /// pointer gives not_supported.
  [[nodiscard]] static result<memory_window> create(void* base, size_type size);
  /// The same over the ranks of `ctx` (collective over them).
  [[nodiscard]] static result<memory_window> create(const context& ctx, void* base, size_type size);
  /// A window over size bytes that the window allocates (MPI_Win_allocate), zeroed; freed with it.
  [[nodiscard]] static result<memory_window> allocate(size_type size);
  [[nodiscard]] static result<memory_window> allocate(const context& ctx, size_type size);
  template <class T>
  [[nodiscard]] static result<memory_window> from_span(std::span<T> data) {
    return create(const_cast<std::remove_const_t<T>*>(data.data()), data.size_bytes());
  }
  [[nodiscard]] static memory_window from_impl(std::unique_ptr<memory_window_impl> impl) {
    return memory_window(std::move(impl));
  }

  /// An invalid window: every call returns invalid_state.
  memory_window() = default;
  memory_window(memory_window&&) noexcept = default;
  memory_window& operator=(memory_window&&) noexcept = default;
  memory_window(const memory_window&) = delete;
  memory_window& operator=(const memory_window&) = delete;
  /// Destroying a window is collective (MPI_Win_free); locks still held are released first.
  ~memory_window() = default;

  [[nodiscard]] void* base() const noexcept { return impl_ ? impl_->base() : nullptr; }
  [[nodiscard]] size_type size() const noexcept { return impl_ ? impl_->size() : 0; }
  [[nodiscard]] bool valid() const noexcept { return impl_ && impl_->valid(); }
  [[nodiscard]] explicit operator bool() const noexcept { return valid(); }
  /// How this rank may access target now (none for an invalid window).
  [[nodiscard]] rma_access_epoch access_epoch(rank_t target) const noexcept {
    return valid() ? impl_->access_epoch(target) : rma_access_epoch::none;
  }
  [[nodiscard]] void* native_handle() const noexcept { return impl_ ? impl_->native_handle() : nullptr; }
  [[nodiscard]] window_info info() const noexcept {
    return impl_ ? window_info{impl_->base(), impl_->size(), false, impl_->native_handle()} : window_info{};
  }

  /// Collective: completes every access of the epoch before it and opens the next (assert_flags: MPI's
  /// MPI_MODE_* assertions, passed through).
  [[nodiscard]] result<void> fence(int assert_flags = 0) { return call(&memory_window_impl::fence, assert_flags); }
  [[nodiscard]] result<void> lock_all() { return call(&memory_window_impl::lock_all); }
  [[nodiscard]] result<void> unlock_all() { return call(&memory_window_impl::unlock_all); }
  [[nodiscard]] result<void> lock(rank_t target, rma_lock_mode mode = rma_lock_mode::exclusive) {
    return call(&memory_window_impl::lock, target, mode);
  }
  [[nodiscard]] result<void> unlock(rank_t target) { return call(&memory_window_impl::unlock, target); }
  /// Completes this rank's accesses to target (at the target too) inside a passive-target epoch.
  [[nodiscard]] result<void> flush(rank_t target) { return call(&memory_window_impl::flush, target); }
  [[nodiscard]] result<void> flush_all() { return call(&memory_window_impl::flush_all); }
  /// Completes them locally only: origin buffers may be reused, get results read.
  [[nodiscard]] result<void> flush_local(rank_t target) { return call(&memory_window_impl::flush_local, target); }
  [[nodiscard]] result<void> flush_local_all() { return call(&memory_window_impl::flush_local_all); }

  [[nodiscard]] result<void> put(const void* origin, size_type size, rank_t target, size_type target_offset) {
    return call(&memory_window_impl::put, origin, size, target, target_offset);
  }
  [[nodiscard]] result<void> get(void* origin, size_type size, rank_t target, size_type target_offset) {
    return call(&memory_window_impl::get, origin, size, target, target_offset);
  }
  /// The byte forms combine unsigned bytes; the rma_datatype forms elements of that type.
  [[nodiscard]] result<void> accumulate(const void* origin, size_type size, rank_t target, size_type target_offset,
                                        rma_reduce_op op) {
    return call(&memory_window_impl::accumulate, origin, size, target, target_offset, op);
  }
  [[nodiscard]] result<void> accumulate(const void* origin, size_type size, rank_t target, size_type target_offset,
                                        rma_reduce_op op, rma_datatype type) {
    return call(&memory_window_impl::typed_accumulate, origin, nullptr, size, target, target_offset, op, type);
  }
  [[nodiscard]] result<void> fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                                          size_type target_offset, rma_reduce_op op) {
    return call(&memory_window_impl::fetch_and_op, origin, result_buf, size, target, target_offset, op);
  }
  [[nodiscard]] result<void> get_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                            size_type target_offset, rma_reduce_op op) {
    return call(&memory_window_impl::get_accumulate, origin, result_buf, size, target, target_offset, op);
  }
  /// fetch_and_op and get_accumulate of elements of `type` (result_buf must not be null).
  [[nodiscard]] result<void> get_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                            size_type target_offset, rma_reduce_op op, rma_datatype type) {
    if (result_buf == nullptr && size > 0) return status_code::invalid_argument;
    return call(&memory_window_impl::typed_accumulate, origin, result_buf, size, target, target_offset, op, type);
  }
  [[nodiscard]] result<void> compare_and_swap(const void* origin, const void* compare, void* result_buf, size_type size,
                                              rank_t target, size_type target_offset) {
    return call(&memory_window_impl::compare_and_swap, origin, compare, result_buf, size, target, target_offset);
  }

  [[nodiscard]] memory_window_impl* get_impl() noexcept { return impl_.get(); }
  [[nodiscard]] const memory_window_impl* get_impl() const noexcept { return impl_.get(); }

 private:
  explicit memory_window(std::unique_ptr<memory_window_impl> impl) noexcept : impl_(std::move(impl)) {}
  template <class F, class... A>
  result<void> call(F f, A&&... args) {
    if (!impl_) return status(status_code::invalid_state, "the memory_window is empty (default-made or moved from)");
    return ((*impl_).*f)(std::forward<A>(args)...);
  }
  std::unique_ptr<memory_window_impl> impl_;
};

/// Whether the local regions of two valid windows share a byte.
[[nodiscard]] inline bool windows_overlap(const memory_window& a, const memory_window& b) noexcept {
  if (!a.valid() || !b.valid()) return false;
  const auto* a0 = static_cast<const std::byte*>(a.base());
  const auto* b0 = static_cast<const std::byte*>(b.base());
  return a0 < b0 + b.size() && b0 < a0 + a.size();
}

/// Whether [offset, offset + size) lies inside the local region of a valid window.
[[nodiscard]] inline bool window_range_valid(const memory_window& w, size_type offset, size_type size) noexcept {
  return w.valid() && offset <= w.size() && size <= w.size() - offset;
}

}  // namespace dtl
