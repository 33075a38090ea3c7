// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its MPI communicator, dtl::mpi::mpi_comm_adapter, and
// dtl::mpi::communication_error. Ours: <dtl/containers/communication/upstream_communicator.hpp>
// (docs/upstream.md, "Communicator"); installed under include/dtl-hip/, as backends/hip/.

#include <dtl/containers/communication/upstream_communicator.hpp>
// Upstream's header brings the communicator concepts (dtl::Communicator, ...) with the adapter.
#include <dtl/containers/communication/communicator_concepts.hpp>
