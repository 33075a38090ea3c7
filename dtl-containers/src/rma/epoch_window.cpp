// SPDX-License-Identifier: MIT
// The epoch rules of dtl::memory_window and the checks of every access, ahead of the transport.
#include "rma/epoch_window.hpp"
#include "rma/access_rules.hpp"

#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace dtl::detail {

namespace {

status no_epoch(const char* what, rank_t target) {
  return status(
      status_code::invalid_state,
      fmt::format("{} to rank {} outside an epoch: call fence(), lock({}) or lock_all() first", what, target, target));
}

/// The largest origin a window copies (epoch_window::stage): single values and small arrays.
constexpr size_type staged_bytes_max = 4096;

// The windows not yet released, in the order they were made.
std::mutex g_open_mutex;
std::vector<epoch_window*> g_open;

}  // namespace

epoch_window::epoch_window(std::unique_ptr<rma_window> transport) : transport_(std::move(transport)) {
  epoch_.locked.assign(transport_->extents().size(), 0);
  const std::lock_guard lock(g_open_mutex);
  g_open.push_back(this);
}

epoch_window::~epoch_window() {
  {
    const std::lock_guard lock(g_open_mutex);
    std::erase(g_open, this);
  }
  release();
}

void epoch_window::release() noexcept {
  if (!transport_) return;
  // MPI_Win_free wants no passive-target epoch open at this origin.
  if (epoch_.all_locked) (void)transport_->unlock_all();
  for (std::size_t t = 0; t < epoch_.locked.size() && epoch_.lock_count > 0; ++t)
    if (epoch_.locked[t] != 0) (void)transport_->unlock(static_cast<int>(t));
  epoch_ = epoch_state{};
  transport_.reset();
  staged_.clear();
}

const void* epoch_window::stage(const void* origin, size_type bytes, rank_t target) {
  if (origin == nullptr || bytes == 0 || bytes > staged_bytes_max || transport_->completes_on_return()) return origin;
  auto copy = std::make_unique_for_overwrite<std::byte[]>(bytes);
  std::memcpy(copy.get(), origin, bytes);
  staged_.push_back({target, std::move(copy)});
  return staged_.back().bytes.get();
}

void epoch_window::unstage(rank_t target) noexcept {
  if (target == all_ranks)
    staged_.clear();
  else
    std::erase_if(staged_, [&](const staged_origin& s) { return s.target == target; });
}

// Under the lock: a window that another thread destroys meanwhile waits for its release here.
void release_rma_windows() noexcept {
  const std::lock_guard lock(g_open_mutex);
  // A window over this process alone (no MPI_Win) has nothing to release before MPI_Finalize.
  for (epoch_window* w : g_open)
    if (w->over_mpi()) w->release();
  std::erase_if(g_open, [](const epoch_window* w) { return !w->valid(); });
}

status epoch_window::live() const {
  if (!transport_)
    return status(status_code::invalid_state, "the memory_window was released when its environment ended");
  return {};
}

size_type epoch_window::size() const noexcept {
  return transport_ ? transport_->extents()[static_cast<std::size_t>(transport_->rank())] : 0;
}

status epoch_window::check_target(rank_t target, const char* what) const {
  DTL_TRY(live());
  if (target < 0 || static_cast<std::size_t>(target) >= epoch_.locked.size())
    return status(status_code::invalid_rank,
                  fmt::format("{}: rank {} is outside the window's ranks [0, {})", what, target, epoch_.locked.size()));
  return {};
}

rma_access_epoch epoch_window::access_epoch(rank_t target) const noexcept {
  if (!transport_ || target < 0 || static_cast<std::size_t>(target) >= epoch_.locked.size())
    return rma_access_epoch::none;
  if (epoch_.all_locked || epoch_.locked[static_cast<std::size_t>(target)] != 0) return rma_access_epoch::passive;
  return epoch_.fence_open ? rma_access_epoch::fence : rma_access_epoch::none;
}

