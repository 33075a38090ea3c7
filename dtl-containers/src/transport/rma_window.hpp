// SPDX-License-Identifier: MIT
#pragma once
// Private: a transport's one-sided window for dtl::memory_window (MPI-3 RMA in mpi.cpp, local memory in
// self_rma.cpp). The caller (src/rma/epoch_window.cpp) has checked every argument and the epoch rules:
// these calls only carry out what they name.

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace dtl::detail {

class rma_window {
 public:
  rma_window() = default;
  rma_window(const rma_window&) = delete;
  rma_window& operator=(const rma_window&) = delete;
  /// Frees the window (MPI_Win_free, collective) unless MPI has ended.
  virtual ~rma_window() = default;

  /// This rank's region.
  [[nodiscard]] virtual void* base() const noexcept = 0;
  /// The bytes each rank exposes, by rank (their count is the window's rank count).
  [[nodiscard]] virtual const std::vector<std::uint64_t>& extents() const noexcept = 0;
  [[nodiscard]] virtual int rank() const noexcept = 0;
  /// A pointer to the MPI_Win; nullptr without MPI.
  [[nodiscard]] virtual void* native() noexcept = 0;
  /// Whether freeing it calls MPI (then it must go before MPI_Finalize: release_rma_windows).
  [[nodiscard]] virtual bool uses_mpi() noexcept { return native() != nullptr; }

  /// Whether each access is finished when its call returns (this process's memory, device copies): then
  /// nothing of the origin is read later.
  [[nodiscard]] virtual bool completes_on_return() const noexcept { return false; }

  /// Whether every rank passes ready (collective, ahead of a fence: a rank that refuses its fence must not
  /// leave the others waiting in theirs).
  virtual result<bool> all_ready(bool ready) = 0;
  virtual status fence(int assert_flags) = 0;
  virtual status lock(int target, rma_lock_mode mode) = 0;
  virtual status unlock(int target) = 0;
  virtual status lock_all() = 0;
  virtual status unlock_all() = 0;
  /// target: a rank, or all_ranks. local: complete at the origin only (MPI_Win_flush_local).
  virtual status flush(int target, bool local) = 0;

  /// bytes <= INT_MAX.
  virtual status put(const void* origin, std::size_t bytes, int target, std::size_t offset) = 0;
  virtual status get(void* origin, std::size_t bytes, int target, std::size_t offset) = 0;
  /// count elements of `type`, combined atomically per element; result != nullptr also returns the
  /// elements that were there (get_accumulate; fetch_and_op for one element).
  virtual status accumulate(const void* origin, void* result, std::size_t count, rma_datatype type, int target,
                            std::size_t offset, rma_reduce_op op) = 0;
  /// One element of `type` (an unsigned integer of 1, 2, 4 or 8 bytes).
  virtual status compare_and_swap(const void* origin, const void* compare, void* result, rma_datatype type, int target,
                                  std::size_t offset) = 0;
};

/// A window over this process alone (self_rma.cpp). base == nullptr with bytes > 0: allocated here, zeroed.
result<std::unique_ptr<rma_window>> make_self_rma_window(void* base, std::size_t bytes);

}  // namespace dtl::detail
