// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's include path for its MPI communicator: dtl::mpi::mpi_communicator, which here names
// dtl::mpi::mpi_comm_adapter (<backends/mpi/mpi_comm_adapter.hpp>, over a dtl::context), and, in builds with
// MPI, <mpi.h> and the conversion of its native_handle() to MPI_Comm (the program's own communicator over the
// same ranks: context::native_mpi_comm()). Installed under include/dtl-hip/, as mpi_comm_adapter.hpp.

#include <backends/mpi/mpi_comm_adapter.hpp>
#include <dtl/core/config.hpp>  // upstream's header gives DTL_ENABLE_MPI, which programs test next to it

#if DTL_ENABLE_MPI
#include <mpi.h>

template <>
struct dtl::mpi::native_comm_traits<MPI_Comm> {
  static MPI_Comm null() noexcept { return MPI_COMM_NULL; }
};
#endif
