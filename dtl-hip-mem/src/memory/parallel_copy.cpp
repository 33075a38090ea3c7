// SPDX-License-Identifier: MIT
#include "parallel_copy.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dtl::hip::detail {

namespace {

constexpr std::size_t min_part = std::size_t{256} << 10;

// How long an idle helper of a crew polls for the next piece before it sleeps: a staged copy hands out a
// piece every 50-300 us (a 16 MiB chunk at 55 GB/s takes 300 us).
constexpr auto poll_for = std::chrono::microseconds(300);

// ---- the CPU-specific part: a spin-wait hint, and a copy that bypasses the caches ----

void relax() noexcept {
#if defined(__SSE2__)
  _mm_pause();
#endif
}

// A staging chunk is read next by the copy engine, not by this core: ordinary stores would first read each
// destination line into the cache, a third of the memory traffic for nothing. Streaming stores write it
// straight through. On the H200's host they took host-to-device staging at 64 MiB from 64-65 % to 78-80 %
// of pinned bandwidth; into user memory (device to host) they gained nothing, so that stays cached.
void copy_part(unsigned char* dst, const unsigned char* src, std::size_t bytes, bool streaming) noexcept {
#if defined(__SSE2__)
  if (streaming && bytes >= min_part) {
    const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(dst) % 16) % 16;
    std::memcpy(dst, src, head);
    dst += head;
    src += head;
    bytes -= head;
    const std::size_t body = bytes & ~std::size_t{63};
    for (std::size_t i = 0; i < body; i += 64) {
      const auto* in = reinterpret_cast<const __m128i*>(src + i);
      auto* out = reinterpret_cast<__m128i*>(dst + i);
      const __m128i a = _mm_loadu_si128(in);
      const __m128i b = _mm_loadu_si128(in + 1);
      const __m128i c = _mm_loadu_si128(in + 2);
      const __m128i d = _mm_loadu_si128(in + 3);
      _mm_stream_si128(out, a);
      _mm_stream_si128(out + 1, b);
      _mm_stream_si128(out + 2, c);
      _mm_stream_si128(out + 3, d);
    }
    std::memcpy(dst + body, src + body, bytes - body);
    _mm_sfence();  // streaming stores are weakly ordered: make them visible before the part is reported done
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

// ---- the helpers ----

// One copy, split into equal parts that the caller and the helpers take in turn. It lives on the caller's
// stack; the caller returns only when every part is done and no helper can still reach it.
struct copy_job {
  unsigned char* dst;
  const unsigned char* src;
  std::size_t bytes;
  std::size_t part;
  unsigned parts;
  bool streaming;
  std::atomic<unsigned> next{0};
  std::atomic<unsigned> finished{0};

  void run() noexcept {
    for (unsigned i = next.fetch_add(1, std::memory_order_relaxed); i < parts;
         i = next.fetch_add(1, std::memory_order_relaxed)) {
      const std::size_t offset = i * part;
      copy_part(dst + offset, src + offset, std::min(part, bytes - offset), streaming);
      finished.fetch_add(1, std::memory_order_release);
    }
  }
};

class helpers {
 public:
  /// Starts helpers until there are `count` (as many as the system allows); how many there are.
  std::size_t ensure(std::size_t count) noexcept {
    const std::lock_guard lock(mutex_);
    try {
      while (threads_.size() < count) threads_.emplace_back([this] { work(); });
    } catch (...) {  // no more threads: copy with those there are
    }
    return threads_.size();
  }

  /// While a crew is on, idle helpers poll for the next job for a while before they sleep. Turning it on
  /// also wakes the sleeping helpers (a new generation with no job), so that they are polling by the
  /// time the first piece is ready instead of waking for it.
  void set_on(bool on) noexcept {
    on_.store(on, std::memory_order_relaxed);
    if (on) publish(nullptr);
  }

  /// Runs `job` with the caller and the helpers; returns when all of it is copied.
  void copy(copy_job& job) noexcept {
    publish(&job);
    job.run();
    while (job.finished.load(std::memory_order_acquire) != job.parts) relax();
    // A helper counts itself in `active_` before it reads `current_` (both sequentially consistent):
    // once `current_` is cleared and `active_` is 0, none can reach the job any more.
    current_.store(nullptr, std::memory_order_seq_cst);
    while (active_.load(std::memory_order_seq_cst) != 0) relax();
  }

  std::mutex& busy() noexcept { return busy_; }

 private:
  // Makes `job` (or none) the current one and starts a new generation, which every helper sees.
  void publish(copy_job* job) noexcept {
    current_.store(job, std::memory_order_seq_cst);
    {
      const std::lock_guard lock(mutex_);  // a helper about to sleep sees the new generation
      generation_.fetch_add(1, std::memory_order_seq_cst);
    }
    wake_.notify_all();
  }

  void work() noexcept {
    std::uint64_t seen = 0;
    for (;;) {
      seen = next_generation(seen);
      active_.fetch_add(1, std::memory_order_seq_cst);
      if (copy_job* job = current_.load(std::memory_order_seq_cst)) job->run();
      active_.fetch_sub(1, std::memory_order_seq_cst);
    }
  }

  // Polls for a while when a crew is on, then sleeps; returns the generation that differs from `seen`.
  // The polling is bounded so that helpers never spin through a long wait (a copy engine far behind, or
  // more threads than cores when several ranks share a node).
  std::uint64_t next_generation(std::uint64_t seen) noexcept {
    if (on_.load(std::memory_order_relaxed)) {
      const auto until = std::chrono::steady_clock::now() + poll_for;
      for (unsigned polls = 1;; ++polls) {
        if (const std::uint64_t g = generation_.load(std::memory_order_seq_cst); g != seen) return g;
        if (polls % 64 == 0 && (!on_.load(std::memory_order_relaxed) || std::chrono::steady_clock::now() >= until))
          break;
        relax();
      }
    }
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
    return generation_.load(std::memory_order_relaxed);
  }

  std::mutex busy_;   // held by the one crew that has the helpers
  std::mutex mutex_;  // guards threads_, and generation_ for the helpers that sleep
  std::condition_variable wake_;
  std::vector<std::thread> threads_;
  std::atomic<copy_job*> current_{nullptr};
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<unsigned> active_{0};
  std::atomic<bool> on_{false};
};

// Never destroyed: the helpers wait for work until the process ends.
helpers& shared_helpers() {
  static helpers* const instance = new helpers;
  return *instance;
}

}  // namespace

copy_crew::copy_crew(unsigned threads) noexcept {
  if (threads <= 1) return;
  helpers& h = shared_helpers();
  held_ = std::unique_lock(h.busy(), std::try_to_lock);
  if (!held_.owns_lock()) return;  // another copy has the helpers: do not wait for it
  threads_ = 1 + static_cast<unsigned>(std::min<std::size_t>(h.ensure(threads - 1), threads - 1));
  if (threads_ > 1) h.set_on(true);
}

copy_crew::~copy_crew() {
  if (threads_ > 1) shared_helpers().set_on(false);
}

void copy_crew::copy(void* dst, const void* src, std::size_t bytes, stores kind) noexcept {
  const std::size_t most = std::max<std::size_t>(1, bytes / min_part);
  const auto parts = static_cast<unsigned>(std::min<std::size_t>(threads_, most));
  copy_job job{static_cast<unsigned char*>(dst),
               static_cast<const unsigned char*>(src),
               bytes,
               (bytes + parts - 1) / parts,
               parts,
               kind == stores::streaming};
  if (parts <= 1) {
    job.run();
    return;
  }
  shared_helpers().copy(job);
}

}  // namespace dtl::hip::detail
