// SPDX-License-Identifier: MIT
// Combining two agreement records (agreement_record.hpp): what the agreement step's MPI operation does.
#include "comm/agreement_record.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace dtl::detail {

namespace {

// Integers combine as unsigned (at least unsigned int, which small types would otherwise promote to
// int): signed arithmetic could overflow (MPI_SUM wraps).
template <class T>
T apply(T a, T b, reduce_op op) noexcept {
  if (op == reduce_op::min) return std::min(a, b);
  if (op == reduce_op::max) return std::max(a, b);
  if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    return static_cast<T>(op == reduce_op::sum ? x + y : x * y);
  } else {
    return op == reduce_op::sum ? a + b : a * b;
  }
}

template <class T>
void combine_as(const std::byte* in, std::byte* inout, std::size_t bytes, reduce_op op) noexcept {
  for (std::size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T a, b;
    std::memcpy(&a, in + i, sizeof a);
    std::memcpy(&b, inout + i, sizeof b);
    b = apply(a, b, op);
    std::memcpy(inout + i, &b, sizeof b);
  }
}

constexpr int last_reduction = static_cast<int>(reduction_payload(datatype::f64, reduce_op::max));

}  // namespace

void combine_elements(const std::byte* in, std::byte* inout, std::size_t bytes, datatype type, reduce_op op) noexcept {
  switch (type) {
    case datatype::i8: return combine_as<std::int8_t>(in, inout, bytes, op);
    case datatype::u8: return combine_as<std::uint8_t>(in, inout, bytes, op);
    case datatype::i16: return combine_as<std::int16_t>(in, inout, bytes, op);
    case datatype::u16: return combine_as<std::uint16_t>(in, inout, bytes, op);
    case datatype::i32: return combine_as<std::int32_t>(in, inout, bytes, op);
    case datatype::u32: return combine_as<std::uint32_t>(in, inout, bytes, op);
    case datatype::i64: return combine_as<std::int64_t>(in, inout, bytes, op);
    case datatype::u64: return combine_as<std::uint64_t>(in, inout, bytes, op);
    case datatype::f32: return combine_as<float>(in, inout, bytes, op);
    case datatype::f64: return combine_as<double>(in, inout, bytes, op);
  }
}

void combine_records(const agreement_record& in, agreement_record& inout) noexcept {
  inout.call_max = std::max(in.call_max, inout.call_max);
  inout.not_call_max = std::max(in.not_call_max, inout.not_call_max);
  inout.counts_sum += in.counts_sum;
  inout.failing = std::max(in.failing, inout.failing);
  inout.flags = static_cast<std::uint16_t>(inout.flags | in.flags);
  // Ranks in different calls may send payloads of different kinds: then nothing of them is combined
  // (the step finds the ranks disagree and the payload goes unread).
  if (in.kind != inout.kind) {
    inout.kind = payload_kind::conflict;
    return;
  }
  const int kind = static_cast<int>(inout.kind);
  if (inout.kind == payload_kind::bitwise_or) {
    for (std::size_t i = 0; i < agreement_record::payload_bytes; ++i) inout.payload[i] |= in.payload[i];
  } else if (kind >= 2 && kind <= last_reduction) {
    // Every element of the area is combined: parts no rank wrote are zeros on every rank, and stay unread.
    combine_elements(in.payload, inout.payload, agreement_record::payload_bytes, static_cast<datatype>((kind - 2) / 4),
                     static_cast<reduce_op>((kind - 2) % 4));
  }
}

}  // namespace dtl::detail
