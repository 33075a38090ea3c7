// SPDX-License-Identifier: MIT
#pragma once
// Private: the state of a hip_pool_memory_space with a device and a backing. One mutex guards the table
// of live allocations, the counters and the block cache; calls that may take long (hipMalloc, hipFree,
// synchronisation) run without it.

#include <dtl/core/result.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>
#include <dtl/hip/runtime.hpp>

#include "../memory/known_memory.hpp"
#include "block_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace dtl::hip::detail {

class pool_core {
 public:
  pool_core(pool_backing backing, int device) noexcept : backing_(backing), device_(device), cache_(device) {}
  /// Gives the cache back; live allocations are reported and left allocated.
  ~pool_core();
  pool_core(const pool_core&) = delete;
  pool_core& operator=(const pool_core&) = delete;

  /// Creates what the backing needs (the runtime backing's hipMemPool).
  [[nodiscard]] status start();

  /// Names this pool's memory in the table of known memory (contains()).
  [[nodiscard]] owner_id owner() const noexcept { return owner_; }

  [[nodiscard]] result<void*> allocate(std::size_t bytes, hipStream_t stream);
  [[nodiscard]] status deallocate(void* ptr, std::size_t bytes, hipStream_t stream);
  [[nodiscard]] status reserve(std::size_t bytes, std::size_t count, hipStream_t stream);
  [[nodiscard]] status trim();
  [[nodiscard]] pool_stats stats() const;

 private:
  struct live_allocation {
    std::size_t bytes;  // what the caller asked for
    std::size_t held;   // what it occupies (caching: its size class)
  };
  using live_table = std::unordered_map<void*, live_allocation>;

  /// New memory from the runtime. Out of memory trims the cache and retries once, when `may_trim` (reserve
  /// does not: the cache it would give back may be its own work).
  [[nodiscard]] result<void*> obtain(std::size_t held, hipStream_t stream, bool may_trim = true);
  [[nodiscard]] status reserve_blocks(std::size_t bytes, std::size_t count, hipStream_t stream);
  [[nodiscard]] status reserve_runtime(std::size_t bytes, std::size_t count, hipStream_t stream);
  [[nodiscard]] hipError_t ask_runtime(void** out, std::size_t held, hipStream_t stream) noexcept;
  /// Gives memory that obtain() returned back to the runtime.
  [[nodiscard]] status give_back(void* ptr, std::size_t held, hipStream_t stream);
  /// Records a new live allocation (under the lock).
  void admit(void* ptr, std::size_t bytes, std::size_t held);
  [[nodiscard]] status trim_cache();
  [[nodiscard]] std::string describe(std::size_t bytes) const;

  const pool_backing backing_;
  const int device_;
  const owner_id owner_ = new_owner_id();
  hipMemPool_t memory_pool_ = nullptr;  // runtime backing

  mutable std::mutex mutex_;
  live_table live_;
  std::vector<live_table::node_type> spare_nodes_;  // reused, so that a hit allocates no host memory
  block_cache cache_;                               // caching backing
  std::size_t bytes_in_use_ = 0;
  std::size_t peak_bytes_ = 0;
  std::size_t held_in_use_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
  std::uint64_t trims_ = 0;
  std::uint64_t out_of_memory_retries_ = 0;
};

}  // namespace dtl::hip::detail
