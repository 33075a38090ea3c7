// SPDX-License-Identifier: MIT
// Two small applications written only with upstream DTL's spellings (the environment, the world
// context, ctx.get<dtl::mpi_domain>().communicator() with byte counts, dtl::rank_t), built against
// DTL HIP unchanged, each checked against a serial run of the same arithmetic:
//   - a 1-D Jacobi iteration for u'' = 0 on uneven blocks with one ghost cell each side, the ghosts
//     exchanged by blocking send/recv ordered by rank parity, the convergence measure by
//     allreduce_max_value;
//   - a Monte Carlo estimate of pi, each rank's samples from its own seed, the hits summed by
//     allreduce_sum_value and counted with exscan_sum_value.
// A plain program (no test framework header, which could supply a name <dtl/dtl.hpp> lacks). Run as
// `upstream_apps N` under mpiexec -n N.
#include "support/plain_checks.hpp"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

using plain_checks::expect;

// The block of rank r of n elements over p ranks: the first n % p ranks hold one more.
struct block {
  dtl::size_type offset;
  dtl::size_type size;
};
block block_of(dtl::size_type n, dtl::rank_t ranks, dtl::rank_t r) {
  const auto p = static_cast<dtl::size_type>(ranks);
  const auto i = static_cast<dtl::size_type>(r);
  const dtl::size_type base = n / p, extra = n % p;
  return {i * base + std::min(i, extra), base + (i < extra ? 1 : 0)};
}

constexpr double left_boundary = 1.0;   // u at the left end (outside the grid)
constexpr double right_boundary = 0.0;  // u at the right end

// One Jacobi sweep of u (with its two ghost or boundary cells) into next; returns max |change|.
double sweep(const std::vector<double>& u, std::vector<double>& next) {
  double diff = 0.0;
  for (std::size_t i = 1; i + 1 < u.size(); ++i) {
    next[i] = 0.5 * (u[i - 1] + u[i + 1]);
    diff = std::max(diff, std::abs(next[i] - u[i]));
  }
  return diff;
}

void jacobi(dtl::context& ctx) {
  auto& comm = ctx.get<dtl::mpi_domain>().communicator();
  const dtl::rank_t rank = ctx.rank();
  const dtl::rank_t size = ctx.size();
  const dtl::size_type n = 1001;  // uneven over 2 and 3 ranks
  const int steps = 300;
  const block mine = block_of(n, size, rank);
  const std::size_t local_n = mine.size;

  // Serial reference: the whole grid, the same sweeps. The start is uneven everywhere, so every block's
  // edge cells depend on its neighbours' from the first sweep.
  auto start = [](dtl::size_type i) { return static_cast<double>((i * 7919) % 101) / 100.0; };
  std::vector<double> ref(n + 2, 0.0), ref_next(n + 2, 0.0);
  for (dtl::size_type i = 0; i < n; ++i) ref[i + 1] = start(i);
  ref.front() = ref_next.front() = left_boundary;
  ref.back() = ref_next.back() = right_boundary;
  std::vector<double> ref_diff(steps);
  for (int s = 0; s < steps; ++s) {
    ref_diff[static_cast<std::size_t>(s)] = sweep(ref, ref_next);
    std::swap(ref, ref_next);
  }

  std::vector<double> u(local_n + 2, 0.0), u_next(local_n + 2, 0.0);
  for (std::size_t i = 0; i < local_n; ++i) u[i + 1] = start(mine.offset + i);
  if (rank == 0) u.front() = u_next.front() = left_boundary;
  if (rank == size - 1) u.back() = u_next.back() = right_boundary;
  const int right_tag = 10, left_tag = 11;
  bool diffs_agree = true;
  for (int s = 0; s < steps; ++s) {
    // Ghosts: even ranks send first, odd ranks receive first (blocking calls complete in pairs).
    const bool has_left = rank > 0, has_right = rank < size - 1;
    auto to_right = [&] {
      if (has_right) comm.send(&u[local_n], sizeof(double), rank + 1, right_tag);
    };
    auto from_left = [&] {
      if (has_left) comm.recv(&u[0], sizeof(double), rank - 1, right_tag);
    };
    auto to_left = [&] {
      if (has_left) comm.send(&u[1], sizeof(double), rank - 1, left_tag);
    };
    auto from_right = [&] {
      if (has_right) comm.recv(&u[local_n + 1], sizeof(double), rank + 1, left_tag);
    };
    if (rank % 2 == 0) {
      to_right();
      from_left();
      to_left();
      from_right();
    } else {
      from_left();
      to_right();
      from_right();
      to_left();
    }
    const double local_diff = sweep(u, u_next);
    std::swap(u, u_next);
    const double global_diff = comm.allreduce_max_value<double>(local_diff);
    diffs_agree = diffs_agree && global_diff == ref_diff[static_cast<std::size_t>(s)];
  }
  expect(diffs_agree, "jacobi: allreduce_max_value of the changes is the serial run's, every step", rank);
  bool same = true;
  for (std::size_t i = 0; i < local_n; ++i) same = same && u[i + 1] == ref[mine.offset + i + 1];
  expect(same, "jacobi: this rank's cells equal the serial run's, bit for bit", rank);
  expect(ref_diff.back() < ref_diff.front(), "jacobi: the iteration converges", rank);
}

long hits_of(dtl::rank_t r, long samples) {
  std::mt19937_64 gen(12345 + static_cast<unsigned>(r));
  std::uniform_real_distribution<double> coord(0.0, 1.0);
  long hits = 0;
  for (long i = 0; i < samples; ++i) {
    const double x = coord(gen), y = coord(gen);
    if (x * x + y * y <= 1.0) ++hits;
  }
  return hits;
}

void monte_carlo(dtl::context& ctx) {
  auto& comm = ctx.get<dtl::mpi_domain>().communicator();
  const dtl::rank_t rank = ctx.rank();
  const dtl::rank_t size = ctx.size();
  const long samples = 200000;
  const long local_hits = hits_of(rank, samples);
  const long global_hits = comm.allreduce_sum_value<long>(local_hits);
  const long before_me = comm.exscan_sum_value<long>(local_hits);
  long want = 0, want_before = 0;
  for (dtl::rank_t r = 0; r < size; ++r) {
    const long h = hits_of(r, samples);
    if (r < rank) want_before += h;
    want += h;
  }
  expect(global_hits == want, "monte carlo: allreduce_sum_value is the sum of every rank's hits", rank);
  expect(rank == 0 || before_me == want_before, "monte carlo: exscan_sum_value counts the ranks before", rank);
  const double pi = 4.0 * static_cast<double>(global_hits) / static_cast<double>(samples * size);
  expect(std::abs(pi - 3.14159265358979) < 0.02, "monte carlo: the estimate is near pi", rank);
  comm.barrier();
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  auto ctx = env.make_world_context();
  const dtl::rank_t want_ranks = argc > 1 ? std::atoi(argv[argc - 1]) : 1;
#if DTL_ENABLE_MPI
  expect(ctx.size() == want_ranks, "the world context has the ranks mpiexec started", ctx.rank());
#else
  if (want_ranks != 1) {
    std::printf("SKIP: %d ranks asked of a build without MPI\n", want_ranks);
    return 77;
  }
#endif
  jacobi(ctx);
  monte_carlo(ctx);
  if (plain_checks::failures() == 0 && ctx.rank() == 0) std::printf("upstream apps: %d rank(s) ok\n", ctx.size());
  return plain_checks::exit_code();
}
