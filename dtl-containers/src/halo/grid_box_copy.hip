// SPDX-License-Identifier: MIT
// The kernel of an N-d halo on the device: every box of a table (the packed faces, edges and corners, and
// the ghost regions a rank fills from itself) in one launch, so that an exchange costs one launch's latency
// however many regions it has. Compiled into the library: the tensor's header needs no kernel of the caller's.
#include "halo/grid_box_copy.hpp"

#include <dtl/hip/error.hpp>

#include <hip/hip_runtime.h>  // the kernel language (threadIdx, <<<>>>)

#include <cstdint>

namespace dtl::detail {

namespace {

template <class W>
__global__ void copy_boxes_kernel(const grid_copy* table, std::size_t count, std::size_t words, std::size_t dims,
                                  W* allocation, W* buffer) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) {
    std::size_t lo = 0, hi = count - 1;  // the last copy that starts at or before i
    while (lo < hi) {
      const std::size_t mid = (lo + hi + 1) / 2;
      if (table[mid].first <= i)
        lo = mid;
      else
        hi = mid - 1;
    }
    const grid_copy& c = table[lo];
    std::size_t rest = i - c.first, src = c.src_offset, dst = c.dst_offset;
    for (std::size_t d = dims; d-- > 0;) {
      const std::size_t at = rest % c.extents[d];
      rest /= c.extents[d];
      src += at * c.src_stride[d];
      dst += at * c.dst_stride[d];
    }
    (c.dst_in_buffer ? buffer : allocation)[dst] = (c.src_in_buffer ? buffer : allocation)[src];
  }
}

template <class W>
status launch(const grid_copy* table, std::size_t count, std::size_t words, std::size_t dims, void* allocation,
              void* buffer, hipStream_t stream) {
  constexpr unsigned block = 256;
  const std::size_t blocks = (words + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(blocks < 4096 ? blocks : 4096);
  copy_boxes_kernel<W>
      <<<grid, block, 0, stream>>>(table, count, words, dims, static_cast<W*>(allocation), static_cast<W*>(buffer));
  return hip::to_status(hipGetLastError(), "halo exchange: the box-copy kernel's launch");
}

}  // namespace

status copy_boxes_on_device(const grid_copy* table, std::size_t count, std::size_t words, std::size_t dims,
                            std::size_t word_bytes, void* allocation, void* buffer, hipStream_t stream) {
  if (count == 0 || words == 0) return {};
  switch (word_bytes) {
    case 8: return launch<std::uint64_t>(table, count, words, dims, allocation, buffer, stream);
    case 4: return launch<std::uint32_t>(table, count, words, dims, allocation, buffer, stream);
    case 2: return launch<std::uint16_t>(table, count, words, dims, allocation, buffer, stream);
    default: return launch<std::uint8_t>(table, count, words, dims, allocation, buffer, stream);
  }
}

}  // namespace dtl::detail
