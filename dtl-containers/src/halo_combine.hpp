#pragma once
// Private (HIP builds): the combine kernel of a device halo's reduce (halo_combine.hip).

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>

#include <cstddef>

namespace dtl::detail {

/// dst[i] = op(dst[i], src[i]) over `bytes` bytes of `type` elements in device memory, on `stream`.
status combine_on_device(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op, hipStream_t stream);

}  // namespace dtl::detail
