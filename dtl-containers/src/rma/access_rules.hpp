// SPDX-License-Identifier: MIT
#pragma once
// Private: the argument rules of a typed combine and of compare-and-swap, shared by every window that
// checks them itself (epoch_window.cpp, null_window.cpp) before its memory is touched.

#include <dtl/backend/concepts/rma_communicator.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>

namespace dtl::detail {

/// accumulate (result_buf == nullptr) or get_accumulate of `size` bytes of `type` elements: an origin
/// unless the operation is no_op, whole elements, no bitwise operation on floating point.
[[nodiscard]] status check_combine(const void* origin, const void* result_buf, size_type size, rma_reduce_op op,
                                   rma_datatype type);

/// fetch_and_op's result buffer: given whenever bytes are fetched.
[[nodiscard]] status check_fetch(const void* result_buf, size_type size);

/// The element compare_and_swap swaps: one unsigned integer of `size` (1, 2, 4 or 8) bytes, and three buffers.
[[nodiscard]] result<rma_datatype> swap_element(const void* origin, const void* compare, const void* result_buf,
                                                size_type size);

}  // namespace dtl::detail
