// SPDX-License-Identifier: MIT
#pragma once
// Private: the checks that the all-to-all collectives share between their blocking forms
// (collectives.cpp) and their stream-ordered forms (collectives_device_hip.cpp).

#include "comm/agreement_record.hpp"
#include "comm/state.hpp"
#include "gpu_comm/device_support.hpp"

#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/core/result.hpp>

#include <cstddef>
#include <span>
#include <utility>

namespace dtl::detail {

/// A collective as this rank sees it before communicating: the bytes it moves, its own checks of the
/// arguments, and whether the buffers are device memory.
struct prepared_exchange {
  byte_exchange x;
  status local;
  bool device = false;
  bool says = false;  // whether a buffer was given (null ones say neither host nor device)
};

/// Whether the buffers are device memory (a null one does not say); the two must be of one kind. Their
/// devices go to `devices` (send's, recv's) when asked for. Every collective's check of its buffers.
result<bool> on_device(const void* a, const void* b, std::pair<int, int>* devices = nullptr);

/// alltoall of `count_each` elements of `elem` bytes per peer, on a context of `ranks` ranks.
prepared_exchange prepare_alltoall(int ranks, const void* send, void* recv, std::size_t count_each, std::size_t elem);
/// alltoallv (counts and displacements in elements).
prepared_exchange prepare_alltoallv(int ranks, const void* send, std::span<const std::size_t> send_counts,
                                    std::span<const std::size_t> send_displs, void* recv,
                                    std::span<const std::size_t> recv_counts, std::span<const std::size_t> recv_displs,
                                    std::size_t elem);

/// What the agreement of alltoall and alltoallv compares (`count_each` 0 for alltoallv).
call_signature alltoall_signature(const char* what, std::size_t count_each, std::size_t elem, bool device);

/// An exchange in the agreement step: each rank adds the hash of every block it sends (zero-byte ones
/// too) and takes off that of every block it expects, so that the ranks' sum is 0 when every pair agrees
/// (up to a hash collision); says where its buffers live; and, where every block fits its slot of the
/// record's payload (one slot per ordered pair of ranks), sends the data itself. `may_carry` false keeps
/// the data out of the step (a stream-ordered call, whose buffers are ready only once its stream is).
class exchange_rider final : public agreement_rider {
 public:
  exchange_rider(const prepared_exchange& p, int rank, bool may_carry = true) noexcept;
  payload_kind kind() const noexcept override { return payload_kind::bitwise_or; }
  std::size_t wanted_bytes() const noexcept override;
  bool put(std::span<std::byte> area) const override;
  void take(std::span<const std::byte> area) override;

 private:
  /// Each pair of ranks' part of a payload area of `area_bytes`.
  [[nodiscard]] std::size_t slot(std::size_t area_bytes) const noexcept;

  const prepared_exchange& p_;
  std::size_t me_, n_;
  bool may_carry_;
};

/// alltoallv's checks across ranks, on a call whose signature carries `rider`: the agreement (every
/// rank's local checks, which collective this is, and the counts' checksum), whose failure is returned,
/// the same on every rank; then, only when the checksum says some pair of ranks disagrees, the count
/// exchange (one alltoall: each peer's count for this rank, and the kind of its buffers), which names
/// the pair, and a second agreement that tells every rank. p.device is settled as every rank sees it (a
/// rank that gave no buffers follows the others). When rider.carried the data has moved. Nothing is
/// checked across ranks under DTL_AGREEMENT=off.
status agree_on_alltoallv_counts(collective_call& call, prepared_exchange& p, const exchange_rider& rider,
                                 std::span<const std::size_t> send_counts, std::span<const std::size_t> recv_counts);

}  // namespace dtl::detail
