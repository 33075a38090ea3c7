// SPDX-License-Identifier: MIT
#pragma once
// Private: the one message of the agreement step (agreement.cpp), and what a collective may send in it.
//
// Every collective's first MPI call is one allreduce of one agreement message (an agreement_record and
// its payload area), combined by combine_messages: the same size, type and operation whatever the collective, so that
// ranks making different calls still pair up harmlessly and learn it (its size changes only as every rank decides
// alike: record_sizing). Besides the check (which call, which ranks failed), the record carries a
// checksum of the counts the ranks send and expect, flags, and a payload, so that a small collective's
// data moves in the agreement's own message.

#include <dtl/containers/communication/collective_types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dtl::detail {

/// How the ranks' payloads combine. The rest: a reduction of (datatype, reduce_op), reduction_payload().
enum class payload_kind : std::uint8_t { none = 0, bitwise_or = 1, conflict = 255 };

[[nodiscard]] constexpr payload_kind reduction_payload(datatype type, reduce_op op) noexcept {
  return static_cast<payload_kind>(2 + static_cast<int>(type) * reduce_op_count + static_cast<int>(op));
}

/// The record's fixed part; its payload area follows it in the message (agreement_message). The message
/// is as small as the ranks' recent steps allow (record_sizing): on 2 ranks of Open MPI's shared-memory
/// transport an allreduce of 128 bytes costs about 0.1 us less than one of 256, and one of 1 KiB twice as
/// much, so a step grows only for data that would not fit otherwise.
struct agreement_record {
  std::uint64_t call_max = 0;              // max of the ranks' call fingerprints
  std::uint64_t not_call_max = 0;          // max of their complements (so ~this is the least fingerprint)
  std::uint64_t counts_sum = 0;            // wrapping sum of the ranks' count checksums
  std::int32_t failing = 0;                // max of INT_MAX - rank over the ranks that failed; 0: none did
  std::uint32_t wanted = 0;                // max of the payload bytes the ranks' riders wanted to carry
  std::array<std::uint64_t, 3> maxima{};   // max of what the ranks' riders measured (alltoallv: its extent)
  std::uint16_t flags = 0;                 // or of the ranks' flags
  payload_kind kind = payload_kind::none;  // equal on every rank, or conflict
  std::uint8_t reserved[5] = {};
};
static_assert(sizeof(agreement_record) == 64);

/// The record's flags: what a rider says of its buffers, and (set by the agreement step) that a rank's
/// payload is not in the message.
inline constexpr std::uint16_t host_buffers_flag = 1, device_buffers_flag = 2, not_carried_flag = 0x8000;

/// The payload areas a message may have (messages of 128, 256, 1088 and 8256 bytes): for a step that
/// carries little or nothing (a barrier, an allreduce of up to 8 doubles), up to 256 bytes, and the areas
/// of 128 and 1024 doubles.
inline constexpr std::array<std::size_t, 4> payload_classes{64, 256 - sizeof(agreement_record), 1024, 8192};

/// The most payload a collective whose data goes one way (a reduce, gather, scan, all-to-all) asks for:
/// past it, moving that data in an allreduce costs more than the step it saves. An allreduce, whose data
/// goes both ways anyway, asks for up to the largest area.
inline constexpr std::size_t one_way_payload_bytes = payload_classes[1];

/// A broadcast's data reaches every rank, as the step's does: up to 1 KiB an allreduce of it costs less
/// than the step and a broadcast after it (1 KiB on 2 ranks of Open MPI 4.1's shared memory at
/// MPI_THREAD_MULTIPLE: 1.25-1.34 us against 1.50-1.72); at 8 KiB it costs three times more.
inline constexpr std::size_t broadcast_payload_bytes = payload_classes[2];

/// Which payload area the next agreement step of a communicator uses. Every rank sees the same
/// combined records, so a choice made from them alone is the same on every rank, and every rank sends a
/// message of the same size in every step (as MPI requires), whatever calls the ranks make: the area
/// is the smallest class that holds what the last few steps wanted, so it grows after one call that
/// wanted more (that call moves its data in a second step) and shrinks back a few steps after the
/// last such call.
class record_sizing {
 public:
  [[nodiscard]] std::size_t payload_bytes() const noexcept { return payload_classes[class_]; }
  /// After each step: the combined record's `wanted`.
  void saw(std::uint32_t wanted) noexcept;

 private:
  static constexpr std::size_t remembered = 4;
  std::array<std::uint32_t, remembered> recent_{};
  std::size_t next_ = 0;
  std::size_t class_ = 0;
};

/// One step's message: the record and a payload area of the size record_sizing chose (zeros). Up to 256
/// bytes live inside the object; a larger one in a buffer the thread keeps between steps (a heap
/// allocation and its free were a measurable part of an allreduce of 128 doubles), or, for a step inside
/// another's (none today), its own.
class agreement_message {
 public:
  explicit agreement_message(std::size_t payload_bytes);
  ~agreement_message();
  agreement_message(const agreement_message&) = delete;
  agreement_message& operator=(const agreement_message&) = delete;

  [[nodiscard]] agreement_record& record() noexcept { return *record_; }
  [[nodiscard]] std::span<std::byte> payload() noexcept { return bytes_.subspan(sizeof(agreement_record)); }
  /// The whole message, as the communicator sends it.
  [[nodiscard]] std::span<std::byte> bytes() noexcept { return bytes_; }

 private:
  alignas(agreement_record) std::array<std::byte, sizeof(agreement_record) + one_way_payload_bytes> inline_{};
  std::vector<std::byte> large_;
  bool thread_buffer_ = false;  // bytes_ is the thread's buffer
  std::span<std::byte> bytes_;
  agreement_record* record_;
};

/// The message at `inout` = the one at `in` combined with it (commutative and associative), both of
/// `message_bytes` (a record and its payload area); never reads past either.
void combine_messages(const std::byte* in, std::byte* inout, std::size_t message_bytes) noexcept;

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
  std::uint64_t counts_check = 0;         // summed over the ranks: 0 when their counts agree
  std::array<std::uint64_t, 3> maxima{};  // the most over the ranks goes to maxima_of_all
  std::uint16_t flags = 0;                // host_buffers_flag, device_buffers_flag

  // What the step found (when it returned ok).
  std::uint64_t counts_sum = 0;
  std::array<std::uint64_t, 3> maxima_of_all{};
  std::uint16_t flags_of_all = 0;
  bool settled = false;  // the step ran and agreed: what it found is above (none under DTL_AGREEMENT=off)
  bool carried = false;  // the data moved in the step (then taken): the collective has nothing left to move
  bool spent = false;    // a later step of the same call ignores the rider

  /// How the ranks' payloads combine; none: no data rides.
  [[nodiscard]] virtual payload_kind kind() const noexcept { return payload_kind::none; }
  /// The payload bytes this rank would carry (record_sizing sizes the area of the steps after this one to
  /// hold what the last few wanted); 0: nothing rides.
  [[nodiscard]] virtual std::size_t wanted_bytes() const noexcept { return 0; }
  /// Writes this rank's part into `area` (all zero); false when it does not fit (the call moves the
  /// data itself then, on every rank). Called only when this rank's checks passed.
  [[nodiscard]] virtual bool put(std::span<std::byte> /*area*/) const { return false; }
  /// Reads this rank's result from the combined `area`.
  virtual void take(std::span<const std::byte> /*area*/) {}
};

}  // namespace dtl::detail