status epoch_window::check_access(rank_t target, size_type offset, size_type bytes, const char* what) {
  if (status s = check_target(target, what); !s.ok()) return s;
  const std::uint64_t extent = transport_->extents()[static_cast<std::size_t>(target)];
  if (offset > extent || bytes > extent - offset)
    return status(status_code::out_of_range, fmt::format("{}: bytes [{}, {}) are outside the {} bytes rank {} exposes",
                                                         what, offset, offset + bytes, extent, target));
  if (bytes > static_cast<size_type>(INT_MAX))
    return status(status_code::out_of_range, fmt::format("{}: {} bytes is more than one access moves", what, bytes));
  if (access_epoch(target) == rma_access_epoch::none) return no_epoch(what, target);
  if (epoch_.fence_open) epoch_.fence_accessed = true;
  return {};
}

// Every rank learns whether any rank refused its fence before any rank enters MPI_Win_fence.
result<void> epoch_window::fence(int assert_flags) {
  DTL_TRY(live());
  const bool ready = !epoch_.all_locked && epoch_.lock_count == 0;
  DTL_ASSIGN_OR_RETURN(const bool all_ready, transport_->all_ready(ready));
  if (!ready)
    return status(status_code::invalid_state,
                  "fence inside a passive-target epoch: unlock() or unlock_all() first (the fence was refused on "
                  "every rank)");
  if (!all_ready)
    return status(status_code::invalid_state,
                  "fence refused: another rank still holds a lock of the window (unlock before fencing)");
  DTL_TRY(transport_->fence(assert_flags));
  unstage(all_ranks);
  epoch_.fence_open = true;
  epoch_.fence_accessed = false;
  return {};
}

// A lock may follow a fence whose epoch saw no access (MPI: a fence opens an epoch only when accesses
// follow it); after an access the next fence must close that epoch first.
result<void> epoch_window::lock(rank_t target, rma_lock_mode mode) {
  DTL_TRY(check_target(target, "lock"));
  if (epoch_.all_locked)
    return status(status_code::invalid_state, fmt::format("lock({}) inside lock_all(): it holds every rank", target));
  if (epoch_.locked[static_cast<std::size_t>(target)] != 0)
    return status(status_code::invalid_state, fmt::format("lock({}): this rank holds that lock already", target));
  if (epoch_.fence_open && epoch_.fence_accessed)
    return status(status_code::invalid_state,
                  fmt::format("lock({}) inside a fence epoch with accesses: close it with fence() first", target));
  DTL_TRY(transport_->lock(target, mode));
  epoch_.locked[static_cast<std::size_t>(target)] = 1;
  ++epoch_.lock_count;
  epoch_.fence_open = false;
  return {};
}

result<void> epoch_window::unlock(rank_t target) {
  DTL_TRY(check_target(target, "unlock"));
  if (epoch_.locked[static_cast<std::size_t>(target)] == 0)
    return status(status_code::invalid_state, fmt::format("unlock({}) without lock({})", target, target));
  DTL_TRY(transport_->unlock(target));
  unstage(target);
  epoch_.locked[static_cast<std::size_t>(target)] = 0;
  --epoch_.lock_count;
  return {};
}

result<void> epoch_window::lock_all() {
  DTL_TRY(live());
  if (epoch_.all_locked || epoch_.lock_count > 0)
    return status(status_code::invalid_state, "lock_all() while this rank holds a lock of the window");
  if (epoch_.fence_open && epoch_.fence_accessed)
    return status(status_code::invalid_state, "lock_all() inside a fence epoch with accesses: fence() first");
  DTL_TRY(transport_->lock_all());
  epoch_.all_locked = true;
  epoch_.fence_open = false;
  return {};
}

result<void> epoch_window::unlock_all() {
  DTL_TRY(live());
  if (!epoch_.all_locked) return status(status_code::invalid_state, "unlock_all() without lock_all()");
  DTL_TRY(transport_->unlock_all());
  unstage(all_ranks);
  epoch_.all_locked = false;
  return {};
}

