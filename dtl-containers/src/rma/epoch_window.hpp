// SPDX-License-Identifier: MIT
#pragma once
// Private: dtl::memory_window's implementation over a transport's rma_window. Every rule about epochs
// and arguments is checked here, before the transport (and MPI) is called.

#include "transport/rma_window.hpp"

#include <dtl/communication/memory_window.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace dtl::detail {

/// Which accesses this rank's window allows now: epochs are per origin rank, as MPI's are.
struct epoch_state {
  bool fence_open = false;            // after a fence: any target, until the next fence
  bool fence_accessed = false;        // an access since that fence (a lock may not end the epoch then)
  bool all_locked = false;            // inside lock_all / unlock_all
  std::vector<unsigned char> locked;  // by target: inside lock(target) / unlock(target)
  int lock_count = 0;
};

class epoch_window final : public memory_window_impl {
 public:
  explicit epoch_window(std::unique_ptr<rma_window> transport);
  /// release(), unless the environment's end released the window already.
  ~epoch_window() override;
  /// Ends the passive-target epochs still open, then frees the window (collective); later calls return
  /// invalid_state.
  void release() noexcept;

  void* base() const noexcept override { return transport_ ? transport_->base() : nullptr; }
  size_type size() const noexcept override;
  bool valid() const noexcept override { return transport_ != nullptr; }
  void* native_handle() const noexcept override { return transport_ ? transport_->native() : nullptr; }
  /// Whether releasing it calls MPI.
  bool over_mpi() const noexcept { return transport_ && transport_->uses_mpi(); }

  rma_access_epoch access_epoch(rank_t target) const noexcept override;

  result<void> fence(int assert_flags) override;
  result<void> lock_all() override;
  result<void> unlock_all() override;
  result<void> lock(rank_t target, rma_lock_mode mode) override;
  result<void> unlock(rank_t target) override;
  result<void> flush(rank_t target) override { return flush_one(target, false); }
  result<void> flush_all() override { return flush_every(false); }
  result<void> flush_local(rank_t target) override { return flush_one(target, true); }
  result<void> flush_local_all() override { return flush_every(true); }

  result<void> put(const void* origin, size_type size, rank_t target, size_type target_offset) override;
  result<void> get(void* origin, size_type size, rank_t target, size_type target_offset) override;
  result<void> accumulate(const void* origin, size_type size, rank_t target, size_type target_offset,
                          rma_reduce_op op) override {
    return typed_accumulate(origin, nullptr, size, target, target_offset, op, rma_datatype::u8);
  }
  result<void> fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                            size_type target_offset, rma_reduce_op op) override;
  result<void> get_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                              size_type target_offset, rma_reduce_op op) override {
    return fetch_and_op(origin, result_buf, size, target, target_offset, op);
  }
  result<void> compare_and_swap(const void* origin, const void* compare, void* result_buf, size_type size,
                                rank_t target, size_type target_offset) override;
  result<void> typed_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                size_type target_offset, rma_reduce_op op, rma_datatype type) override;
  /// Complete at the origin on return inside a passive-target epoch (a local flush of the target); in a
  /// fence epoch at the closing fence.
  result<void> async_put(const void* origin, size_type size, rank_t target, size_type target_offset,
                         rma_request_handle& request) override;
  result<void> async_get(void* origin, size_type size, rank_t target, size_type target_offset,
                         rma_request_handle& request) override;

 private:
  /// invalid_state once released.
  status live() const;
  status check_target(rank_t target, const char* what) const;
  /// The target, the bytes and the epoch of an access of `bytes` at `offset` of target's region.
  status check_access(rank_t target, size_type offset, size_type bytes, const char* what);
  result<void> flush_one(rank_t target, bool local);
  result<void> flush_every(bool local);
  /// The local flush that completes an async access to target inside a passive-target epoch.
  result<void> complete_locally(rank_t target, rma_request_handle& request);

  /// The bytes an access reads at the origin, or a copy of them that this window keeps until the access
  /// completes (a fence, an unlock, a flush of its target): MPI reads an origin until then, and a value
  /// passed by reference (upstream's examples put a local that is gone by the fence) may not live so long.
  /// Accesses of at most staged_bytes_max bytes are copied, on transports whose accesses end later.
  const void* stage(const void* origin, size_type bytes, rank_t target);
  /// The copies of accesses to `target` (all_ranks: every target), now complete.
  void unstage(rank_t target) noexcept;

  struct staged_origin {
    rank_t target;
    std::unique_ptr<std::byte[]> bytes;
  };

  std::unique_ptr<rma_window> transport_;
  epoch_state epoch_;
  std::vector<staged_origin> staged_;
};

/// Releases every MPI window still open (environment_state::end, before MPI_Finalize): a window that
/// outlives its environment must not leave an epoch open in MPI_Finalize nor call MPI after it. Every rank
/// ends its environment, and windows are made collectively, so the ranks free them in the same order.
void release_rma_windows() noexcept;

}  // namespace dtl::detail
