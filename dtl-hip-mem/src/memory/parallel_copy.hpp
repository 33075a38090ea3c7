// SPDX-License-Identifier: MIT
#pragma once
// Private: memcpy spread over a few host threads. One core copies pageable memory at 7-10 GB/s, less than
// a PCIe 5 link moves; the staged transfers (staging.cpp) copy each chunk with several cores so that the
// host side keeps up with the DMA. No HIP here: the unit tests build it without a device.

#include <cstddef>
#include <mutex>

namespace dtl::hip::detail {

/// The host threads of one staged copy: the caller and up to `threads - 1` helper threads, started on
/// first use and kept for the process. A crew is held for a whole staged copy, and while it is held the
/// helpers poll for the next piece instead of sleeping: waking a sleeping thread costs tens of
/// microseconds, once per helper per piece. Only one crew holds the helpers at a time; while another
/// copy holds them, a new crew copies with the caller alone, never waiting.
class copy_crew {
 public:
  explicit copy_crew(unsigned threads) noexcept;
  ~copy_crew();
  copy_crew(const copy_crew&) = delete;
  copy_crew& operator=(const copy_crew&) = delete;

  /// How dst is written. `streaming` bypasses the caches (where the CPU has such stores; parts of at
  /// least 256 KiB): right for a pinned chunk that the copy engine reads next, and no gain when dst is
  /// user memory the program may read soon.
  enum class stores { cached, streaming };

  /// Copies `bytes` from src to dst (which must not overlap) and returns when all of it is in dst. Parts
  /// are at least 256 KiB, so small copies use fewer threads.
  void copy(void* dst, const void* src, std::size_t bytes, stores kind) noexcept;

  /// How many threads copy, the caller included (1 when the helpers are busy or cannot be started).
  [[nodiscard]] unsigned threads() const noexcept { return threads_; }

 private:
  std::unique_lock<std::mutex> held_;
  unsigned threads_ = 1;
};

}  // namespace dtl::hip::detail
