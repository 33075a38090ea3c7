// SPDX-License-Identifier: MIT
// global_view (one-sided MPI): element i holds key(seed, i). Every rank reads a few elements at indices
// drawn from the random seed, wherever they live, and writes a mark into the second element of the next rank's
// block; after a barrier each rank finds the previous rank's mark in its own block.
// --bench: a get() of an element of the next rank against MPI_Win_lock / MPI_Get / MPI_Win_unlock.
#include "scale_support.hpp"

namespace {

constexpr int reads = 8;
std::uint64_t mark(std::size_t rank) { return ~std::uint64_t{0} - rank; }

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const dtl::context ctx = env.make_world_context();
  const scale::options opt = scale::parse(argc, argv);
  const std::size_t per_rank = std::max<std::size_t>(2, opt.elements(1024, 1024));
  const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());
  const std::size_t n = per_rank * p;
  scale::verdict v("global_view");

  dtl::distributed_vector<std::uint64_t> vec(n, ctx);
  const std::size_t begin = vec.global_offset();
  for (std::size_t j = 0; j < vec.local_size(); ++j) vec.local_data()[j] = scale::key(opt.seed, begin + j);
  const dtl::global_view<std::uint64_t> g = vec.global_view();

  for (int k = 0; k < reads && v.ok(); ++k) {
    const std::size_t i = scale::key(opt.seed ^ me, static_cast<std::size_t>(k)) % n;
    if (auto x = g[i].get(); v.expect_ok(x, "get of element " + std::to_string(i)))
      v.expect(*x == scale::key(opt.seed, i), "get of element " + std::to_string(i) + " is wrong");
  }
  v.expect_ok(ctx.barrier(), "barrier");  // every read done before any mark lands
  const std::size_t next_begin = ((me + 1) % p) * per_rank;
  v.expect_ok(g[next_begin + 1].put(mark(me)), "put into the next rank's block");
  v.expect_ok(ctx.barrier(), "barrier");
  v.expect(vec.local_data()[1] == mark((me + p - 1) % p), "the previous rank's mark did not arrive");

  if (opt.bench) {
    scale::raw_comm raw;
    MPI_Win win = MPI_WIN_NULL;
    MPI_Win_create(vec.local_data(), static_cast<MPI_Aint>(vec.local_size() * sizeof(std::uint64_t)),
                   sizeof(std::uint64_t), MPI_INFO_NULL, raw.comm, &win);
    const int target = static_cast<int>((me + 1) % p);
    std::uint64_t got = 0;
    scale::print_bench("global_view", "get-next-rank",
                       scale::time_us(raw.comm, opt.reps, opt.samples,
                                      [&] {
                                        auto x = g[next_begin].get();
                                        v.expect_ok(x, "get");
                                      }),
                       scale::time_us(raw.comm, opt.reps, opt.samples, [&] {
                         MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
                         MPI_Get(&got, 1, MPI_UINT64_T, target, 0, 1, MPI_UINT64_T, win);
                         MPI_Win_unlock(target, win);
                       }));
    MPI_Win_free(&win);
  }
  return v.finish("elements=" + std::to_string(n) + " reads-per-rank=" + std::to_string(reads));
}
