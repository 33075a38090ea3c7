#pragma once
// Private: memcpy spread over a few host threads. One core copies pageable memory at 10-20 GB/s, less than
// a PCIe 5 link moves; the staged transfers (staging.cpp) copy each chunk with several cores so that the
// host side keeps up with the DMA.

#include <cstddef>

namespace dtl::hip::detail {

/// Copies `bytes` from src to dst (which must not overlap) with up to `threads` threads: the caller and
/// `threads - 1` helper threads, started on first use and kept. Parts are at least 256 KiB, so small
/// copies use fewer threads. While another call uses the helpers, the caller copies alone.
void parallel_copy(void* dst, const void* src, std::size_t bytes, unsigned threads) noexcept;

}  // namespace dtl::hip::detail
