// SPDX-License-Identifier: MIT
#pragma once
// Private: combining two host buffers element by element with a reduce_op, as MPI does, where DTL
// combines on the host itself: the halo's reverse exchange, and the data that rides in the agreement's
// record (agreement_record.cpp, the scans of collectives.cpp).

#include <dtl/containers/communication/collective_types.hpp>

#include <cstddef>

namespace dtl::detail {

/// dst = op(dst, src), element by element, over `bytes` bytes of elements of `type` (MPI's rules: sums and
/// products of integers wrap; min and max keep dst on a tie).
void combine_host(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op) noexcept;

}  // namespace dtl::detail
