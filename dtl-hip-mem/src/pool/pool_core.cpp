// SPDX-License-Identifier: MIT
#include "pool_core.hpp"

#include <dtl/core/status_boundary.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include "../platform.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace dtl::hip::detail {

namespace {

constexpr std::string_view owner_name = "hip_pool";

void clear_pending(hipError_t error) noexcept {
  if (hipPeekAtLastError() == error) static_cast<void>(hipGetLastError());
}

}  // namespace

pool_core::~pool_core() {
  std::size_t live_count = 0;
  std::size_t live_bytes = 0;
  {
    const std::lock_guard lock(mutex_);
    live_count = live_.size();
    live_bytes = bytes_in_use_;
    // A later pool at this address must not take these for its own.
    for (const auto& [ptr, allocation] : live_) static_cast<void>(forget(ptr, owner_, allocation.held, owner_name));
  }
  try {
    if (live_count != 0)
      report_unhandled(status(status_code::invalid_state,
                              fmt::format("{} destroyed with {} live allocation(s) of {} bytes: they stay allocated",
                                          describe(0), live_count, live_bytes)));
    if (status s = trim_cache(); !s.ok()) report_unhandled(s);
    if (memory_pool_ != nullptr) {
      // Allocations still live keep the pool's memory until they are freed; the runtime handles that.
      if (const hipError_t e = hipMemPoolDestroy(memory_pool_); e != hipSuccess)
        report_unhandled(to_status(e, "hipMemPoolDestroy"));
    }
  } catch (...) {  // only formatting can throw (bad_alloc)
    report_unhandled(status(status_code::internal_error, "hip_pool: releasing the pool failed"));
  }
}

std::string pool_core::describe(std::size_t bytes) const {
  std::string what = fmt::format("hip_pool ({} backing) on device {}", pool_backing_name(backing_), device_);
  if (bytes != 0) what += fmt::format(", {} bytes", bytes);
  return what;
}

status pool_core::start() {
  if (backing_ != pool_backing::runtime) return {};
  DTL_ASSIGN_OR_RETURN(memory_pool_, platform::create_memory_pool(device_));
  return {};
}

// ---- allocation ----

void pool_core::admit(void* ptr, std::size_t bytes, std::size_t held) {
  if (!spare_nodes_.empty()) {
    live_table::node_type node = std::move(spare_nodes_.back());
    spare_nodes_.pop_back();
    node.key() = ptr;
    node.mapped() = live_allocation{bytes, held};
    live_.insert(std::move(node));
  } else {
    live_.emplace(ptr, live_allocation{bytes, held});
  }
  bytes_in_use_ += bytes;
  held_in_use_ += held;
  peak_bytes_ = std::max(peak_bytes_, bytes_in_use_);
  ++total_;
}

result<void*> pool_core::allocate(std::size_t bytes, hipStream_t stream) {
  const std::size_t held = backing_ == pool_backing::caching ? hip_pool_memory_space::block_size(bytes) : bytes;
  if (held == 0)
    return status(status_code::out_of_memory, fmt::format("{}: no device has {} bytes", describe(0), bytes));
  if (backing_ == pool_backing::caching) {
    const std::lock_guard lock(mutex_);
    DTL_ASSIGN_OR_RETURN(void* cached, cache_.take(held, stream));
    if (cached != nullptr) {
      ++hits_;
      admit(cached, bytes, held);
      return cached;
    }
  }
  DTL_ASSIGN_OR_RETURN(void* fresh, obtain(held, stream));
  const std::lock_guard lock(mutex_);
  if (backing_ != pool_backing::runtime) ++misses_;  // the runtime's pool does not say whether it had the memory
  admit(fresh, bytes, held);
  return fresh;
}

hipError_t pool_core::ask_runtime(void** out, std::size_t held, hipStream_t stream) noexcept {
  if (backing_ == pool_backing::runtime) return hipMallocFromPoolAsync(out, held, memory_pool_, stream);
  return hipMalloc(out, held);
}

