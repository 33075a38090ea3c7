// SPDX-License-Identifier: MIT
#pragma once
// Checks for the tests written in upstream DTL's spellings, where a failure is a communication_error
// thrown (on every rank, for a collective) rather than a returned status.

#include "doctest.hpp"

#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/status.hpp>

namespace test_support {

/// Runs `call`; the status of the communication_error it threw (ok if it threw none).
template <class F>
dtl::status thrown_by(F&& call) {
  try {
    call();
  } catch (const dtl::communication_error& e) {
    return e.error();
  }
  return {};
}

/// This rank's `s` has `code`, and so has every other rank's (each compares `code` with the least and
/// the greatest over the ranks). A collective: call it on every rank of `comm`.
inline void same_on_every_rank(dtl::mpi::mpi_comm_adapter& comm, const dtl::status& s, dtl::status_code code) {
  CHECK(s.code() == code);
  const int mine = static_cast<int>(s.code());
  CHECK(comm.allreduce_min_value<int>(mine) == static_cast<int>(code));
  CHECK(comm.allreduce_max_value<int>(mine) == static_cast<int>(code));
}

}  // namespace test_support
