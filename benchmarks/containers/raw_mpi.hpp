// SPDX-License-Identifier: MIT
#pragma once
// Raw MPI for the device communication benchmark's baselines (raw_mpi.cpp: the one file of the
// benchmark that includes mpi.h, which the kernel compiler is not given). Host buffers; the benchmark
// stages device buffers itself, as a HIP user without a GPU-aware MPI does.

#include <cstddef>

namespace bench::raw_mpi {

/// Whether MPI is running (the benchmark is under mpirun with an environment).
bool available();
/// MPI_Sendrecv of `bytes` bytes with `peer` on a communicator of the benchmark's own.
void sendrecv(const void* send, void* recv, std::size_t bytes, int peer);
/// MPI_Alltoallv with `bytes_each` bytes to and from every rank.
void alltoall(const void* send, void* recv, std::size_t bytes_each);
/// MPI_Alltoallv in bytes: send_bytes[r] from send + send_displs[r] to rank r, recv_bytes[r] from rank r
/// to recv + recv_displs[r] (arrays of one entry per rank; each below 2^31).
void alltoallv(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
               const std::size_t* recv_bytes, const std::size_t* recv_displs);
/// The sum over the ranks of `value` (MPI_Allreduce of one double).
double allreduce_sum(double value);
/// A row halo's exchange between row-split ranks: `bytes` from send_up to rank - 1 and from send_down to
/// rank + 1, into recv_up (from rank - 1) and recv_down (from rank + 1); the first and last rank skip
/// the side that has no neighbour (MPI_PROC_NULL).
void exchange_rows(const void* send_up, void* recv_up, const void* send_down, void* recv_down, std::size_t bytes);
/// This rank and the number of ranks of the benchmark's communicator.
int rank();
int size();
/// MPI_Barrier on the benchmark's communicator.
void barrier();

}  // namespace bench::raw_mpi