result<void> epoch_window::flush_one(rank_t target, bool local) {
  const char* what = local ? "flush_local" : "flush";
  DTL_TRY(check_target(target, what));
  if (!epoch_.all_locked && epoch_.locked[static_cast<std::size_t>(target)] == 0)
    return status(
        status_code::invalid_state,
        fmt::format("{}({}) outside a passive-target epoch: lock({}) or lock_all() first", what, target, target));
  DTL_TRY(transport_->flush(target, local));
  unstage(target);
  return {};
}

result<void> epoch_window::flush_every(bool local) {
  DTL_TRY(live());
  if (!epoch_.all_locked && epoch_.lock_count == 0)
    return status(status_code::invalid_state, fmt::format("{} outside a passive-target epoch: lock first",
                                                          local ? "flush_local_all" : "flush_all"));
  DTL_TRY(transport_->flush(all_ranks, local));
  unstage(all_ranks);
  return {};
}

result<void> epoch_window::put(const void* origin, size_type size, rank_t target, size_type target_offset) {
  if (origin == nullptr && size > 0) return status(status_code::invalid_argument, "put: the origin buffer is null");
  DTL_TRY(check_access(target, target_offset, size, "put"));
  if (size == 0) return {};
  DTL_TRY(transport_->put(stage(origin, size, target), size, target, target_offset));
  return {};
}

result<void> epoch_window::get(void* origin, size_type size, rank_t target, size_type target_offset) {
  if (origin == nullptr && size > 0) return status(status_code::invalid_argument, "get: the origin buffer is null");
  DTL_TRY(check_access(target, target_offset, size, "get"));
  if (size == 0) return {};
  DTL_TRY(transport_->get(origin, size, target, target_offset));
  return {};
}

result<void> epoch_window::complete_locally(rank_t target, rma_request_handle& request) {
  if (access_epoch(target) == rma_access_epoch::passive) {
    DTL_TRY(transport_->flush(target, true));
    unstage(target);
  }
  request.completed = true;
  return {};
}

result<void> epoch_window::async_put(const void* origin, size_type size, rank_t target, size_type target_offset,
                                     rma_request_handle& request) {
  DTL_TRY(put(origin, size, target, target_offset));
  return complete_locally(target, request);
}

result<void> epoch_window::async_get(void* origin, size_type size, rank_t target, size_type target_offset,
                                     rma_request_handle& request) {
  DTL_TRY(get(origin, size, target, target_offset));
  return complete_locally(target, request);
}

result<void> epoch_window::fetch_and_op(const void* origin, void* result_buf, size_type size, rank_t target,
                                        size_type target_offset, rma_reduce_op op) {
  DTL_TRY(check_fetch(result_buf, size));
  return typed_accumulate(origin, result_buf, size, target, target_offset, op, rma_datatype::u8);
}

result<void> epoch_window::typed_accumulate(const void* origin, void* result_buf, size_type size, rank_t target,
                                            size_type target_offset, rma_reduce_op op, rma_datatype type) {
  const char* what = result_buf == nullptr ? "accumulate" : "get_accumulate";
  DTL_TRY(check_combine(origin, result_buf, size, op, type));
  const std::size_t element = rma_datatype_size(type);
  DTL_TRY(check_access(target, target_offset, size, what));
  if (size == 0) return {};
  // MPI reads the origin even for no_op; give it the target's own bytes' worth of something valid.
  const void* source = stage(origin != nullptr ? origin : result_buf, size, target);
  DTL_TRY(transport_->accumulate(source, result_buf, size / element, type, target, target_offset, op));
  return {};
}

result<void> epoch_window::compare_and_swap(const void* origin, const void* compare, void* result_buf, size_type size,
                                            rank_t target, size_type target_offset) {
  DTL_ASSIGN_OR_RETURN(const rma_datatype type, swap_element(origin, compare, result_buf, size));
  DTL_TRY(check_access(target, target_offset, size, "compare_and_swap"));
  DTL_TRY(transport_->compare_and_swap(stage(origin, size, target), stage(compare, size, target), result_buf, type,
                                       target, target_offset));
  return {};
}

}  // namespace dtl::detail