result<void*> pool_core::obtain(std::size_t held, hipStream_t stream, bool may_trim) {
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));
  void* ptr = nullptr;
  hipError_t e = ask_runtime(&ptr, held, stream);
  bool retried = false;
  if (e == hipErrorOutOfMemory && may_trim && backing_ != pool_backing::direct) {  // direct has no cache
    clear_pending(e);
    {
      const std::lock_guard lock(mutex_);
      ++out_of_memory_retries_;
    }
    DTL_TRY(trim());
    e = ask_runtime(&ptr, held, stream);
    retried = true;
  }
  const char* call = backing_ == pool_backing::runtime ? "hipMallocFromPoolAsync" : "hipMalloc";
  if (e != hipSuccess)
    return to_status(e, fmt::format("{} for {}{}", call, describe(held),
                                    retried ? " (after giving the cache back and retrying once)" : ""));
  if (ptr == nullptr || reinterpret_cast<std::uintptr_t>(ptr) % hip_pool_memory_space::max_alignment != 0) {
    if (ptr != nullptr) {
      remember(ptr, {held, {memory_kind::device, device_}, owner_});
      if (status s = give_back(ptr, held, stream); !s.ok()) report_unhandled(s);
    }
    return status(status_code::internal_error,
                  fmt::format("{} for {} gave {}, not 256-byte aligned memory", call, describe(held), ptr));
  }
  remember(ptr, {held, {memory_kind::device, device_}, owner_});
  return ptr;
}

// ---- deallocation ----

status pool_core::deallocate(void* ptr, std::size_t bytes, hipStream_t stream) {
  live_allocation freed{};
  {
    const std::lock_guard lock(mutex_);
    const auto it = live_.find(ptr);
    if (it == live_.end())
      return status(status_code::invalid_pointer,
                    fmt::format("{}: deallocate({}, {} bytes): not a live allocation of this pool (a foreign "
                                "pointer, an interior pointer, or memory already freed); nothing was freed",
                                describe(0), ptr, bytes));
    if (it->second.bytes != bytes)
      return status(status_code::invalid_argument,
                    fmt::format("{}: deallocate({}, {} bytes): it was allocated with {} bytes; nothing was freed",
                                describe(0), ptr, bytes, it->second.bytes));
    freed = it->second;
    spare_nodes_.push_back(live_.extract(it));
    bytes_in_use_ -= freed.bytes;
    held_in_use_ -= freed.held;
    // The block stays in the cache even if fencing its stream fails (it then waits for trim()).
    if (backing_ == pool_backing::caching) return cache_.put(ptr, freed.held, stream);
  }
  status s = give_back(ptr, freed.held, stream);
  if (!s.ok()) {  // still allocated: still live
    const std::lock_guard lock(mutex_);
    live_.emplace(ptr, freed);
    bytes_in_use_ += freed.bytes;
    held_in_use_ += freed.held;
  }
  return s;
}

status pool_core::give_back(void* ptr, std::size_t held, hipStream_t stream) {
  DTL_TRY(forget(ptr, owner_, held, owner_name));
  // With the pool's device current: hipFree wants it, and the null stream means its null stream.
  result<device_guard> guard = device_guard::enter(device_);
  hipError_t e = hipSuccess;
  if (guard.has_value()) e = backing_ == pool_backing::runtime ? hipFreeAsync(ptr, stream) : hipFree(ptr);
  if (!guard.has_value() || e != hipSuccess) {
    remember(ptr, {held, {memory_kind::device, device_}, owner_});  // still allocated: still ours
    if (!guard.has_value()) return std::move(guard).error();
    return to_status(e, fmt::format("{} of {} for {}", backing_ == pool_backing::runtime ? "hipFreeAsync" : "hipFree",
                                    ptr, describe(held)));
  }
  return {};
}

// ---- warm-up and release ----

status pool_core::reserve(std::size_t bytes, std::size_t count, hipStream_t stream) {
  if (count == 0) return {};
  switch (backing_) {
    case pool_backing::caching: return reserve_blocks(bytes, count, stream);
    case pool_backing::runtime: return reserve_runtime(bytes, count, stream);
    case pool_backing::automatic:
    case pool_backing::direct: break;
  }
  return {};  // direct keeps nothing
}

// All `count` blocks, or none: a block the device cannot give fails the call, and the blocks made before
// it are given back (the cache is left as it was). Never trims: that would free this call's own blocks.
status pool_core::reserve_blocks(std::size_t bytes, std::size_t count, hipStream_t stream) {
  const std::size_t held = hip_pool_memory_space::block_size(bytes);
  if (held == 0)
    return status(status_code::out_of_memory, fmt::format("{}: no device has {} bytes", describe(0), bytes));
  std::vector<void*> made;
  made.reserve(count);  // count was checked against max_reserve_count
  auto give_back_from = [&](std::size_t first) {
    for (std::size_t i = first; i < made.size(); ++i)
      if (status s = give_back(made[i], held, stream); !s.ok()) report_unhandled(s);
  };
  for (std::size_t i = 0; i < count; ++i) {
    result<void*> block = obtain(held, stream, /*may_trim=*/false);
    if (!block.has_value()) {
      give_back_from(0);
      return status(block.error().code(),
                    fmt::format("{}: reserve of {} blocks failed at block {}, and the {} made were given back: {}",
                                describe(bytes), count, i + 1, i, block.error().message()));
    }
    made.push_back(*block);
  }
  const std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < made.size(); ++i) {
    try {
      cache_.put_ready(made[i], held);
    } catch (...) {  // no host memory to keep the rest: give them back (those kept stay until trim())
      give_back_from(i);
      return current_exception_status(describe(bytes) + ": reserve");
    }
  }
  return {};
}

