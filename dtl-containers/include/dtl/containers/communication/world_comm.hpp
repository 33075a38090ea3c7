// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's default communicator and its deprecated dtl::world_comm():
//
//   dtl::default_communicator comm = dtl::world_comm();   // every rank of the live environment
//
// default_communicator is mpi::mpi_comm_adapter (upstream's, in its MPI builds). world_comm() is
// deprecated, as upstream's ("Use environment::make_world_context()"). Differences (docs/upstream.md):
// it needs a live dtl::environment and is collective (it makes a context of every rank, duplicating
// MPI_COMM_WORLD), so every rank calls it; without an environment it throws communication_error
// (invalid_state).

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <utility>

namespace dtl {

using default_communicator = mpi::mpi_comm_adapter;

[[deprecated("Use environment::make_world_context()")]] [[nodiscard]] inline default_communicator world_comm() {
  return default_communicator();
}

}  // namespace dtl
