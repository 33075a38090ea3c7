// SPDX-License-Identifier: MIT
#include "staging.hpp"

#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include "../platform.hpp"
#include "parallel_copy.hpp"
#include "staging_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace dtl::hip::detail {

namespace {

// ---- options ----

constexpr std::size_t never = std::numeric_limits<std::size_t>::max();

// The host copy is what limits a staged copy: on the H200's 16-core host, 8 threads reached 55-70 % of
// pinned bandwidth and 16 threads 80-89 % (benchmarks/mem, staging rows, 2026-12-01). The threads only
// work while a pageable copy, which blocks its caller anyway, is in progress (parallel_copy.hpp).
unsigned default_threads() noexcept {
  const unsigned cores = std::thread::hardware_concurrency();
  return std::clamp(cores, 1u, 16u);
}

staging_options defaults() noexcept {
  staging_options o;
  o.threads = default_threads();
  return o;
}

status validate(const staging_options& o) {
  if (o.min_bytes == 0) return status(status_code::invalid_argument, "staging_options: min_bytes must be at least 1");
  if (o.chunk_bytes < 4096 || o.chunk_bytes > (std::size_t{1} << 30))
    return status(status_code::invalid_argument,
                  fmt::format("staging_options: chunk_bytes {} is outside [4 KiB, 1 GiB]", o.chunk_bytes));
  if (o.chunks < 2 || o.chunks > 16)
    return status(status_code::invalid_argument,
                  fmt::format("staging_options: chunks {} is outside [2, 16]", o.chunks));
  if (o.threads < 1 || o.threads > 64)
    return status(status_code::invalid_argument,
                  fmt::format("staging_options: threads {} is outside [1, 64]", o.threads));
  return {};
}

// "8388608", "8M", "512K", "1G".
bool parse_size(std::string_view text, std::size_t& out) noexcept {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) return false;
  const std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  unsigned shift = 0;
  if (suffix == "K" || suffix == "k") {
    shift = 10;
  } else if (suffix == "M" || suffix == "m") {
    shift = 20;
  } else if (suffix == "G" || suffix == "g") {
    shift = 30;
  } else if (!suffix.empty()) {
    return false;
  }
  if (value > (never >> shift)) return false;
  out = value << shift;
  return true;
}

// Reads one environment variable into `field`; a value that does not parse is reported, never ignored.
template <class Field>
void read_environment(const char* name, Field& field) {
  const char* text = std::getenv(name);
  if (text == nullptr) return;
  std::size_t value = 0;
  if (!parse_size(text, value) || value > std::numeric_limits<Field>::max()) {
    report_unhandled(
        status(status_code::invalid_argument,
               fmt::format("{}='{}' is not a number (a size may end in K, M or G); it is ignored", name, text)));
    return;
  }
  field = static_cast<Field>(value);
}

staging_options from_environment() {
  staging_options o = defaults();
  if (const char* text = std::getenv("DTL_HIP_STAGING")) {
    const std::string_view v(text);
    if (v == "0" || v == "off" || v == "false") {
      o.enabled = false;
    } else if (v != "1" && v != "on" && v != "true") {
      report_unhandled(status(status_code::invalid_argument,
                              fmt::format("DTL_HIP_STAGING='{}' is not on or off; staging stays on", v)));
    }
  }
  read_environment("DTL_HIP_STAGING_MIN_BYTES", o.min_bytes);
  read_environment("DTL_HIP_STAGING_CHUNK_BYTES", o.chunk_bytes);
  read_environment("DTL_HIP_STAGING_CHUNKS", o.chunks);
  read_environment("DTL_HIP_STAGING_THREADS", o.threads);
  if (status s = validate(o); !s.ok()) {
    report_unhandled(status(s.code(), std::string(s.message()) + " (from the DTL_HIP_STAGING_* environment); the "
                                                                 "defaults are used"));
    return defaults();
  }
  return o;
}

// ---- pinned chunks ----

// `chunks` pinned buffers of `chunk_bytes` on one device, each with the event recorded behind its last DMA.
class slot {
 public:
  slot(int device, std::size_t chunk_bytes, unsigned chunks) noexcept
      : device_(device), chunk_bytes_(chunk_bytes), events_(chunks, nullptr), pending_(chunks, 0) {}
  slot(const slot&) = delete;
  slot& operator=(const slot&) = delete;

  /// Allocates the memory and the events, with the slot's device current.
  status start() {
    if (const hipError_t e =
            hipHostMalloc(reinterpret_cast<void**>(&memory_), chunk_bytes_ * events_.size(), hipHostMallocPortable);
        e != hipSuccess) {
      memory_ = nullptr;
      return to_status(e, fmt::format("hipHostMalloc({} staging chunks of {} bytes)", events_.size(), chunk_bytes_));
    }
    for (hipEvent_t& event : events_) {
      if (const hipError_t e = hipEventCreateWithFlags(&event, hipEventDisableTiming); e != hipSuccess) {
        event = nullptr;
        return to_status(e, "hipEventCreateWithFlags for a staging chunk");
      }
    }
    return {};
  }

