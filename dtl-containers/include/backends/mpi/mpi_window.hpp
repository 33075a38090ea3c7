// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its MPI window classes: dtl::mpi::mpi_window, a one-sided window over
// [base, base + size) of every rank of a communicator, and dtl::mpi::mpi_window_impl, which presents one
// as a memory_window_impl (for remote_ref's window constructor, or memory_window::from_impl). Here an
// mpi_window is a dtl::memory_window over the communicator's context, so it has the same rules: accesses
// inside an epoch, every argument checked before MPI (docs/containers.md, "One-sided windows and RMA").
// Installed under include/dtl-hip/, as the other backends/mpi/ headers.
//
//   auto w = dtl::mpi::mpi_window::create(data.data(), bytes, domain.communicator().underlying());
//   dtl::mpi::mpi_window_impl impl(*w);                      // the window as a memory_window_impl
//   (void)impl.lock_all();
//   dtl::remote_ref<int> x(peer, 5, nullptr, &impl, 5 * sizeof(int));
//   auto v = x.get();                                         // complete on return

#include <backends/mpi/mpi_communicator.hpp>
#include <dtl/communication/memory_window.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>

#include <utility>

namespace dtl::mpi {

class mpi_window {
 public:
  /// Exposes [base, base + size) of this rank to every rank of `comm` (collective over them; size may
  /// differ between ranks, and be 0).
  [[nodiscard]] static result<mpi_window> create(void* base, size_type size, const mpi_communicator& comm) {
    result<memory_window> made = memory_window::create(comm.dtl_context(), base, size);
    if (!made.has_value()) return std::move(made).error();
    return mpi_window(std::move(made).value());
  }
  /// A window over size bytes that it allocates, zeroed (collective over the ranks of `comm`).
  [[nodiscard]] static result<mpi_window> allocate(size_type size, const mpi_communicator& comm) {
    result<memory_window> made = memory_window::allocate(comm.dtl_context(), size);
    if (!made.has_value()) return std::move(made).error();
    return mpi_window(std::move(made).value());
  }

  /// An invalid window.
  mpi_window() = default;
  mpi_window(mpi_window&&) noexcept = default;
  mpi_window& operator=(mpi_window&&) noexcept = default;
  /// Collective, as the window's creation (its locks still held are released first).
  ~mpi_window() = default;

  [[nodiscard]] void* base() const noexcept { return window_.base(); }
  [[nodiscard]] size_type size() const noexcept { return window_.size(); }
  [[nodiscard]] bool valid() const noexcept { return window_.valid(); }
  /// The window as dtl::memory_window (its put, get, atomics and epochs).
  [[nodiscard]] memory_window& window() noexcept { return window_; }
  [[nodiscard]] const memory_window& window() const noexcept { return window_; }

 private:
  explicit mpi_window(memory_window window) noexcept : window_(std::move(window)) {}
  memory_window window_;
};

/// An mpi_window as a memory_window_impl: every call goes to the window (which must outlive its use; an
/// invalid or moved-from window gives invalid_state).
class mpi_window_impl final : public memory_window_impl {
 public:
  explicit mpi_window_impl(mpi_window& window) noexcept : window_(window) {}

  [[nodiscard]] void* base() const noexcept override { return window_.base(); }
  [[nodiscard]] size_type size() const noexcept override { return window_.size(); }
  [[nodiscard]] bool valid() const noexcept override { return window_.valid(); }
  [[nodiscard]] void* native_handle() const noexcept override { return window_.window().native_handle(); }
  [[nodiscard]] rma_access_epoch access_epoch(rank_t target) const noexcept override {
    return window_.window().access_epoch(target);
  }

  [[nodiscard]] result<void> fence(int assert_flags = 0) override {
    return to(&memory_window_impl::fence, assert_flags);
  }
  [[nodiscard]] result<void> lock_all() override { return to(&memory_window_impl::lock_all); }
  [[nodiscard]] result<void> unlock_all() override { return to(&memory_window_impl::unlock_all); }
  [[nodiscard]] result<void> lock(rank_t target, rma_lock_mode mode) override {
    return to(&memory_window_impl::lock, target, mode);
  }
  [[nodiscard]] result<void> unlock(rank_t target) override { return to(&memory_window_impl::unlock, target); }
  [[nodiscard]] result<void> flush(rank_t target) override { return to(&memory_window_impl::flush, target); }
  [[nodiscard]] result<void> flush_all() override { return to(&memory_window_impl::flush_all); }
  [[nodiscard]] result<void> flush_local(rank_t target) override {
    return to(&memory_window_impl::flush_local, target);
  }
  [[nodiscard]] result<void> flush_local_all() override { return to(&memory_window_impl::flush_local_all); }

  [[nodiscard]] result<void> put(const void* origin, size_type size, rank_t target, size_type target_offset) override {
    return to(&memory_window_impl::put, origin, size, target, target_offset);
  }
  [[nodiscard]] result<void> get(void* origin, size_type size, rank_t target, size_type target_offset) override {
    return to(&memory_window_impl::get, origin, size, target, target_offset);
  }
  [[nodiscard]] result<void> accumulate(const void* origin, size_type size, rank_t target, size_type target_offset,
                                        rma_reduce_op op) override {
    return to(&memory_window_impl::accumulate, origin, size, target, target_offset, op);
  }
  [[nodiscard]] result<void> fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                                          size_type target_offset, rma_reduce_op op) override {
    return to(&memory_window_impl::fetch_and_op, origin, result_buf, size, target, target_offset, op);
  }
  [[nodiscard]] result<void> compare_and_swap(const void* origin, const void* compare, void* result_buf, size_type size,
                                              rank_t target, size_type target_offset) override {
    return to(&memory_window_impl::compare_and_swap, origin, compare, result_buf, size, target, target_offset);
  }
  [[nodiscard]] result<void> get_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                            size_type target_offset, rma_reduce_op op) override {
    return to(&memory_window_impl::get_accumulate, origin, result_buf, size, target, target_offset, op);
  }
  [[nodiscard]] result<void> typed_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                              size_type target_offset, rma_reduce_op op, rma_datatype type) override {
    return to(&memory_window_impl::typed_accumulate, origin, result_buf, size, target, target_offset, op, type);
  }
  [[nodiscard]] result<void> async_put(const void* origin, size_type size, rank_t target, size_type target_offset,
                                       rma_request_handle& request) override {
    return to(&memory_window_impl::async_put, origin, size, target, target_offset, request);
  }
  [[nodiscard]] result<void> async_get(void* origin, size_type size, rank_t target, size_type target_offset,
                                       rma_request_handle& request) override {
    return to(&memory_window_impl::async_get, origin, size, target, target_offset, request);
  }
  [[nodiscard]] result<bool> test_async(rma_request_handle& request) override {
    memory_window_impl* impl = window_.window().get_impl();
    if (impl == nullptr) return invalid();
    return impl->test_async(request);
  }
  [[nodiscard]] result<void> wait_async(rma_request_handle& request) override {
    return to(&memory_window_impl::wait_async, request);
  }

 private:
  static status invalid() {
    return status(status_code::invalid_state, "mpi_window_impl: its mpi_window is empty (default-made or moved from)");
  }
  template <class F, class... A>
  result<void> to(F f, A&&... args) {
    memory_window_impl* impl = window_.window().get_impl();
    if (impl == nullptr) return invalid();
    return (impl->*f)(std::forward<A>(args)...);
  }

  mpi_window& window_;
};

}  // namespace dtl::mpi
