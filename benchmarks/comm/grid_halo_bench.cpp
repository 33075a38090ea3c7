// SPDX-License-Identifier: MIT
// A grid_tensor's halo exchange on host memory against the same exchange written by hand in MPI, in the
// same run: a periodic 3-D block of doubles (n^3 over the ranks, star, width 1), split over the process grid
// that MPI_Dims_create gives. The hand version is what an MPI programmer writes: a Cartesian communicator,
// one MPI subarray type per face and ghost layer, two MPI_Irecv and two MPI_Isend per dimension,
// MPI_Waitall. DTL: t.halo().exchange() (its faces are MPI subarrays too, made once; a rank that is its own
// neighbour copies instead of messaging itself). Table: rank 0's median in microseconds per exchange and
// raw/DTL (1.0: DTL adds nothing).
// Usage: mpiexec -n P dtl-grid-halo-bench [samples]   (default 201 for the small block, fewer for large)
#include "bench_build.hpp"
#include "comm/bench_compare.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/containers/grid_tensor.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace bench;

/// The hand-written exchange over an allocation of `padded` extents (owned block plus one ghost layer).
class hand_exchange {
 public:
  hand_exchange(const std::array<int, 3>& dims, const std::array<int, 3>& padded) {
    const int periods[3] = {1, 1, 1};
    check_mpi(MPI_Cart_create(MPI_COMM_WORLD, 3, dims.data(), periods, 0, &cart_), "MPI_Cart_create");
    for (int d = 0; d < 3; ++d) {
      check_mpi(MPI_Cart_shift(cart_, d, 1, &low_[d], &high_[d]), "MPI_Cart_shift");
      std::array<int, 3> sub = padded, start{1, 1, 1};
      for (int e = 0; e < 3; ++e) sub[e] -= 2;  // the owned extents
      sub[d] = 1;
      // Send the first and last owned layers; receive into the ghost layers below and above.
      const int at[4] = {1, padded[d] - 2, 0, padded[d] - 1};
      for (int k = 0; k < 4; ++k) {
        start[d] = at[k];
        check_mpi(MPI_Type_create_subarray(3, padded.data(), sub.data(), start.data(), MPI_ORDER_C, MPI_DOUBLE,
                                           &types_[d][k]),
                  "MPI_Type_create_subarray");
        check_mpi(MPI_Type_commit(&types_[d][k]), "MPI_Type_commit");
      }
    }
  }
  hand_exchange(const hand_exchange&) = delete;
  hand_exchange& operator=(const hand_exchange&) = delete;
  ~hand_exchange() {
    for (auto& face : types_)
      for (MPI_Datatype& t : face) MPI_Type_free(&t);
    MPI_Comm_free(&cart_);
  }
  void operator()(double* data) {
    MPI_Request requests[12];
    int n = 0;
    for (int d = 0; d < 3; ++d) {
      check_mpi(MPI_Irecv(data, 1, types_[d][2], low_[d], d * 2, cart_, &requests[n++]), "MPI_Irecv");
      check_mpi(MPI_Irecv(data, 1, types_[d][3], high_[d], d * 2 + 1, cart_, &requests[n++]), "MPI_Irecv");
      check_mpi(MPI_Isend(data, 1, types_[d][0], low_[d], d * 2 + 1, cart_, &requests[n++]), "MPI_Isend");
      check_mpi(MPI_Isend(data, 1, types_[d][1], high_[d], d * 2, cart_, &requests[n++]), "MPI_Isend");
    }
    check_mpi(MPI_Waitall(n, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  MPI_Comm cart_ = MPI_COMM_NULL;
  int low_[3] = {}, high_[3] = {};
  MPI_Datatype types_[3][4] = {};
};

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const int asked = argc > 1 ? std::atoi(argv[1]) : 0;
  const dtl::context ctx = env.make_world_context();
  MPI_Comm sync = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &sync), "MPI_Comm_dup");
  const bool root = env.rank() == 0;
  const dtl::process_grid<3> grid(ctx.size(), {}, {true, true, true});
  if (root) {
    warn_if_unoptimized_build();
    std::printf(
        "grid_tensor<double, 3> halo exchange (periodic, star, width 1) on %d ranks, process grid %d x %d x %d, "
        "host memory (%s), %s build, medians (rank 0)\n",
        env.rank_count(), grid.extent(0), grid.extent(1), grid.extent(2), mpi_library().c_str(), DTL_BENCH_BUILD);
    std::printf("%-40s %10s %10s %8s\n", "global block (microseconds/exchange)", "raw MPI", "DTL", "raw/DTL");
  }
  for (const std::size_t n : {std::size_t{32}, std::size_t{128}, std::size_t{256}}) {
    const dtl::grid_decomposition<3> dec(grid, {n, n, n}, {1, 1, 1}, dtl::stencil_shape::star);
    auto made = dtl::grid_tensor<double, 3>::create(dec, ctx);
    check(made, "grid_tensor::create");
    dtl::grid_tensor<double, 3>& t = *made;
    const auto padded = t.padded_extents();
    std::vector<double> hand(t.local_size_with_ghosts(), 1.0);
    std::fill(t.data_with_ghosts(), t.data_with_ghosts() + t.local_size_with_ghosts(), 1.0);
    hand_exchange raw({grid.extent(0), grid.extent(1), grid.extent(2)},
                      {static_cast<int>(padded[0]), static_cast<int>(padded[1]), static_cast<int>(padded[2])});
    const int samples = asked > 0 ? asked : (n <= 32 ? default_samples : n <= 128 ? 61 : 21);
    const int batch = n <= 32 ? 20 : n <= 128 ? 4 : 1;
    const measured m = compare(
        sync, samples, batch, [&] { raw(hand.data()); }, [&] { check(t.halo().exchange(), "halo().exchange()"); });
    if (root)
      std::printf("%-40s %10.2f %10.2f %8.2f\n", (std::to_string(n) + "^3 doubles").c_str(), m.raw_us, m.dtl_us,
                  m.raw_us / m.dtl_us);
  }
  MPI_Comm_free(&sync);
  return 0;
}
