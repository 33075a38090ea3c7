// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its MPI communicator. The communicator that upstream's algorithms and
// tests take, dtl::mpi::mpi_comm_adapter, is in <backends/mpi/mpi_comm_adapter.hpp>; upstream's raw
// dtl::mpi::mpi_communicator class (MPI handles, one-sided windows) has no counterpart here
// (docs/upstream.md). Installed under include/dtl-hip/, as mpi_comm_adapter.hpp.

#include <backends/mpi/mpi_comm_adapter.hpp>
#include <dtl/core/config.hpp>  // upstream's header gives DTL_ENABLE_MPI, which programs test next to it
