// SPDX-License-Identifier: MIT
#include "block_cache.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include <fmt/format.h>

namespace dtl::hip::detail {

namespace {

void destroy_fence(hipEvent_t& fence) noexcept {
  if (fence == nullptr) return;
  // A pending record is fine: the runtime releases the event once it completes.
  if (const hipError_t e = hipEventDestroy(fence); e != hipSuccess)
    report_unhandled(to_status(e, "hipEventDestroy(pool fence)"));
  fence = nullptr;
}

}  // namespace

block_cache::~block_cache() {
  if (lanes_.empty()) return;
  auto guard = device_guard::enter(device_);  // events are destroyed with their device current
  for (auto& [stream, l] : lanes_) destroy_fence(l->fence);
}

block_cache::lane& block_cache::lane_of(hipStream_t stream) {
  if (last_ != nullptr && last_->stream == stream) return *last_;
  std::unique_ptr<lane>& slot = lanes_[stream];
  if (!slot) {
    slot = std::make_unique<lane>();
    slot->stream = stream;
  }
  last_ = slot.get();
  return *slot;
}

void* block_cache::pop_front(std::deque<block>& blocks) {
  void* ptr = blocks.front().ptr;
  blocks.pop_front();
  return ptr;
}

result<void*> block_cache::take(std::size_t size, hipStream_t stream) {
  // Freed on this stream: stream order already puts the new work after the old. The newest block first
  // (its memory is the likeliest to be in the caches).
  lane* own = (last_ != nullptr && last_->stream == stream) ? last_ : nullptr;
  if (own == nullptr) {
    if (const auto it = lanes_.find(stream); it != lanes_.end()) own = it->second.get();
  }
  if (own != nullptr) {
    last_ = own;
    if (const auto f = own->free.find(size); f != own->free.end() && !f->second.empty()) {
      void* ptr = f->second.back().ptr;
      f->second.pop_back();
      cached_bytes_ -= size;
      return ptr;
    }
  }
  if (const auto f = ready_.free.find(size); f != ready_.free.end() && !f->second.empty()) {
    void* ptr = f->second.back().ptr;
    f->second.pop_back();
    cached_bytes_ -= size;
    return ptr;
  }
  for (auto& [other, l] : lanes_) {
    if (l.get() == own) continue;
    DTL_ASSIGN_OR_RETURN(void* ptr, take_completed(*l, size));
    if (ptr != nullptr) {
      cached_bytes_ -= size;
      return ptr;
    }
  }
  return nullptr;
}

result<void*> block_cache::take_completed(lane& l, std::size_t size) {
  const auto f = l.free.find(size);
  if (f == l.free.end() || f->second.empty()) return nullptr;
  std::deque<block>& blocks = f->second;  // oldest first
  if (blocks.front().free_number > l.done && l.fence_pending) {
    // Asked even when the fence does not cover this block: once it is seen complete, the lane's next
    // free records a new one that will.
    const hipError_t e = hipEventQuery(l.fence);
    if (e == hipErrorNotReady) {
      // Not a failure; keep it from lingering as the thread's last error.
      if (hipPeekAtLastError() == hipErrorNotReady) static_cast<void>(hipGetLastError());
      return nullptr;
    }
    if (e != hipSuccess) return to_status(e, "hipEventQuery(pool fence)");
    l.done = l.fenced;
    l.fence_pending = false;
  }
  if (blocks.front().free_number > l.done) return nullptr;
  return pop_front(blocks);
}

status block_cache::put(void* ptr, std::size_t size, hipStream_t stream) {
  lane& l = lane_of(stream);
  l.free[size].push_back(block{ptr, ++l.frees});
  cached_bytes_ += size;
  if (l.fence_pending) return {};  // a later free records the next fence
  return fence(l);
}

status block_cache::fence(lane& l) {
  // With the cache's device current: the event is created there, and the null stream means its null stream.
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));
  if (l.fence == nullptr) {
    if (const hipError_t e = hipEventCreateWithFlags(&l.fence, hipEventDisableTiming); e != hipSuccess) {
      l.fence = nullptr;
      return to_status(e, fmt::format("hipEventCreateWithFlags for the pool's fence on device {}", device_));
    }
  }
  if (const hipError_t e = hipEventRecord(l.fence, l.stream); e != hipSuccess)
    return to_status(e, fmt::format("hipEventRecord(pool fence, stream {}); blocks freed on that stream wait for "
                                    "trim() before another stream reuses them",
                                    static_cast<const void*>(l.stream)));
  l.fenced = l.frees;
  l.fence_pending = true;
  return {};
}

void block_cache::put_ready(void* ptr, std::size_t size) {
  ready_.free[size].push_back(block{ptr, 0});
  cached_bytes_ += size;
}

block_cache::drained block_cache::drain() {
  drained out;
  for (auto& [size, blocks] : ready_.free)
    for (const block& b : blocks) out.blocks.emplace_back(b.ptr, size);
  ready_.free.clear();
  if (!lanes_.empty()) {
    auto guard = device_guard::enter(device_);
    for (auto& [stream, l] : lanes_) {
      for (auto& [size, blocks] : l->free) {
        for (const block& b : blocks) {
          out.blocks.emplace_back(b.ptr, size);
          if (b.free_number > l->done) out.all_done = false;
        }
      }
      destroy_fence(l->fence);
    }
    lanes_.clear();
    last_ = nullptr;
  }
  cached_bytes_ = 0;
  return out;
}

}  // namespace dtl::hip::detail
