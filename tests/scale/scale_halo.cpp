// SPDX-License-Identifier: MIT
// Halo + stencil, 1-D and periodic: a few steps of u[i] = (u[i-1] + 2 u[i] + u[i+1]) / 4, each after a
// halo exchange of one element each way. Each rank checks its block against the same steps run on its
// own block widened by one element per step, generated from the random seed (values are small integers, so
// every step is exact in double and the comparison is exact).
// --bench: the halo exchange against two MPI_Sendrecv (one double to each neighbour), the same bytes, and
// against the same four messages posted at once (MPI_Irecv, MPI_Isend, MPI_Waitall).
#include "scale_support.hpp"

#include <utility>

namespace {

constexpr int steps = 4;

double initial(std::uint64_t seed, std::size_t i) { return static_cast<double>(scale::key(seed, i) % 1024); }
double stencil(const double* p) { return (p[-1] + 2 * p[0] + p[1]) * 0.25; }

/// The block [begin, begin + count) after `steps` steps, from a window widened by `steps` each side.
std::vector<double> reference(std::uint64_t seed, std::size_t n, std::size_t begin, std::size_t count) {
  std::vector<double> u(count + 2 * steps), next(u.size());
  for (std::size_t j = 0; j < u.size(); ++j) u[j] = initial(seed, (begin + n * steps + j - steps) % n);
  for (int s = 1; s <= steps; ++s) {
    for (std::size_t j = static_cast<std::size_t>(s); j + s < u.size(); ++j) next[j] = stencil(&u[j]);
    std::swap(u, next);
  }
  return {u.begin() + steps, u.end() - steps};
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const dtl::context ctx = env.make_world_context();
  const scale::options opt = scale::parse(argc, argv);
  const std::size_t per_rank = opt.elements(std::size_t{1} << 17, 4096);
  const std::size_t n = per_rank * static_cast<std::size_t>(ctx.size());
  scale::verdict v("halo");

  const dtl::halo one{.prev = 1, .next = 1, .periodic = true};
  dtl::distributed_vector<double> u(n, ctx, one), next(n, ctx, one);
  const std::size_t begin = u.global_offset(), count = u.local_size();
  for (std::size_t j = 0; j < count; ++j) u.local_data()[j] = initial(opt.seed, begin + j);
  for (int s = 0; s < steps && v.ok(); ++s) {
    v.expect_ok(u.halo().exchange(), "halo exchange");
    v.expect_ok(dtl::try_stencil_transform(u, next, stencil), "stencil_transform");
    std::swap(u, next);
  }
  const std::vector<double> expected = reference(opt.seed, n, begin, count);
  for (std::size_t j = 0; j < count && v.ok(); ++j)
    v.expect(u.local_data()[j] == expected[j], "element " + std::to_string(begin + j) + " is " +
                                                   std::to_string(u.local_data()[j]) + ", expected " +
                                                   std::to_string(expected[j]));

  if (opt.bench) {
    scale::raw_comm raw;
    const int prev = (ctx.rank() + ctx.size() - 1) % ctx.size(), nxt = (ctx.rank() + 1) % ctx.size();
    double* ghosts = u.local_data_with_ghosts();
    const double dtl_us =
        scale::time_us(raw.comm, opt.reps, opt.samples, [&] { v.expect_ok(u.halo().exchange(), "halo exchange"); });
    const double raw_us = scale::time_us(raw.comm, opt.reps, opt.samples, [&] {
      MPI_Sendrecv(ghosts + count, 1, MPI_DOUBLE, nxt, 1, ghosts, 1, MPI_DOUBLE, prev, 1, raw.comm, MPI_STATUS_IGNORE);
      MPI_Sendrecv(ghosts + 1, 1, MPI_DOUBLE, prev, 2, ghosts + count + 1, 1, MPI_DOUBLE, nxt, 2, raw.comm,
                   MPI_STATUS_IGNORE);
    });
    scale::print_bench("halo", "exchange", dtl_us, raw_us);
    // The same two messages posted at once, as a halo exchange can (both directions overlap).
    const double overlapped_us = scale::time_us(raw.comm, opt.reps, opt.samples, [&] {
      MPI_Request r[4];
      MPI_Irecv(ghosts, 1, MPI_DOUBLE, prev, 1, raw.comm, &r[0]);
      MPI_Irecv(ghosts + count + 1, 1, MPI_DOUBLE, nxt, 2, raw.comm, &r[1]);
      MPI_Isend(ghosts + count, 1, MPI_DOUBLE, nxt, 1, raw.comm, &r[2]);
      MPI_Isend(ghosts + 1, 1, MPI_DOUBLE, prev, 2, raw.comm, &r[3]);
      MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    });
    scale::print_bench("halo", "exchange-vs-isend", dtl_us, overlapped_us);
  }
  return v.finish("points=" + std::to_string(n) + " steps=" + std::to_string(steps));
}
