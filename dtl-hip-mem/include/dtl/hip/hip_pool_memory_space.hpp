// SPDX-License-Identifier: MIT
#pragma once
// hip_pool_memory_space: a stream-ordered caching allocator of device memory.
//
//   dtl::hip::hip_pool_memory_space pool;                 // current device, backing chosen at run time
//   DTL_ASSIGN_OR_RETURN(void* p, pool.allocate(bytes, stream));   // usable by work on `stream`
//   launch(..., p, stream);
//   pool.deallocate(p, bytes, stream);                    // reusable once `stream` has passed this point
//
// Stream order. Memory allocated on a stream may be used by work on that stream (or by work ordered after
// it). Freed on a stream, it is reused at once by later allocations on the same stream (stream order
// protects it), and by other streams only when an event shows that the first stream's work up to the free
// is done, or when the runtime's pool guarantees it. The exec layer's hip_stream and a plain hipStream_t
// both convert to stream_ref. Every stream given to a pool must belong to the pool's device.
//
// Backings (pool_backing), chosen when the pool is built and reported by backing() and stats():
//   runtime  the runtime's stream-ordered pools (hipMallocFromPoolAsync on a pool of our own, its release
//            threshold set to "keep everything"), where the device supports them;
//   caching  our own event-gated cache: blocks from hipMalloc in size classes (25% steps), reused by
//            size class, released by trim() or when the device runs out of memory;
//   direct   plain hipMalloc / hipFree, no caching (hipFree waits for the device).
// `automatic` takes, in order: the constructor's pool_options::backing when it is not automatic, the
// environment variable DTL_HIP_POOL_BACKING (runtime, caching, direct or automatic), and otherwise the
// platform's choice, which is caching on both platforms: on NVIDIA it is faster than the runtime's pools
// (0.08 us against 1.0 us per allocate+deallocate on the H200), and ROCm's hipMallocAsync has had
// out-of-memory and corruption defects (kokkos#8746, ROCm/hip#3775, CTranslate2#2090). An explicit backing the device
// cannot give, or an unknown value in the environment, makes every allocate fail with that reason (availability()),
// never a silent fallback.
//
// MemorySpace. allocate(bytes) and deallocate(ptr, bytes) are ordered on the pool's own stream
// (pool_options::stream, default: the null stream), as RMM's memory resources are. Work on another
// stream must be ordered after that stream (an event, or a synchronisation) before it touches the memory.
//
// Out of memory: the pool releases its cache (trim()) and tries once more; only then does allocate return
// out_of_memory. Errors are statuses; deallocate of a pointer this pool did not hand out (or handed out
// with another size) is an error that frees nothing and changes no count.
//
// pool_options::stream must outlive the pool: allocate(bytes), deallocate(ptr, bytes) and reserve() use it
// (a destroyed one is undefined behaviour; the runtime backing crashes inside hipMallocFromPoolAsync).
//
// Thread-safe; statistics are exact. A stream whose blocks are cached may be destroyed: its blocks wait
// for trim() (which synchronises the device first). A destroyed stream's handle that the runtime hands out
// again for a new stream would inherit them while the old stream's work may still run, so destroy a stream
// only after its work that used pool memory has finished (as with RMM's and CUB's pools).

#include <dtl/hip/export_mem.hpp>
#include <dtl/core/allocation_stats.hpp>
#include <dtl/core/memory_space.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace dtl::hip {

enum class pool_backing {
  automatic,  // resolved when the pool is built (see above); never the backing of a built pool
  runtime,    // hipMallocFromPoolAsync / hipFreeAsync on a hipMemPool of the pool's own
  caching,    // our own event-gated cache of hipMalloc blocks
  direct,     // hipMalloc / hipFree
};

/// The environment variable that picks the backing of pools built with pool_backing::automatic.
inline constexpr std::string_view pool_backing_environment = "DTL_HIP_POOL_BACKING";

/// "automatic", "runtime", "caching" or "direct".
[[nodiscard]] DTL_HIP_MEM_API std::string_view pool_backing_name(pool_backing backing) noexcept;

/// Reads a backing name ("automatic" or "auto", "runtime", "caching", "direct"); invalid_argument otherwise.
[[nodiscard]] DTL_HIP_MEM_API result<pool_backing> parse_pool_backing(std::string_view text);

/// The backing a pool takes. `requested` wins unless it is automatic; then `environment` (the value of
/// DTL_HIP_POOL_BACKING, empty when unset) unless it is empty or automatic; then runtime when
/// `runtime_pools_supported` and `platform_prefers_runtime`, else caching. An explicit runtime without
/// `runtime_pools_supported` is not_supported; an unknown environment value is invalid_argument.
[[nodiscard]] DTL_HIP_MEM_API result<pool_backing> select_pool_backing(pool_backing requested,
                                                                       std::string_view environment,
                                                                       bool runtime_pools_supported,
                                                                       bool platform_prefers_runtime);

struct pool_options {
  pool_backing backing = pool_backing::automatic;
  /// The device the pool allocates on; the current device when empty.
  std::optional<int> device;
  /// The stream of allocate(bytes) and deallocate(ptr, bytes) (the MemorySpace members).
  stream_ref stream{};
};

