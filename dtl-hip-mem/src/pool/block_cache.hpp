// SPDX-License-Identifier: MIT
#pragma once
// Private: the event-gated block cache behind the caching pool backing. Not thread-safe: the pool calls it
// under its lock.
//
// Blocks are grouped by the stream they were freed on (a lane). A block is reused
//   - at once on its own stream: stream order keeps the new work after the old;
//   - on another stream only when the lane's fence, an event recorded on the lane's stream after the
//     free, is known to have completed.
// Recording an event costs about as much as the rest of an allocation, so a lane records its fence only
// when it has none pending: when a free arrives and the previous fence was seen complete (or none was
// ever recorded). Blocks freed while a fence is pending wait for a later fence. A loop of allocations and
// frees on one stream thus records one event in total; alternating streams records one per free.
// Events are recorded only during calls that name the lane's stream, while the caller guarantees that
// the stream exists.

#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dtl::hip::detail {

class block_cache {
 public:
  /// Events are created on `device`.
  explicit block_cache(int device) noexcept : device_(device) {}
  ~block_cache();
  block_cache(const block_cache&) = delete;
  block_cache& operator=(const block_cache&) = delete;

  /// A cached block of `size` (a size class) that work on `stream` may use now, or nullptr when there is
  /// none. Blocks freed on `stream` come first, then ready blocks, then blocks of other streams whose
  /// fence has completed (querying a pending fence once). Errors: a failing event query.
  [[nodiscard]] result<void*> take(std::size_t size, hipStream_t stream);

  /// Keeps `ptr`, a block of `size` freed on `stream`, and fences the stream if it has no fence pending.
  /// The block is kept even when creating or recording the fence fails; that error is returned (the block
  /// then waits for a later fence, or trim(), before another stream may take it).
  [[nodiscard]] status put(void* ptr, std::size_t size, hipStream_t stream);

  /// Keeps a block that no pending work uses (reserve()): any stream may take it.
  void put_ready(void* ptr, std::size_t size);

  struct drained {
    std::vector<std::pair<void*, std::size_t>> blocks;  // (block, size)
    bool all_done = true;                               // false when pending work may still use one of them
  };
  /// Removes every cached block and forgets the lanes (their events are destroyed).
  [[nodiscard]] drained drain();

  [[nodiscard]] std::size_t cached_bytes() const noexcept { return cached_bytes_; }

 private:
  struct block {
    void* ptr;
    std::uint64_t free_number;  // the lane's count of frees when this one was freed
  };
  struct lane {
    hipStream_t stream = nullptr;
    hipEvent_t fence = nullptr;
    std::uint64_t frees = 0;     // blocks freed on this lane so far
    std::uint64_t fenced = 0;    // frees up to this number are covered by the last recorded fence
    std::uint64_t done = 0;      // frees up to this number are known complete
    bool fence_pending = false;  // recorded and not yet seen complete
    std::unordered_map<std::size_t, std::deque<block>> free;  // by size class, oldest first
  };

  [[nodiscard]] lane& lane_of(hipStream_t stream);
  [[nodiscard]] status fence(lane& l);
  /// An oldest block of `size` in `l` whose free is known complete, after one query of a pending fence.
  [[nodiscard]] result<void*> take_completed(lane& l, std::size_t size);
  static void* pop_front(std::deque<block>& blocks);

  int device_;
  std::unordered_map<hipStream_t, std::unique_ptr<lane>> lanes_;
  lane* last_ = nullptr;  // the lane used last: one stream is the common case
  lane ready_;            // blocks any stream may take (done is always "everything")
  std::size_t cached_bytes_ = 0;
};

}  // namespace dtl::hip::detail
