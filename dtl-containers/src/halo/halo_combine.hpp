// SPDX-License-Identifier: MIT
#pragma once
// Private (HIP builds): the kernels of a device halo (halo_combine.hip): the combine of its reduce, and
// the two copies of a self-exchange in one launch.

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>

namespace dtl::detail {

/// dst[i] = op(dst[i], src[i]) over `bytes` bytes of `type` elements in device memory, on `stream`.
status combine_on_device(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op,
                         hipStream_t stream);

/// dst0 <- src0 (bytes0) and dst1 <- src1 (bytes1), device memory, in one kernel on `stream`: a periodic
/// block that is its own neighbour fills both ghost regions from its own edges for one launch's latency.
status copy_pair_on_device(void* dst0, const void* src0, std::size_t bytes0, void* dst1, const void* src1,
                           std::size_t bytes1, hipStream_t stream);

}  // namespace dtl::detail
