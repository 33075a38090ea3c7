// SPDX-License-Identifier: MIT
#pragma once
// Private (HIP builds): the kernel of an N-d halo on the device (grid_box_copy.hip): a table of strided
// boxes copied in one launch, each between the allocation and a packed buffer, or within the allocation.

#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>

namespace dtl::detail {

/// The dimensions of a copy: an N-d halo's (at most 8), and one more for the words of an element.
inline constexpr std::size_t grid_copy_max_dims = 9;

/// One box, copied word by word. Offsets and strides count words (of the launch's word size).
struct grid_copy {
  std::size_t first = 0;  // the number of words of the table's copies before this one
  std::size_t extents[grid_copy_max_dims] = {};
  std::size_t src_stride[grid_copy_max_dims] = {};
  std::size_t dst_stride[grid_copy_max_dims] = {};
  std::size_t src_offset = 0, dst_offset = 0;
  unsigned src_in_buffer = 0, dst_in_buffer = 0;  // 1: the packed buffer; 0: the allocation
};

/// Every copy of `table` (device memory, `count` of them, `words` words in all, `dims` dimensions each,
/// in row-major order of their extents) between `allocation` and `buffer`, in one kernel on `stream`.
/// `word_bytes` is 1, 2, 4 or 8.
status copy_boxes_on_device(const grid_copy* table, std::size_t count, std::size_t words, std::size_t dims,
                            std::size_t word_bytes, void* allocation, void* buffer, hipStream_t stream);

}  // namespace dtl::detail
