// A program written only with upstream DTL's spellings (its examples' includes, types and calls), built
// against DTL HIP unchanged. Run with the rank count it should see: `upstream_program N` (mpiexec -n N).
// A plain program: no test framework header, which could supply a name <dtl/dtl.hpp> lacks.
#include "support/plain_checks.hpp"

#include <dtl/dtl.hpp>
#include <dtl/algorithms/sorting/stable_sort_global.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <type_traits>

static_assert(std::is_signed_v<dtl::index_t>, "upstream's index_t is signed");
static_assert(std::is_unsigned_v<dtl::size_type>, "upstream's size_type counts");
static_assert(std::is_same_v<dtl::rank_t, int>, "upstream's rank_t is int");
static_assert(dtl::no_rank < 0, "no_rank is no rank");
static_assert(dtl::config::mpi_enabled == (DTL_ENABLE_MPI != 0), "dtl::config says what the macros say");

using plain_checks::expect;

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  auto ctx = env.make_world_context();
  const dtl::rank_t my_rank = ctx.rank();
  const dtl::rank_t num_ranks = ctx.size();
  const dtl::rank_t want_ranks = argc > 1 ? std::atoi(argv[argc - 1]) : 1;

#if DTL_ENABLE_MPI
  // Ranks come from MPI: as many as mpiexec started.
  expect(num_ranks == want_ranks, "the world context has the ranks mpiexec started", my_rank);
#else
  // One process: a single-rank world, whatever was asked.
  expect(num_ranks == 1, "without MPI the world is one rank", my_rank);
  if (want_ranks != 1) {
    std::printf("SKIP: %d ranks asked of a build without MPI\n", want_ranks);
    return 77;
  }
#endif
  expect(my_rank >= 0 && my_rank < num_ranks && my_rank != dtl::no_rank, "the rank is one of the world's", my_rank);

  // Upstream's block partition: the first global_size % num_ranks ranks hold one element more.
  const dtl::size_type global_size = 1000 + 7;
  dtl::distributed_vector<long> vec(global_size, ctx);
  const auto ranks = static_cast<dtl::size_type>(num_ranks);
  const auto me = static_cast<dtl::size_type>(my_rank);
  const dtl::size_type base = global_size / ranks;
  const dtl::size_type extra = global_size % ranks;
  expect(vec.size() == global_size, "size() is the global size", my_rank);
  expect(vec.local_size() == base + (me < extra ? 1 : 0), "local_size() is this rank's block", my_rank);
  expect(static_cast<dtl::size_type>(vec.global_offset()) == me * base + (me < extra ? me : extra),
         "global_offset() is where this rank's block starts", my_rank);

  // The examples' loop: each element holds its global index.
  auto local = vec.local_view();
  const dtl::index_t offset = static_cast<dtl::index_t>(vec.global_offset());
  for (dtl::size_type i = 0; i < local.size(); ++i) local[i] = static_cast<long>(offset + static_cast<dtl::index_t>(i));

  // local_reduce: this rank's elements only, in upstream and here alike.
  const long first = static_cast<long>(offset);
  const long count = static_cast<long>(vec.local_size());
  const long want_local_sum = count * first + count * (count - 1) / 2;
  expect(dtl::local_reduce(vec, 0L, std::plus<>{}) == want_local_sum, "local_reduce is the sum of the block",
         my_rank);

  // stable_sort_global, global and stable: a permutation of 0..n-1 sorted by v / 3 must end with each
  // group of three in its original order. Started descending, element j is 3 * (j / 3) + 2 - j % 3.
  const dtl::size_type sort_size = 999;
  dtl::distributed_vector<long> keys(sort_size, ctx);
  auto key_view = keys.local_view();
  const dtl::index_t key_offset = static_cast<dtl::index_t>(keys.global_offset());
  for (dtl::size_type i = 0; i < key_view.size(); ++i) {
    key_view[i] = static_cast<long>(sort_size) - 1 - static_cast<long>(key_offset + static_cast<dtl::index_t>(i));
  }
  auto sorted = dtl::stable_sort_global(keys, [](long a, long b) { return a / 3 < b / 3; });
  expect(sorted.has_value(), "stable_sort_global succeeds", my_rank);
  auto grouped = keys.local_view();  // views are taken again after a call that may move the elements
  bool in_order = grouped.size() == key_view.size();
  for (dtl::size_type i = 0; i < grouped.size(); ++i) {
    const long j = static_cast<long>(key_offset + static_cast<dtl::index_t>(i));
    in_order = in_order && grouped[i] == 3 * (j / 3) + 2 - j % 3;
  }
  expect(in_order, "stable_sort_global sorts across ranks and keeps equal keys in order", my_rank);
  // The policy form, ascending by value: element j is j.
  expect(dtl::stable_sort_global(dtl::seq{}, keys, std::less<>{}).has_value(), "stable_sort_global(seq, ...)", my_rank);
  auto ascending_view = keys.local_view();
  bool ascending = ascending_view.size() == grouped.size();
  for (dtl::size_type i = 0; i < ascending_view.size(); ++i) {
    ascending = ascending && ascending_view[i] == static_cast<long>(key_offset + static_cast<dtl::index_t>(i));
  }
  expect(ascending, "stable_sort_global(seq, vec, less) gives 0..n-1", my_rank);

  if (plain_checks::failures() == 0 && my_rank == 0) std::printf("upstream program: %d rank(s) ok\n", num_ranks);
  return plain_checks::exit_code();
}