// Grows the runtime's pool: allocate, free, and let the release threshold keep the memory. On failure the
// pool is trimmed back to what it held before.
status pool_core::reserve_runtime(std::size_t bytes, std::size_t count, hipStream_t stream) {
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));
  const result<platform::memory_pool_usage> before = platform::memory_pool_usage_of(memory_pool_);
  std::vector<void*> blocks;
  blocks.reserve(count);  // count was checked against max_reserve_count
  status first;
  for (std::size_t i = 0; i < count && first.ok(); ++i) {
    void* block = nullptr;
    if (const hipError_t e = hipMallocFromPoolAsync(&block, bytes, memory_pool_, stream); e != hipSuccess) {
      clear_pending(e);
      first = to_status(e, fmt::format("hipMallocFromPoolAsync in reserve() of {} blocks for {}, at block {}", count,
                                       describe(bytes), i + 1));
    } else {
      blocks.push_back(block);
    }
  }
  for (void* block : blocks) {
    if (const hipError_t e = hipFreeAsync(block, stream); e != hipSuccess && first.ok())
      first = to_status(e, fmt::format("hipFreeAsync in reserve() for {}", describe(bytes)));
  }
  if (const hipError_t e = hipStreamSynchronize(stream); e != hipSuccess && first.ok())
    first = to_status(e, fmt::format("hipStreamSynchronize in reserve() for {}", describe(bytes)));
  if (!first.ok() && before.has_value()) {
    if (const hipError_t e = hipMemPoolTrimTo(memory_pool_, before->reserved); e != hipSuccess)
      report_unhandled(to_status(e, fmt::format("hipMemPoolTrimTo after a failed reserve() for {}", describe(bytes))));
  }
  return first;
}

status pool_core::trim() {
  {
    const std::lock_guard lock(mutex_);
    ++trims_;
  }
  if (backing_ == pool_backing::caching) return trim_cache();
  if (backing_ != pool_backing::runtime) return {};
  // Frees ordered on streams count as free memory only once the streams reach them.
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));
  if (const hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
    return to_status(e, fmt::format("hipDeviceSynchronize before trimming {}", describe(0)));
  if (const hipError_t e = hipMemPoolTrimTo(memory_pool_, 0); e != hipSuccess)
    return to_status(e, fmt::format("hipMemPoolTrimTo(0) for {}", describe(0)));
  return {};
}

status pool_core::trim_cache() {
  block_cache::drained cached;
  {
    const std::lock_guard lock(mutex_);
    cached = cache_.drain();
  }
  if (cached.blocks.empty()) return {};
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device_));
  // A block freed on a stream whose fence has not been seen complete may still be in use by pending work
  // (the stream may even be gone): wait for the whole device, once.
  if (!cached.all_done) {
    if (const hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
      return to_status(e, fmt::format("hipDeviceSynchronize before releasing the cache of {}; {} cached blocks stay "
                                      "allocated",
                                      describe(0), cached.blocks.size()));
  }
  status first;
  for (const auto& [block, size] : cached.blocks) {
    if (status s = give_back(block, size, nullptr); !s.ok() && first.ok()) first = std::move(s);
  }
  return first;
}

pool_stats pool_core::stats() const {
  pool_stats s;
  {
    const std::lock_guard lock(mutex_);
    s.bytes_in_use = bytes_in_use_;
    s.peak_bytes = peak_bytes_;
    s.live_allocations = live_.size();
    s.total_allocations = total_;
    s.hits = hits_;
    s.misses = misses_;
    s.trims = trims_;
    s.out_of_memory_retries = out_of_memory_retries_;
    s.bytes_cached = cache_.cached_bytes();
    s.bytes_reserved = held_in_use_ + s.bytes_cached;
  }
  s.backing = backing_;
  if (backing_ == pool_backing::runtime) {
    if (const result<platform::memory_pool_usage> usage = platform::memory_pool_usage_of(memory_pool_);
        usage.has_value()) {
      s.bytes_reserved = usage->reserved;
      s.bytes_cached = usage->reserved > usage->used ? usage->reserved - usage->used : 0;
    }
  }
  return s;
}

}  // namespace dtl::hip::detail
