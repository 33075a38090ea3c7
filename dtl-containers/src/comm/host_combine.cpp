// SPDX-License-Identifier: MIT
#include "comm/host_combine.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace dtl::detail {

namespace {

// Integers combine as unsigned (at least unsigned int, which small types would otherwise promote to
// int): signed arithmetic could overflow (MPI_SUM wraps).
template <class T>
T apply(T a, T b, reduce_op op) noexcept {
  if (op == reduce_op::min) return b < a ? b : a;
  if (op == reduce_op::max) return a < b ? b : a;
  if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    switch (op) {
      case reduce_op::sum: return static_cast<T>(x + y);
      case reduce_op::product: return static_cast<T>(x * y);
      case reduce_op::land: return static_cast<T>(x != 0 && y != 0);
      case reduce_op::lor: return static_cast<T>(x != 0 || y != 0);
      case reduce_op::band: return static_cast<T>(x & y);
      case reduce_op::bor: return static_cast<T>(x | y);
      case reduce_op::bxor: return static_cast<T>(x ^ y);
      case reduce_op::min:
      case reduce_op::max: break;  // above
    }
    return a;
  } else {
    if (integers_only(op)) return a;
    return op == reduce_op::sum ? a + b : a * b;
  }
}

template <class T>
void combine_as(void* dst, const void* src, std::size_t bytes, reduce_op op) noexcept {
  auto* out = static_cast<std::byte*>(dst);
  const auto* in = static_cast<const std::byte*>(src);
  for (std::size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T a, b;
    std::memcpy(&a, out + i, sizeof a);
    std::memcpy(&b, in + i, sizeof b);
    a = apply(a, b, op);
    std::memcpy(out + i, &a, sizeof a);
  }
}

}  // namespace

status check_reduction(datatype type, reduce_op op) {
  if (!integers_only(op) || (type != datatype::f32 && type != datatype::f64)) return {};
  return status(status_code::invalid_argument,
                fmt::format("the reduction {} takes integers, not floating-point elements", reduce_op_name(op)));
}

status check_element_count(std::size_t count, datatype type) {
  if (count <= std::numeric_limits<std::size_t>::max() / datatype_size(type)) return {};
  return status(status_code::invalid_argument, fmt::format("a collective's count of {} elements of {} bytes "
                                                           "overflows size_t",
                                                           count, datatype_size(type)));
}

void combine_host(void* dst, const void* src, std::size_t bytes, datatype type, reduce_op op) noexcept {
  switch (type) {
    case datatype::i8: return combine_as<std::int8_t>(dst, src, bytes, op);
    case datatype::u8: return combine_as<std::uint8_t>(dst, src, bytes, op);
    case datatype::i16: return combine_as<std::int16_t>(dst, src, bytes, op);
    case datatype::u16: return combine_as<std::uint16_t>(dst, src, bytes, op);
    case datatype::i32: return combine_as<std::int32_t>(dst, src, bytes, op);
    case datatype::u32: return combine_as<std::uint32_t>(dst, src, bytes, op);
    case datatype::i64: return combine_as<std::int64_t>(dst, src, bytes, op);
    case datatype::u64: return combine_as<std::uint64_t>(dst, src, bytes, op);
    case datatype::f32: return combine_as<float>(dst, src, bytes, op);
    case datatype::f64: return combine_as<double>(dst, src, bytes, op);
  }
}

}  // namespace dtl::detail
