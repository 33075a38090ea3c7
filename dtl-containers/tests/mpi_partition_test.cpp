// SPDX-License-Identifier: MIT
// Every rank takes its block of [0, n); together the blocks must sum to the whole range's sum.
#include <dtl/containers/block_partition.hpp>

#include <mpi.h>

#include <cstdio>
#include <numeric>

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  constexpr unsigned long long n = 1000003;
  const auto partition = dtl::block_partition<>::create(n, size);
  int failures = partition.has_value() ? 0 : 1;
  unsigned long long local = 0, local_count = 0;
  if (partition.has_value()) {
    const auto range = partition->local_range(rank);
    if (!range.has_value()) {
      failures = 1;
    } else {
      for (std::size_t i = range->begin; i < range->end; ++i) local += i;
      local_count = range->size();
    }
  }
  unsigned long long sum = 0, count = 0;
  int total_failures = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&local_count, &count, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&failures, &total_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const bool ok = total_failures == 0 && count == n && sum == n * (n - 1) / 2 && size >= 2;
  if (rank == 0) std::printf("%d ranks: count %llu, sum %llu: %s\n", size, count, sum, ok ? "ok" : "WRONG");
  MPI_Finalize();
  return ok ? 0 : 1;
}
