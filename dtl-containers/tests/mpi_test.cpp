// SPDX-License-Identifier: MIT
// Host placements over several MPI ranks (run with 2 and 3): contexts, collectives, vectors, algorithms.
#include "test_environment.hpp"

#include <backends/mpi/mpi_communicator.hpp>  // <mpi.h>, and native_handle()'s MPI_Comm
#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

dtl::context world() { return test_support::environment()->make_world_context(); }

template <class T>
std::vector<T> everything(const dtl::distributed_vector<T>& v) {
  auto all = v.gather(0).value();
  const int rank = v.rank();
  std::size_t n = all.size();
  REQUIRE(v.get_context().broadcast(&n, 1, 0).has_value());
  all.resize(n);
  REQUIRE(v.get_context().broadcast(all.data(), n, 0).has_value());
  static_cast<void>(rank);
  return all;
}

struct bit_or {
  std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a | b; }
};

}  // namespace

TEST_SUITE("mpi") {
  TEST_CASE("environment and context") {
    const auto& env = *test_support::environment();
    const auto ctx = world();
    CHECK(ctx.size() == env.rank_count());
    CHECK(ctx.rank_count() == env.rank_count());
    CHECK(ctx.rank() == env.rank());
    CHECK(env.has_mpi());
    CHECK(env.local_rank_count() >= 1);
    CHECK(env.local_rank() < env.local_rank_count());
    CHECK(ctx.barrier().has_value());
    const auto halves = ctx.split(ctx.rank() % 2);
    REQUIRE(halves.has_value());
    CHECK(halves->size() == (ctx.size() + 1 - ctx.rank() % 2) / 2);
    CHECK(halves->rank() == ctx.rank() / 2);
    // Ranks sorted by a key: reverse order.
    const auto reversed = ctx.split(0, ctx.size() - ctx.rank());
    REQUIRE(reversed.has_value());
    CHECK(reversed->rank() == ctx.size() - 1 - ctx.rank());
  }

  TEST_CASE("native_mpi_comm: the program's own communicator over the context's ranks, apart from DTL's messages") {
    const auto ctx = world();
    REQUIRE(ctx.native_mpi_comm() != nullptr);
    const MPI_Comm mine = dtl::mpi::mpi_comm_adapter(ctx).native_handle();
    CHECK(mine == *static_cast<const MPI_Comm*>(ctx.native_mpi_comm()));
    int size = 0, rank = -1, same = MPI_UNEQUAL;
    REQUIRE(MPI_Comm_size(mine, &size) == MPI_SUCCESS);
    REQUIRE(MPI_Comm_rank(mine, &rank) == MPI_SUCCESS);
    CHECK(size == ctx.size());
    CHECK(rank == ctx.rank());
    REQUIRE(MPI_Comm_compare(mine, MPI_COMM_WORLD, &same) == MPI_SUCCESS);
    CHECK(same == MPI_CONGRUENT);  // the world's ranks, a communicator of its own
    // The program's message and DTL's, same peer and tag, each reach their own receive.
    const int next = (ctx.rank() + 1) % ctx.size(), prev = (ctx.rank() + ctx.size() - 1) % ctx.size();
    int theirs = -1, raw_in = -1;
    MPI_Request raw_recv = MPI_REQUEST_NULL, raw_send = MPI_REQUEST_NULL;
    const int raw_out = 1000 + ctx.rank();
    REQUIRE(MPI_Irecv(&raw_in, 1, MPI_INT, prev, 7, mine, &raw_recv) == MPI_SUCCESS);
    REQUIRE(MPI_Isend(&raw_out, 1, MPI_INT, next, 7, mine, &raw_send) == MPI_SUCCESS);
    const int dtl_out = 2000 + ctx.rank();
    REQUIRE(ctx.sendrecv(&dtl_out, 1, next, &theirs, 1, prev, 7).has_value());
    REQUIRE(MPI_Wait(&raw_recv, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    REQUIRE(MPI_Wait(&raw_send, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(theirs == 2000 + prev);
    CHECK(raw_in == 1000 + prev);
    // A split context has its own, over its ranks.
    auto half = ctx.split(ctx.rank() % 2);
    REQUIRE(half.has_value());
    const MPI_Comm sub = dtl::mpi::mpi_comm_adapter(*half).native_handle();
    REQUIRE(MPI_Comm_size(sub, &size) == MPI_SUCCESS);
    CHECK(size == half->size());
    int sum = 0, one = 1;
    REQUIRE(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, sub) == MPI_SUCCESS);
    CHECK(sum == half->size());
    // An empty context has none.
    dtl::context moved = std::move(*half);
    CHECK(half->native_mpi_comm() == nullptr);  // NOLINT(bugprone-use-after-move): an empty context, by design
    CHECK(dtl::mpi::mpi_comm_adapter(*half).native_handle().operator MPI_Comm() == MPI_COMM_NULL);
  }

  TEST_CASE("collectives") {
    const auto ctx = world();
    const int p = ctx.size(), r = ctx.rank();
    CHECK(ctx.allreduce_value(r + 1, dtl::reduce_op::sum).value() == p * (p + 1) / 2);
    CHECK(ctx.allreduce_value(static_cast<double>(r), dtl::reduce_op::max).value() == p - 1);
    CHECK(ctx.allreduce_value(std::int64_t{r} - 5, dtl::reduce_op::min).value() == -5);
    CHECK(ctx.allreduce_value(2u, dtl::reduce_op::product).value() == (1u << p));
    std::vector<float> in(1000, static_cast<float>(r)), out(1000, -1.0f);
    REQUIRE(ctx.allreduce(in.data(), out.data(), in.size(), dtl::reduce_op::sum).has_value());
    CHECK(out[999] == static_cast<float>(p * (p - 1) / 2));
    REQUIRE(ctx.allreduce(in.data(), in.data(), in.size(), dtl::reduce_op::max).has_value());  // in place
    CHECK(in[0] == static_cast<float>(p - 1));
    int reduced = -1;
    REQUIRE(ctx.reduce(&r, &reduced, 1, dtl::reduce_op::sum, p - 1).has_value());
    if (r == p - 1) CHECK(reduced == p * (p - 1) / 2);
    std::vector<int> data(5, r);
    REQUIRE(ctx.broadcast(data.data(), data.size(), 1 % p).has_value());
    CHECK(data == std::vector<int>(5, 1 % p));
    std::vector<int> gathered(static_cast<std::size_t>(2 * p));
    const int mine[2] = {r, 10 * r};
    REQUIRE(ctx.allgather(mine, gathered.data(), 2).has_value());
    for (int q = 0; q < p; ++q) {
      CHECK(gathered[static_cast<std::size_t>(2 * q)] == q);
      CHECK(gathered[static_cast<std::size_t>(2 * q + 1)] == 10 * q);
    }
    CHECK(ctx.broadcast(data.data(), 1, p).error() == dtl::status_code::invalid_rank);
  }

  TEST_CASE("distributed_vector: partition and views for sizes that do not divide evenly") {
    const auto ctx = world();
    const int p = ctx.size();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, static_cast<std::size_t>(p - 1),
                                static_cast<std::size_t>(2 * p + 1), std::size_t{100003}}) {
      dtl::distributed_vector<int> v(n, ctx);
      CHECK(v.global_size() == n);
      const std::size_t total = ctx.allreduce_value(v.local_size(), dtl::reduce_op::sum).value();
      CHECK(total == n);
      int segments = 0;
      for (const auto& seg : v.segmented_view()) {
        CHECK(seg.is_local() == (seg.rank == ctx.rank()));
        if (seg.is_local()) {
          CHECK(seg.global_offset == v.global_offset());
          CHECK(seg.size == v.local_size());
        }
        ++segments;
      }
      CHECK(segments == p);
      for (std::size_t i = 0; i < n; i += 1 + n / 7) {
        const int owner = v.owner(i).value();
        CHECK((owner == ctx.rank()) == v.local_range().contains(i));
      }
    }
  }

  TEST_CASE("algorithms against a sequential reference") {
    const auto ctx = world();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, static_cast<std::size_t>(ctx.size() - 1),
                                std::size_t{1001}, std::size_t{100003}}) {
      dtl::distributed_vector<std::int64_t> v(n, ctx), w(n, ctx);
      REQUIRE(dtl::iota(dtl::par{}, v, 1).has_value());
      std::vector<std::int64_t> ref(n);
      std::iota(ref.begin(), ref.end(), 1);
      CHECK(everything(v) == ref);
      const auto N = static_cast<std::int64_t>(n);
      CHECK(dtl::reduce(v, std::int64_t{3}) == 3 + N * (N + 1) / 2);
      CHECK(dtl::reduce(dtl::par{}, v, std::int64_t{0}, dtl::reduce_max<std::int64_t>{}) == N);
      CHECK(dtl::count_if(v, [](std::int64_t x) { return x % 2 == 0; }) == n / 2);
      const auto rooted = dtl::reduce_to_root(v, std::int64_t{0}, std::plus<>{}, ctx.size() - 1);
      CHECK(rooted.has_global == (ctx.rank() == ctx.size() - 1));
      if (rooted.has_global) CHECK(rooted.global_value == N * (N + 1) / 2);
      const auto both = dtl::distributed_reduce(v, std::int64_t{0}, std::plus<>{});
      CHECK(both.global_value == N * (N + 1) / 2);
      CHECK(ctx.allreduce_value(both.local_value, dtl::reduce_op::sum).value() == N * (N + 1) / 2);
      // An operator without a native collective, and an init that counts once.
      dtl::distributed_vector<std::uint32_t> bits(n, ctx);
      REQUIRE(dtl::for_each_indexed(bits, [](std::size_t i, std::uint32_t& x) { x = 1u << (i % 13); }).has_value());
      CHECK(dtl::reduce(bits, 1u << 20, bit_or{}) == ((1u << 20) | (n >= 13 ? 0x1FFFu : (1u << n) - 1u)));
      // Scans across ranks.
      std::vector<std::int64_t> inc(n), exc(n);
      std::inclusive_scan(ref.begin(), ref.end(), inc.begin(), std::plus<>{}, std::int64_t{5});
      std::exclusive_scan(ref.begin(), ref.end(), exc.begin(), std::int64_t{5});
      REQUIRE(dtl::inclusive_scan(v, w, 5).has_value());
      CHECK(everything(w) == inc);
      REQUIRE(dtl::exclusive_scan(dtl::par{}, v, w, 5, std::plus<>{}).has_value());
      CHECK(everything(w) == exc);
      REQUIRE(dtl::transform(v, w, [](std::int64_t x) { return -x; }).has_value());
      CHECK(dtl::reduce(w, std::int64_t{0}) == -(N * (N + 1) / 2));
    }
  }

  TEST_CASE("global_view reaches remote elements") {
    const auto ctx = world();
    dtl::distributed_vector<double> v(10, ctx);
    REQUIRE(dtl::iota(v, 0).has_value());
    auto g = v.global_view();
    REQUIRE(ctx.barrier().has_value());
    for (std::size_t i = 0; i < 10; ++i) CHECK(g[i].get().value() == static_cast<double>(i));
    REQUIRE(ctx.barrier().has_value());
    if (ctx.rank() == 0) REQUIRE(g[9].put(99.0).has_value());  // element 9 lives on the last rank
    REQUIRE(ctx.barrier().has_value());
    CHECK(g[9].get().value() == 99.0);
    CHECK(g[10].get().error() == dtl::status_code::out_of_range);
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("global_view's iterators, ownership and read-only view over the ranks") {
    const auto ctx = world();
    dtl::distributed_vector<int> v(11, ctx);
    REQUIRE(dtl::iota(v, 0).has_value());
    auto g = v.global_view();
    const auto& cv = v;
    auto read = cv.global_view();  // a const vector's view: the same window
    REQUIRE(ctx.barrier().has_value());
    int sum = 0;
    for (auto it = g.begin(); it != g.end(); ++it) {
      CHECK(it.is_local() == (it.owner() == ctx.rank()));
      sum += (*it).get().value();
    }
    CHECK(sum == 55);
    const dtl::remote_ref<const int> last = read[10];
    CHECK(last.owner_rank() == ctx.size() - 1);
    CHECK(last.remote_capability() == (ctx.rank() == ctx.size() - 1 ? dtl::remote_access_capability::local_only
                                                                    : dtl::remote_access_capability::remote_rma));
    CHECK(last.get().value() == 10);
    CHECK(g.to_local(static_cast<dtl::index_t>(v.global_offset())) == (v.local_size() == 0 ? -1 : 0));
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("gather and clone") {
    const auto ctx = world();
    dtl::distributed_vector<int> v(13, ctx);
    REQUIRE(dtl::iota(v, 100).has_value());
    auto all = v.gather(ctx.size() - 1);
    REQUIRE(all.has_value());
    if (ctx.rank() == ctx.size() - 1) {
      REQUIRE(all->size() == 13);
      CHECK(all->front() == 100);
      CHECK(all->back() == 112);
    } else {
      CHECK(all->empty());
    }
    auto copy = v.clone();
    REQUIRE(copy.has_value());
    CHECK(dtl::reduce(*copy, 0) == dtl::reduce(v, 0));
  }

  TEST_CASE("mismatched vectors give statuses on every rank") {
    const auto ctx = world();
    const auto sub = ctx.split(0).value();  // the same ranks, another context
    dtl::distributed_vector<int> a(10, ctx), b(10, sub), c(11, ctx);
    CHECK(dtl::copy(a, b).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::copy(a, c).error() == dtl::status_code::invalid_argument);  // upstream's "incompatible partitions"
    CHECK(dtl::transform(a, c, [](int x) { return x; }).error() == dtl::status_code::extent_mismatch);
  }
}