/// allocation_stats (bytes_in_use, peak_bytes, live_allocations, total_allocations: what callers asked
/// for) plus what the pool holds. All exact.
struct pool_stats : allocation_stats {
  pool_backing backing = pool_backing::automatic;
  /// Bytes held from the device: handed out and cached. runtime: the pool's ReservedMemCurrent.
  std::size_t bytes_reserved = 0;
  /// Bytes held and free for reuse (caching: the cache; runtime: reserved minus the pool's used memory).
  std::size_t bytes_cached = 0;
  /// Allocations served from the cache (caching only; the runtime does not say).
  std::uint64_t hits = 0;
  /// Allocations that asked the runtime for new memory (caching and direct).
  std::uint64_t misses = 0;
  /// Times the cache was released: trim() calls and out-of-memory retries.
  std::uint64_t trims = 0;
  /// Allocations that ran out of memory, trimmed and retried (whether the retry succeeded or not).
  std::uint64_t out_of_memory_retries = 0;
};

namespace detail {
class pool_core;
}

class DTL_HIP_MEM_API hip_pool_memory_space {
 public:
  using pointer = void*;
  static constexpr bool host_accessible = false;
  static constexpr bool device_accessible = true;
  /// Every allocation is aligned to 256 bytes; larger alignments are invalid_argument.
  static constexpr std::size_t max_alignment = 256;

  /// Automatic backing, the current device, the null stream.
  hip_pool_memory_space();
  explicit hip_pool_memory_space(const pool_options& options);
  /// Releases the cached memory. Allocations still live are reported (dtl::report_unhandled) and left
  /// alone, so a pointer still in use never becomes free memory.
  ~hip_pool_memory_space();
  hip_pool_memory_space(const hip_pool_memory_space&) = delete;
  hip_pool_memory_space& operator=(const hip_pool_memory_space&) = delete;

  /// `bytes` of device memory, aligned to 256 bytes, for work on `stream`. 0 bytes is invalid_argument;
  /// out_of_memory after a trim and one retry; availability() when the pool cannot allocate at all.
  [[nodiscard]] result<void*> allocate(std::size_t bytes, stream_ref stream);
  /// Returns `ptr` for reuse after the work on `stream` before this call. `bytes` must be what was
  /// allocated: a wrong size (invalid_argument) or a pointer this pool did not hand out (invalid_pointer)
  /// frees nothing. A null `ptr` does nothing, whatever `bytes` (as free(nullptr)). A failure goes to
  /// dtl::report_unhandled().
  void deallocate(void* ptr, std::size_t bytes, stream_ref stream) noexcept;
  /// Like deallocate(ptr, bytes, stream), but returns the failure.
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes, stream_ref stream);

  /// MemorySpace: allocate and deallocate on the pool's own stream (pool_options::stream).
  [[nodiscard]] result<void*> allocate(std::size_t bytes) { return allocate(bytes, stream_); }
  /// `alignment` must be a power of two <= 256.
  [[nodiscard]] result<void*> allocate(std::size_t bytes, std::size_t alignment);
  void deallocate(void* ptr, std::size_t bytes) noexcept { deallocate(ptr, bytes, stream_); }
  [[nodiscard]] status try_deallocate(void* ptr, std::size_t bytes) { return try_deallocate(ptr, bytes, stream_); }

  /// The most blocks one reserve() call makes.
  static constexpr std::size_t max_reserve_count = std::size_t{1} << 20;

  /// Warms the pool up: makes `count` blocks of `bytes` ready for reuse on any stream, so that the first
  /// allocations of that size do not ask the runtime (caching), or grows the runtime's pool by
  /// count * bytes, kept by its release threshold (runtime). The direct backing keeps nothing: ok.
  /// All or nothing: when the device cannot give every block, the call returns out_of_memory and gives
  /// back what it made (the cache, or the runtime's pool, is left as it was); it never trims the cache to
  /// make room. A count above max_reserve_count, or whose total overflows, is invalid_argument, judged
  /// before the device is.
  [[nodiscard]] status reserve(std::size_t bytes, std::size_t count = 1);
  /// Gives the cached memory back to the device. Synchronises the device first when some cached memory
  /// may still be in use by pending work. Live allocations are untouched.
  [[nodiscard]] status trim();

  /// ok when allocate can be asked; otherwise the status every allocate returns.
  [[nodiscard]] const status& availability() const noexcept { return availability_; }
  /// The backing in use (never automatic).
  [[nodiscard]] pool_backing backing() const noexcept { return backing_; }
  [[nodiscard]] int device_id() const noexcept { return device_; }
  /// The stream of allocate(bytes) and deallocate(ptr, bytes).
  [[nodiscard]] stream_ref stream() const noexcept { return stream_; }
  [[nodiscard]] pool_stats stats() const noexcept;
  [[nodiscard]] memory_space_properties properties() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip_pool"; }
  /// Whether `ptr` points into device memory this pool holds: a live allocation or (caching) a cached
  /// block. false for nullptr.
  [[nodiscard]] bool contains(const void* ptr) const noexcept;

  /// The bytes a request of `bytes` occupies in the caching backing: the next size class (256 bytes,
  /// then 512, 640, 768, 896, 1024, 1280, ...: four classes per power of two, so at most 25% more).
  /// 0 when `bytes` is 0 or has no class (more than 2^62).
  [[nodiscard]] static constexpr std::size_t block_size(std::size_t bytes) noexcept {
    if (bytes == 0 || bytes > (std::size_t{1} << 62)) return 0;
    if (bytes <= 512) return bytes <= 256 ? 256 : 512;
    const std::size_t power = std::bit_floor(bytes - 1);  // the largest power of two below bytes
    const std::size_t step = power / 4;
    return power + (bytes - power + step - 1) / step * step;
  }

 private:
  std::unique_ptr<detail::pool_core> core_;
  pool_backing backing_ = pool_backing::direct;
  int device_ = no_device;
  stream_ref stream_{};
  status availability_;
};

static_assert(MemorySpace<hip_pool_memory_space>);

}  // namespace dtl::hip
