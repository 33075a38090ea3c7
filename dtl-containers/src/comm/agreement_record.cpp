// SPDX-License-Identifier: MIT
// The agreement step's message (agreement_record.hpp): its size, and combining two of them (what the
// agreement step's MPI operation does).
#include "comm/agreement_record.hpp"
#include "comm/host_combine.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

namespace dtl::detail {

namespace {

constexpr int last_reduction = static_cast<int>(reduction_payload(datatype::f64, reduce_op::bxor));
static_assert(last_reduction < static_cast<int>(payload_kind::conflict));

}  // namespace

void record_sizing::saw(std::uint32_t wanted) noexcept {
  recent_[next_] = wanted;
  next_ = (next_ + 1) % remembered;
  const std::uint32_t most = *std::max_element(recent_.begin(), recent_.end());
  class_ = 0;
  while (class_ + 1 < payload_classes.size() && payload_classes[class_] < most) ++class_;
}

namespace {
thread_local std::vector<std::byte> t_buffer;  // a thread's larger message, kept between steps
thread_local bool t_buffer_taken = false;
}  // namespace

agreement_message::agreement_message(std::size_t payload_bytes) {
  const std::size_t bytes = sizeof(agreement_record) + payload_bytes;
  if (bytes <= inline_.size()) {
    bytes_ = std::span(inline_).first(bytes);
  } else {
    // operator new's alignment is at least the record's. assign() zeroes and keeps the capacity.
    thread_buffer_ = !t_buffer_taken;
    std::vector<std::byte>& buffer = thread_buffer_ ? t_buffer : large_;
    buffer.assign(bytes, std::byte{0});
    t_buffer_taken = t_buffer_taken || thread_buffer_;
    bytes_ = buffer;
  }
  record_ = new (bytes_.data()) agreement_record{};
}

agreement_message::~agreement_message() {
  if (thread_buffer_) t_buffer_taken = false;
}

void combine_messages(const std::byte* in_bytes, std::byte* inout_bytes, std::size_t message_bytes) noexcept {
  agreement_record in, inout;
  std::memcpy(&in, in_bytes, sizeof in);
  std::memcpy(&inout, inout_bytes, sizeof inout);
  inout.call_max = std::max(in.call_max, inout.call_max);
  inout.not_call_max = std::max(in.not_call_max, inout.not_call_max);
  inout.counts_sum += in.counts_sum;
  inout.failing = std::max(in.failing, inout.failing);
  inout.wanted = std::max(in.wanted, inout.wanted);
  for (std::size_t i = 0; i < inout.maxima.size(); ++i) inout.maxima[i] = std::max(in.maxima[i], inout.maxima[i]);
  inout.flags = static_cast<std::uint16_t>(inout.flags | in.flags);
  // Ranks in different calls may send payloads of different kinds: then nothing of them is combined
  // (the step finds the ranks disagree and the payload goes unread).
  const bool same_kind = in.kind == inout.kind;
  if (!same_kind) inout.kind = payload_kind::conflict;
  std::memcpy(inout_bytes, &inout, sizeof inout);
  if (!same_kind || message_bytes <= sizeof(agreement_record)) return;
  const std::byte* from = in_bytes + sizeof(agreement_record);
  std::byte* into = inout_bytes + sizeof(agreement_record);
  const std::size_t area = message_bytes - sizeof(agreement_record);
  const int kind = static_cast<int>(inout.kind);
  if (inout.kind == payload_kind::bitwise_or) {
    for (std::size_t i = 0; i < area; ++i) into[i] |= from[i];
  } else if (kind >= 2 && kind <= last_reduction) {
    // Every element of the area is combined: parts no rank wrote are zeros on every rank, and stay unread.
    combine_host(into, from, area, static_cast<datatype>((kind - 2) / reduce_op_count),
                 static_cast<reduce_op>((kind - 2) % reduce_op_count));
  }
}

}  // namespace dtl::detail
