// SPDX-License-Identifier: MIT
// The kernels of a device halo: the combine of its reduce (ghosts that came back, folded into the owned
// edges), and a self-exchange's two copies in one launch.
// Compiled into the library, so that the header-only vector needs no kernel of the caller's.
#include "halo/halo_combine.hpp"

#include <dtl/hip/error.hpp>

#include <hip/hip_runtime.h>  // the kernel language (threadIdx, <<<>>>)

#include <cstdint>
#include <initializer_list>
#include <type_traits>

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
      // Integers only (halo_reduce refuses them on floating-point elements).
      case reduce_op::land:
        if constexpr (std::is_integral_v<T>) dst[i] = static_cast<T>(a != 0 && b != 0);
        break;
      case reduce_op::lor:
        if constexpr (std::is_integral_v<T>) dst[i] = static_cast<T>(a != 0 || b != 0);
        break;
      case reduce_op::band:
        if constexpr (std::is_integral_v<T>) dst[i] = static_cast<T>(a & b);
        break;
      case reduce_op::bor:
        if constexpr (std::is_integral_v<T>) dst[i] = static_cast<T>(a | b);
        break;
      case reduce_op::bxor:
        if constexpr (std::is_integral_v<T>) dst[i] = static_cast<T>(a ^ b);
        break;
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

/// Both copies in one grid: the first `n0` threads' worth of work is the first copy. W is the widest
/// word that every pointer and size allows.
template <class W>
__global__ void copy_pair_kernel(W* dst0, const W* src0, std::size_t n0, W* dst1, const W* src1, std::size_t n1) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n0 + n1; i += stride) {
    if (i < n0)
      dst0[i] = src0[i];
    else
      dst1[i - n0] = src1[i - n0];
  }
}

template <class W>
status launch_pair(void* dst0, const void* src0, std::size_t bytes0, void* dst1, const void* src1, std::size_t bytes1,
                   hipStream_t stream) {
  const std::size_t n0 = bytes0 / sizeof(W), n1 = bytes1 / sizeof(W);
  constexpr unsigned block = 256;
  const std::size_t blocks = (n0 + n1 + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(blocks < 2048 ? blocks : 2048);
  copy_pair_kernel<W><<<grid, block, 0, stream>>>(static_cast<W*>(dst0), static_cast<const W*>(src0), n0,
                                                  static_cast<W*>(dst1), static_cast<const W*>(src1), n1);
  return hip::to_status(hipGetLastError(), "halo exchange: the self-copy kernel's launch");
}

bool all_multiples_of(std::size_t m, std::initializer_list<std::uintptr_t> values) {
  for (std::uintptr_t v : values)
    if (v % m != 0) return false;
  return true;
}

}  // namespace

status copy_pair_on_device(void* dst0, const void* src0, std::size_t bytes0, void* dst1, const void* src1,
                           std::size_t bytes1, hipStream_t stream) {
  if (bytes0 + bytes1 == 0) return {};
  const std::initializer_list<std::uintptr_t> all = {
      reinterpret_cast<std::uintptr_t>(dst0), reinterpret_cast<std::uintptr_t>(src0), bytes0,
      reinterpret_cast<std::uintptr_t>(dst1), reinterpret_cast<std::uintptr_t>(src1), bytes1};
  if (all_multiples_of(16, all)) return launch_pair<uint4>(dst0, src0, bytes0, dst1, src1, bytes1, stream);
  if (all_multiples_of(4, all)) return launch_pair<std::uint32_t>(dst0, src0, bytes0, dst1, src1, bytes1, stream);
  return launch_pair<std::uint8_t>(dst0, src0, bytes0, dst1, src1, bytes1, stream);
}

status combine_on_device(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op,
                         hipStream_t stream) {
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
