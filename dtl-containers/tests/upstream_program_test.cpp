// SPDX-License-Identifier: MIT
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
  expect(dtl::local_reduce(vec, 0L, std::plus<>{}) == want_local_sum, "local_reduce is the sum of the block", my_rank);

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

  // The forms that take upstream's communicator, against the closed form: vec holds 0..n-1.
  auto& comm = ctx.get<dtl::mpi_domain>().communicator();
  const long n = static_cast<long>(global_size);
  const long want_sum = n * (n - 1) / 2;
  expect(dtl::global_reduce(dtl::par{}, vec, 5L, std::plus<>{}, comm) == 5 + want_sum, "global_reduce(par, ..., comm)",
         my_rank);
  expect(dtl::global_reduce(vec, 0L, comm) == want_sum, "global_reduce(vec, init, comm)", my_rank);
  expect(dtl::reduce(dtl::seq{}, vec, 1L, comm) == 1 + want_sum, "reduce(seq, vec, init, comm)", my_rank);
  expect(dtl::reduce(dtl::seq{}, vec, -1L, dtl::reduce_max<long>{}, comm) == n - 1, "reduce(..., reduce_max, comm)",
         my_rank);
  // Upstream returns T for `T init`: a double here, summed in the element type.
  const auto as_double = dtl::reduce(dtl::par{}, vec, 0.0, std::plus<>{}, ctx);
  static_assert(std::is_same_v<std::remove_const_t<decltype(as_double)>, double>, "reduce's result has init's type");
  expect(as_double == static_cast<double>(want_sum), "reduce(..., ctx) with a double init", my_rank);
  const dtl::reduce_result<long> both = dtl::distributed_reduce(dtl::par{}, vec, 2L, std::plus<>{}, comm);
  expect(both.has_global && both.global_value == 2 + want_sum && both.local_value == 2 + want_local_sum &&
             both.value() == both.global_value,
         "distributed_reduce(..., comm): this rank's part and the whole, on every rank", my_rank);
  const dtl::rank_t root = num_ranks - 1;
  const dtl::reduce_result<long> rooted = dtl::reduce_to(dtl::par{}, vec, 3L, comm, root);
  expect(rooted.has_global == (my_rank == root) && rooted.local_value == 3 + want_local_sum &&
             rooted.global_value == (my_rank == root ? 3 + want_sum : 0L),
         "reduce_to(..., comm, root): the sum on the root alone", my_rank);
  const dtl::reduce_result<long> rooted_min = dtl::reduce_to(dtl::seq{}, vec, n, dtl::reduce_min<long>{}, 0);
  expect(rooted_min.has_global == (my_rank == 0) && (my_rank != 0 || rooted_min.global_value == 0),
         "reduce_to(..., op, root)", my_rank);
  // A communicator of another context (over the same ranks) is not the vector's: every rank throws.
  auto other = env.make_world_context();
  bool refused = false;
  try {
    (void)dtl::distributed_reduce(dtl::seq{}, vec, 0L, std::plus<>{}, other.get<dtl::mpi_domain>().communicator());
  } catch (const dtl::communication_error& e) {
    refused = e.code() == dtl::status_code::invalid_argument;
  }
  expect(refused, "another context's communicator throws communication_error (invalid_argument)", my_rank);
  bool root_refused = false;
  try {
    (void)dtl::reduce_to(dtl::seq{}, vec, 0L, comm, num_ranks);
  } catch (const dtl::communication_error& e) {
    root_refused = e.code() == dtl::status_code::invalid_rank;
  }
  expect(root_refused, "reduce_to with a root past the ranks throws communication_error (invalid_rank)", my_rank);

  // stable_sort_global with the communicator: the same global stable sort, and what this rank moved.
  // The keys are 0..n-1 again; sorted by v / 5 descending, groups of five keep their ascending order.
  auto by_fives = [](long a, long b) { return a / 5 > b / 5; };
  const dtl::stable_sort_global_result moved = dtl::stable_sort_global(dtl::par{}, keys, by_fives, comm);
  // Sorted: the short top group (n % 5 elements from n - n % 5), then each full group of five from the
  // highest down, each ascending: position j holds top_start + j, then top_start - 5 * (g + 1) + r for
  // the (g, r) = divmod(j - top, 5) of the rest.
  const long top = static_cast<long>(sort_size) % 5;
  const long top_start = static_cast<long>(sort_size) - top;
  auto fives = keys.local_view();
  bool stable = fives.size() == key_view.size();
  for (dtl::size_type i = 0; i < fives.size(); ++i) {
    const long j = static_cast<long>(key_offset + static_cast<dtl::index_t>(i));
    const long want = j < top ? top_start + j : top_start - 5 * ((j - top) / 5 + 1) + (j - top) % 5;
    stable = stable && fives[i] == want;
  }
  expect(moved.success && stable, "stable_sort_global(par, vec, comp, comm) sorts and keeps equal keys in order",
         my_rank);
  expect(dtl::is_globally_sorted(keys, by_fives, comm), "is_globally_sorted(vec, comp, comm)", my_rank);
  expect(!dtl::is_globally_sorted(keys, std::less<>{}, comm), "is_globally_sorted: descending is not ascending",
         my_rank);
  expect(num_ranks > 1 || (moved.elements_sent == 0 && moved.elements_received == 0), "one rank sends nothing",
         my_rank);
  const long sent_total = comm.allreduce_sum_value<long>(static_cast<long>(moved.elements_sent));
  const long received_total = comm.allreduce_sum_value<long>(static_cast<long>(moved.elements_received));
  expect(sent_total == received_total, "what the ranks sent, they received", my_rank);

  if (plain_checks::failures() == 0 && my_rank == 0) std::printf("upstream program: %d rank(s) ok\n", num_ranks);
  return plain_checks::exit_code();
}
