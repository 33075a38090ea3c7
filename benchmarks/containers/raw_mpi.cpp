// SPDX-License-Identifier: MIT
#include "raw_mpi.hpp"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench::raw_mpi {

namespace {

MPI_Comm comm() {
  static MPI_Comm dup = [] {
    MPI_Comm c = MPI_COMM_NULL;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS) std::abort();
    return c;
  }();
  return dup;
}

void check(int e, const char* what) {
  if (e != MPI_SUCCESS) {
    std::fprintf(stderr, "benchmark failed: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

int count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) {
    std::fprintf(stderr, "benchmark failed: %zu bytes is too many for one raw MPI call\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return static_cast<int>(bytes);
}

}  // namespace

bool available() {
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  return up != 0 && down == 0;
}

void sendrecv(const void* send, void* recv, std::size_t bytes, int peer) {
  check(MPI_Sendrecv(send, count(bytes), MPI_BYTE, peer, 0, recv, count(bytes), MPI_BYTE, peer, 0, comm(),
                     MPI_STATUS_IGNORE),
        "MPI_Sendrecv");
}

void alltoall(const void* send, void* recv, std::size_t bytes_each) {
  int p = 1;
  MPI_Comm_size(comm(), &p);
  std::vector<int> counts(static_cast<std::size_t>(p), count(bytes_each)), displs(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) displs[static_cast<std::size_t>(r)] = count(bytes_each * static_cast<std::size_t>(r));
  check(
      MPI_Alltoallv(send, counts.data(), displs.data(), MPI_BYTE, recv, counts.data(), displs.data(), MPI_BYTE, comm()),
      "MPI_Alltoallv");
}

void alltoallv(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
               const std::size_t* recv_bytes, const std::size_t* recv_displs) {
  int p = 1;
  MPI_Comm_size(comm(), &p);
  const auto n = static_cast<std::size_t>(p);
  std::vector<int> sc(n), sd(n), rc(n), rd(n);
  for (std::size_t r = 0; r < n; ++r) {
    sc[r] = count(send_bytes[r]);
    sd[r] = count(send_displs[r]);
    rc[r] = count(recv_bytes[r]);
    rd[r] = count(recv_displs[r]);
  }
  check(MPI_Alltoallv(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(), MPI_BYTE, comm()),
        "MPI_Alltoallv");
}

double allreduce_sum(double value) {
  double sum = 0.0;
  check(MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, comm()), "MPI_Allreduce");
  return sum;
}

void exchange_rows(const void* send_up, void* recv_up, const void* send_down, void* recv_down, std::size_t bytes) {
  const int me = rank(), p = size();
  const int up = me == 0 ? MPI_PROC_NULL : me - 1, down = me == p - 1 ? MPI_PROC_NULL : me + 1;
  MPI_Request requests[4];
  check(MPI_Irecv(recv_up, count(bytes), MPI_BYTE, up, 1, comm(), &requests[0]), "MPI_Irecv");
  check(MPI_Irecv(recv_down, count(bytes), MPI_BYTE, down, 0, comm(), &requests[1]), "MPI_Irecv");
  check(MPI_Isend(send_up, count(bytes), MPI_BYTE, up, 0, comm(), &requests[2]), "MPI_Isend");
  check(MPI_Isend(send_down, count(bytes), MPI_BYTE, down, 1, comm(), &requests[3]), "MPI_Isend");
  check(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

int rank() {
  int r = 0;
  MPI_Comm_rank(comm(), &r);
  return r;
}

int size() {
  int p = 1;
  MPI_Comm_size(comm(), &p);
  return p;
}

void barrier() { check(MPI_Barrier(comm()), "MPI_Barrier"); }

}  // namespace bench::raw_mpi
