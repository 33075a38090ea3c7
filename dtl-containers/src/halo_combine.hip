// The combine kernel of a device halo's reduce: ghosts that came back, folded into the owned edges.
// Compiled into the library, so that the header-only vector needs no kernel of the caller's.
#include "halo_combine.hpp"

#include <dtl/hip/error.hpp>

#include <hip/hip_runtime.h>  // the kernel language (threadIdx, <<<>>>)

#include <cstdint>

namespace dtl::detail {

namespace {

template <class T>
__global__ void combine_kernel(T* dst, const T* src, std::size_t n, reduce_op op) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T a = dst[i], b = src[i];
    switch (op) {
      case reduce_op::sum: dst[i] = static_cast<T>(a + b); break;
      case reduce_op::product: dst[i] = static_cast<T>(a * b); break;
      case reduce_op::min: dst[i] = b < a ? b : a; break;
      case reduce_op::max: dst[i] = a < b ? b : a; break;
    }
  }
}

template <class T>
status launch(void* dst, const void* src, std::size_t bytes, reduce_op op, hipStream_t stream) {
  const std::size_t n = bytes / sizeof(T);
  constexpr unsigned block = 256;
  const std::size_t blocks = (n + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(blocks < 1024 ? blocks : 1024);
  combine_kernel<T><<<grid, block, 0, stream>>>(static_cast<T*>(dst), static_cast<const T*>(src), n, op);
  return hip::to_status(hipGetLastError(), "halo reduce: the combine kernel's launch");
}

}  // namespace

status combine_on_device(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op, hipStream_t stream) {
  if (bytes == 0) return {};
  switch (type) {
    case datatype::i8: return launch<std::int8_t>(dst, src, bytes, op, stream);
    case datatype::u8: return launch<std::uint8_t>(dst, src, bytes, op, stream);
    case datatype::i16: return launch<std::int16_t>(dst, src, bytes, op, stream);
    case datatype::u16: return launch<std::uint16_t>(dst, src, bytes, op, stream);
    case datatype::i32: return launch<std::int32_t>(dst, src, bytes, op, stream);
    case datatype::u32: return launch<std::uint32_t>(dst, src, bytes, op, stream);
    case datatype::i64: return launch<std::int64_t>(dst, src, bytes, op, stream);
    case datatype::u64: return launch<std::uint64_t>(dst, src, bytes, op, stream);
    case datatype::f32: return launch<float>(dst, src, bytes, op, stream);
    case datatype::f64: return launch<double>(dst, src, bytes, op, stream);
  }
  return {};
}

}  // namespace dtl::detail
