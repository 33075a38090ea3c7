// SPDX-License-Identifier: MIT
// Combining two agreement records (agreement_record.hpp): what the agreement step's MPI operation does.
#include "comm/agreement_record.hpp"
#include "comm/host_combine.hpp"

#include <algorithm>

namespace dtl::detail {

namespace {

constexpr int last_reduction = static_cast<int>(reduction_payload(datatype::f64, reduce_op::bxor));
static_assert(last_reduction < static_cast<int>(payload_kind::conflict));

}  // namespace

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
    combine_host(inout.payload, in.payload, agreement_record::payload_bytes,
                 static_cast<datatype>((kind - 2) / reduce_op_count),
                 static_cast<reduce_op>((kind - 2) % reduce_op_count));
  }
}

}  // namespace dtl::detail