  /// Waits for the device to finish with every chunk, then frees it all (with the slot's device current).
  ~slot() {
    for (unsigned i = 0; i < count(); ++i) {
      if (status s = synchronize(i); !s.ok()) report_unhandled(s);
      if (events_[i] != nullptr) static_cast<void>(hipEventDestroy(events_[i]));
    }
    if (memory_ != nullptr) {
      if (const hipError_t e = hipHostFree(memory_); e != hipSuccess)
        report_unhandled(to_status(e, "hipHostFree(staging chunks)"));
    }
  }

  [[nodiscard]] int device() const noexcept { return device_; }
  [[nodiscard]] std::size_t chunk_bytes() const noexcept { return chunk_bytes_; }
  [[nodiscard]] unsigned count() const noexcept { return static_cast<unsigned>(events_.size()); }
  [[nodiscard]] unsigned char* buffer(unsigned i) const noexcept { return memory_ + i * chunk_bytes_; }

  /// Blocks until the device is done with chunk i (its last DMA has completed).
  [[nodiscard]] status synchronize(unsigned i) {
    if (pending_[i] == 0) return {};
    if (const hipError_t e = hipEventSynchronize(events_[i]); e != hipSuccess)
      return to_status(e, "hipEventSynchronize(staging chunk)");
    pending_[i] = 0;
    return {};
  }

  /// Marks chunk i busy until `stream` reaches this point.
  [[nodiscard]] status record(unsigned i, hipStream_t stream) {
    if (const hipError_t e = hipEventRecord(events_[i], stream); e != hipSuccess)
      return to_status(e, fmt::format("hipEventRecord(staging chunk, stream {}); the stream must belong to the "
                                      "current device",
                                      static_cast<const void*>(stream)));
    pending_[i] = 1;
    return {};
  }

 private:
  int device_;
  std::size_t chunk_bytes_;
  unsigned char* memory_ = nullptr;
  std::vector<hipEvent_t> events_;
  std::vector<char> pending_;
};

void destroy(std::unique_ptr<slot> s) noexcept {
  if (!s) return;
  auto guard = device_guard::enter(s->device());
  s.reset();
}

class staging_state {
 public:
  staging_state() : options_(from_environment()) { publish(); }

  [[nodiscard]] staging_options options() {
    const std::lock_guard lock(mutex_);
    return options_;
  }

  [[nodiscard]] status configure(const staging_options& o) {
    DTL_TRY(validate(o));
    std::vector<std::unique_ptr<slot>> dropped;
    {
      const std::lock_guard lock(mutex_);
      options_ = o;
      publish();
      // Slots of another shape are dropped; the ones in use are dropped when they come back.
      for (auto& s : free_)
        if (!fits(*s)) dropped.push_back(std::move(s));
      std::erase(free_, nullptr);
    }
    for (auto& s : dropped) destroy(std::move(s));
    return {};
  }

  /// A slot of `device`'s (with `device` current): a free one, or a new one.
  [[nodiscard]] result<std::unique_ptr<slot>> acquire(int device) {
    std::size_t chunk_bytes = 0;
    unsigned chunks = 0;
    {
      const std::lock_guard lock(mutex_);
      for (auto it = free_.begin(); it != free_.end(); ++it) {
        if ((*it)->device() == device) {
          std::unique_ptr<slot> s = std::move(*it);
          free_.erase(it);
          return s;
        }
      }
      chunk_bytes = options_.chunk_bytes;
      chunks = options_.chunks;
    }
    auto s = std::make_unique<slot>(device, chunk_bytes, chunks);
    if (status started = s->start(); !started.ok()) return started;
    // Registered once the runtime is up (it just gave pinned memory), so that it runs before the
    // runtime's own teardown, which was registered earlier.
    std::call_once(at_exit_registered_, [] { std::atexit(release_at_exit); });
    return s;
  }

  /// Frees the free slots (those of copies still running at exit stay), so that nothing pinned is left
  /// for a leak checker to report.
  void release_free_slots() noexcept {
    std::vector<std::unique_ptr<slot>> dropped;
    {
      const std::lock_guard lock(mutex_);
      dropped.swap(free_);
    }
    for (auto& s : dropped) destroy(std::move(s));
  }

  void release(std::unique_ptr<slot> s) noexcept {
    {
      const std::lock_guard lock(mutex_);
      if (fits(*s)) {
        free_.push_back(std::move(s));
        return;
      }
    }
    destroy(std::move(s));
  }

  [[nodiscard]] std::size_t stage_from() const noexcept { return stage_from_.load(std::memory_order_relaxed); }

 private:
  [[nodiscard]] bool fits(const slot& s) const noexcept {
    return s.chunk_bytes() == options_.chunk_bytes && s.count() == options_.chunks;
  }
  void publish() noexcept {
    stage_from_.store(options_.enabled ? options_.min_bytes : never, std::memory_order_relaxed);
  }

  static void release_at_exit() noexcept;

