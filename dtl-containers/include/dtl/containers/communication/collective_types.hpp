// SPDX-License-Identifier: MIT
#pragma once
// What collectives combine (reduce_op), the element types they carry, and the paths device buffers take.

#include <dtl/containers/export.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace dtl {

/// The reductions MPI performs natively. RCCL and NCCL have the first four; the logical (land, lor: 1
/// when all / any of the values is nonzero, else 0; one rank's values stay as they are, as MPI's) and
/// bitwise ones (band, bor, bxor) take integers only, and on device buffers go through MPI.
enum class reduce_op { sum, product, min, max, land, lor, band, bor, bxor };
inline constexpr int reduce_op_count = 9;

/// Whether `op` combines integers only (the logical and bitwise operations).
[[nodiscard]] constexpr bool integers_only(reduce_op op) noexcept {
  return op != reduce_op::sum && op != reduce_op::product && op != reduce_op::min && op != reduce_op::max;
}

/// How a context moves device buffers between ranks (host buffers always go through MPI):
enum class collective_path {
  self,           // one rank: nothing moves between processes
  nccl,           // RCCL (AMD) or NCCL (NVIDIA), ordered on a stream
  mpi_gpu_aware,  // MPI on device pointers (a start-up probe showed that MPI is GPU-aware)
  mpi_staged,     // MPI on pinned host copies of the device buffers
};

/// "self", "nccl", "mpi_gpu_aware", "mpi_staged".
[[nodiscard]] DTL_CONTAINERS_API std::string_view collective_path_name(collective_path path) noexcept;
/// "sum", "product", "min", "max", "land", "lor", "band", "bor", "bxor".
[[nodiscard]] DTL_CONTAINERS_API std::string_view reduce_op_name(reduce_op op) noexcept;

namespace detail {

/// Element types the collectives reduce natively.
enum class datatype : std::uint8_t { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

[[nodiscard]] DTL_CONTAINERS_API std::size_t datatype_size(datatype type) noexcept;

template <class T>
inline constexpr bool has_datatype_v =
    (std::is_integral_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool> &&
     (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8)) ||
    std::is_same_v<std::remove_cv_t<T>, float> || std::is_same_v<std::remove_cv_t<T>, double>;

/// The datatype of T; T must satisfy has_datatype_v.
template <class T>
[[nodiscard]] constexpr datatype datatype_of() noexcept {
  static_assert(has_datatype_v<T>, "collectives reduce integers, float and double natively");
  if constexpr (std::is_floating_point_v<T>) {
    return sizeof(T) == 4 ? datatype::f32 : datatype::f64;
  } else if constexpr (std::is_signed_v<T>) {
    return sizeof(T) == 1   ? datatype::i8
           : sizeof(T) == 2 ? datatype::i16
           : sizeof(T) == 4 ? datatype::i32
                            : datatype::i64;
  } else {
    return sizeof(T) == 1   ? datatype::u8
           : sizeof(T) == 2 ? datatype::u16
           : sizeof(T) == 4 ? datatype::u32
                            : datatype::u64;
  }
}

}  // namespace detail

}  // namespace dtl
