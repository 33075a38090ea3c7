// SPDX-License-Identifier: MIT
// alltoallv with uneven counts: rank s sends rank d a count drawn from the random seed (0 to twice the mean, the
// mean being per-rank / P), and every seventh rank (by the random seed) sends nothing at all. Element j of the
// block s -> d is key(s, d, j). Each rank draws the counts it receives and the values they must hold,
// and checks every element it got.
// --bench: the context's alltoallv against MPI_Alltoallv of the same counts, the same bytes.
#include "scale_support.hpp"

namespace {

struct traffic {
  std::uint64_t seed;
  std::size_t ranks;
  std::size_t mean;
  bool silent(std::size_t s) const { return scale::key(seed ^ 0x5157u, s) % 7 == 3; }
  std::size_t count(std::size_t s, std::size_t d) const {
    return silent(s) ? 0 : scale::key(seed, s * ranks + d) % (2 * mean + 1);
  }
  std::uint64_t value(std::size_t s, std::size_t d, std::size_t j) const {
    return scale::key(seed ^ 0xa11u, (s * ranks + d) << 20 ^ j);
  }
};

struct blocks {
  std::vector<std::size_t> counts, displs;
  std::size_t total = 0;
  template <class CountOf>
  blocks(std::size_t ranks, CountOf count_of) : counts(ranks), displs(ranks) {
    for (std::size_t r = 0; r < ranks; ++r) {
      counts[r] = count_of(r);
      displs[r] = total;
      total += counts[r];
    }
  }
};

std::vector<int> as_int(const std::vector<std::size_t>& v) { return {v.begin(), v.end()}; }

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const dtl::context ctx = env.make_world_context();
  const scale::options opt = scale::parse(argc, argv);
  const std::size_t per_rank = opt.elements(std::size_t{1} << 16, 4096);
  const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());
  const traffic t{opt.seed, p, std::max<std::size_t>(1, per_rank / p)};
  scale::verdict v("alltoallv");

  const blocks out(p, [&](std::size_t d) { return t.count(me, d); });
  const blocks in(p, [&](std::size_t s) { return t.count(s, me); });
  std::vector<std::uint64_t> send(out.total), recv(in.total);
  for (std::size_t d = 0; d < p; ++d)
    for (std::size_t j = 0; j < out.counts[d]; ++j) send[out.displs[d] + j] = t.value(me, d, j);

  v.expect_ok(ctx.alltoallv(send.data(), out.counts, out.displs, recv.data(), in.counts, in.displs), "alltoallv");
  for (std::size_t s = 0; s < p && v.ok(); ++s)
    for (std::size_t j = 0; j < in.counts[s] && v.ok(); ++j)
      v.expect(recv[in.displs[s] + j] == t.value(s, me, j),
               "element " + std::to_string(j) + " from rank " + std::to_string(s) + " is wrong");

  std::uint64_t moved = out.total, moved_all = 0;
  MPI_Allreduce(&moved, &moved_all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (opt.bench) {
    scale::raw_comm raw;
    const std::vector<int> sc = as_int(out.counts), sd = as_int(out.displs), rc = as_int(in.counts),
                           rd = as_int(in.displs);
    scale::print_bench("alltoallv", "uneven",
                       scale::time_us(raw.comm, opt.reps, opt.samples,
                                      [&] {
                                        v.expect_ok(ctx.alltoallv(send.data(), out.counts, out.displs, recv.data(),
                                                                  in.counts, in.displs),
                                                    "alltoallv");
                                      }),
                       scale::time_us(raw.comm, opt.reps, opt.samples, [&] {
                         MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_UINT64_T, recv.data(), rc.data(),
                                       rd.data(), MPI_UINT64_T, raw.comm);
                       }));
  }
  return v.finish("elements=" + std::to_string(moved_all) + " mean-per-peer=" + std::to_string(t.mean));
}
