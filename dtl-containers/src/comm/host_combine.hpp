// SPDX-License-Identifier: MIT
#pragma once
// Private: combining two host buffers element by element with a reduce_op, as MPI does, where DTL
// combines on the host itself: the halo's reverse exchange, and the data that rides in the agreement's
// record (agreement_record.cpp, the scans of collectives.cpp).

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/core/status.hpp>

#include <cstddef>

namespace dtl::detail {

/// dst = op(dst, src), element by element, over `bytes` bytes of elements of `type` (MPI's rules: sums and
/// products of integers wrap; min and max keep dst on a tie; land and lor give 0 or 1). The logical and
/// bitwise operations combine integers only: on floating-point elements they leave dst as it is (the
/// context refuses such a call before it gets here).
void combine_host(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op) noexcept;

/// invalid_argument for a logical or bitwise reduction of floating-point elements (MPI has none); every
/// reduction checks it, on the host, the device and over MPI alike.
[[nodiscard]] status check_reduction(datatype type, reduce_op op);

/// invalid_argument for `count` elements of `type` whose bytes overflow size_t: every collective that
/// takes a count of elements checks it before any byte count is formed.
[[nodiscard]] status check_element_count(std::size_t count, datatype type);

}  // namespace dtl::detail
