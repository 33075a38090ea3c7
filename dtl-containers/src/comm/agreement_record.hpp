// SPDX-License-Identifier: MIT
#pragma once
// Private: the one message of the agreement step (agreement.cpp), and what a collective may send in it.
//
// Every collective's first MPI call is one allreduce of one agreement_record, combined by
// combine_records: the same size, type and operation whatever the collective, so that ranks making
// different calls still pair up harmlessly and learn it. Besides the check (which call, which ranks
// failed), the record carries a checksum of the counts the ranks send and expect, flags, and a small
// payload, so that a small collective's data moves in the agreement's own message.

#include <dtl/containers/communication/collective_types.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace dtl::detail {

/// How the ranks' payloads combine. The rest: a reduction of (datatype, reduce_op), reduction_payload().
enum class payload_kind : std::uint8_t { none = 0, bitwise_or = 1, conflict = 255 };

[[nodiscard]] constexpr payload_kind reduction_payload(datatype type, reduce_op op) noexcept {
  return static_cast<payload_kind>(2 + static_cast<int>(type) * reduce_op_count + static_cast<int>(op));
}

// At most 256 bytes in all: Open MPI's shared-memory transport sends up to 256 bytes inline, and a
// larger record costs about twice as much (measured on 2 ranks).
struct agreement_record {
  static constexpr std::size_t payload_bytes = 224;
  std::uint64_t call_max = 0;              // max of the ranks' call fingerprints
  std::uint64_t not_call_max = 0;          // max of their complements (so ~this is the least fingerprint)
  std::uint64_t counts_sum = 0;            // wrapping sum of the ranks' count checksums
  std::int32_t failing = 0;                // max of INT_MAX - rank over the ranks that failed; 0: none did
  std::uint16_t flags = 0;                 // or of the ranks' flags
  payload_kind kind = payload_kind::none;  // equal on every rank, or conflict
  std::uint8_t reserved = 0;
  std::byte payload[payload_bytes] = {};
};
static_assert(sizeof(agreement_record) == 256);

/// The record's flags: what a rider says of its buffers, and (set by the agreement step) that a rank's
/// payload is not in the record.
inline constexpr std::uint16_t host_buffers_flag = 1, device_buffers_flag = 2, not_carried_flag = 0x8000;

/// inout = in combined with inout (commutative and associative; never reads past either record).
void combine_records(const agreement_record& in, agreement_record& inout) noexcept;

/// What a collective sends with its agreement step besides the check (call_signature::rider): a count
/// checksum, flags, and, where its data fits, the data itself. The step uses a rider once (the first
/// step of its call) and, when every rank is ready and agrees, fills in what the ranks found.
class agreement_rider {
 public:
  agreement_rider() = default;
  agreement_rider(const agreement_rider&) = delete;
  agreement_rider& operator=(const agreement_rider&) = delete;
  virtual ~agreement_rider() = default;

  // This rank's part, before the step.
  std::uint64_t counts_check = 0;  // summed over the ranks: 0 when their counts agree
  std::uint16_t flags = 0;         // host_buffers_flag, device_buffers_flag

  // What the step found (when it returned ok).
  std::uint64_t counts_sum = 0;
  std::uint16_t flags_of_all = 0;
  bool carried = false;  // the data moved in the step (then taken): the collective has nothing left to move
  bool spent = false;    // a later step of the same call ignores the rider

  /// How the ranks' payloads combine; none: no data rides.
  [[nodiscard]] virtual payload_kind kind() const noexcept { return payload_kind::none; }
  /// Writes this rank's part into `area` (all zero); false when it does not fit (the call moves the
  /// data itself then, on every rank). Called only when this rank's checks passed.
  [[nodiscard]] virtual bool put(std::span<std::byte> /*area*/) const { return false; }
  /// Reads this rank's result from the combined `area`.
  virtual void take(std::span<const std::byte> /*area*/) {}
};

}  // namespace dtl::detail