  std::mutex mutex_;
  staging_options options_;
  std::vector<std::unique_ptr<slot>> free_;
  std::atomic<std::size_t> stage_from_{never};
  std::once_flag at_exit_registered_;
};

// Never destroyed (a copy on another thread may still use it at exit); its free slots are released by
// an atexit handler instead, before the runtime shuts down.
staging_state& state() {
  static staging_state* const instance = new staging_state;
  return *instance;
}

void staging_state::release_at_exit() noexcept { state().release_free_slots(); }

// Holds a slot for one copy and gives it back.
class lease {
 public:
  explicit lease(std::unique_ptr<slot> s) noexcept : slot_(std::move(s)) {}
  lease(const lease&) = delete;
  lease& operator=(const lease&) = delete;
  ~lease() { state().release(std::move(slot_)); }
  [[nodiscard]] slot& get() noexcept { return *slot_; }

 private:
  std::unique_ptr<slot> slot_;
};

// ---- the two pipelines ----

status fail_copy(hipError_t e, std::size_t offset, std::size_t length, std::size_t bytes, const char* direction) {
  return to_status(e, fmt::format("hipMemcpyAsync of staged chunk [{}, {}) of {} bytes, {}", offset, offset + length,
                                  bytes, direction));
}

// Host to device: piece k is filled by the host (into chunk k % count) while the DMA of piece k-1 runs.
status copy_in(slot& s, copy_crew& crew, unsigned char* dst, const unsigned char* src, std::size_t bytes,
               hipStream_t stream, bool wait) {
  const std::vector<staging_piece> pieces = staging_pieces(bytes, s.chunk_bytes());
  unsigned last = 0;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const auto [offset, length] = pieces[k];
    const unsigned b = static_cast<unsigned>(k % s.count());
    DTL_TRY(s.synchronize(b));  // the DMA that last read this chunk is done
    crew.copy(s.buffer(b), src + offset, length, copy_crew::stores::streaming);
    if (const hipError_t e = hipMemcpyAsync(dst + offset, s.buffer(b), length, hipMemcpyHostToDevice, stream);
        e != hipSuccess)
      return fail_copy(e, offset, length, bytes, "host to device");
    DTL_TRY(s.record(b, stream));
    last = b;
  }
  if (wait) DTL_TRY(s.synchronize(last));  // the chunks complete in stream order: the last one means all
  return {};
}

// Device to host: the DMAs of the next pieces run while the host empties piece k into dst.
status copy_out(slot& s, copy_crew& crew, unsigned char* dst, const unsigned char* src, std::size_t bytes,
                hipStream_t stream) {
  const std::vector<staging_piece> pieces = staging_pieces(bytes, s.chunk_bytes());
  const auto enqueue = [&](std::size_t k) -> status {
    const unsigned b = static_cast<unsigned>(k % s.count());
    const auto [offset, length] = pieces[k];
    DTL_TRY(s.synchronize(b));  // an earlier copy may still use this chunk
    if (const hipError_t e = hipMemcpyAsync(s.buffer(b), src + offset, length, hipMemcpyDeviceToHost, stream);
        e != hipSuccess)
      return fail_copy(e, offset, length, bytes, "device to host");
    return s.record(b, stream);
  };
  for (std::size_t k = 0; k < std::min<std::size_t>(s.count(), pieces.size()); ++k) DTL_TRY(enqueue(k));
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const unsigned b = static_cast<unsigned>(k % s.count());
    DTL_TRY(s.synchronize(b));
    crew.copy(dst + pieces[k].offset, s.buffer(b), pieces[k].length, copy_crew::stores::cached);
    if (k + s.count() < pieces.size()) DTL_TRY(enqueue(k + s.count()));
  }
  return {};
}

}  // namespace

bool may_stage(std::size_t bytes) noexcept { return bytes >= state().stage_from(); }

bool should_stage(memory_kind src, memory_kind dst, std::size_t bytes) noexcept {
  if (!may_stage(bytes)) return false;
  return (src == memory_kind::host_pageable && is_device_side(dst)) ||
         (is_device_side(src) && dst == memory_kind::host_pageable);
}

status staged_copy(void* dst, const void* src, std::size_t bytes, bool to_device, hipStream_t stream, bool wait) {
  DTL_ASSIGN_OR_RETURN(const int device, platform::stream_device(stream));
  DTL_ASSIGN_OR_RETURN(const device_guard guard, device_guard::enter(device));
  const unsigned threads = state().options().threads;
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<slot> s, state().acquire(device));
  lease held(std::move(s));
  copy_crew crew(threads);
  auto* out = static_cast<unsigned char*>(dst);
  const auto* in = static_cast<const unsigned char*>(src);
  if (to_device) return copy_in(held.get(), crew, out, in, bytes, stream, wait);
  return copy_out(held.get(), crew, out, in, bytes, stream);
}

staging_options current_staging() noexcept {
  try {
    return state().options();
  } catch (...) {  // locking failed: the defaults are the best answer there is
    return defaults();
  }
}

status configure_staging(const staging_options& options) { return state().configure(options); }

}  // namespace dtl::hip::detail
