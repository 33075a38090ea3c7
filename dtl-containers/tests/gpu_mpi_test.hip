// SPDX-License-Identifier: MIT
// Device placements over several MPI ranks (one GPU each when there are enough, else shared), on the
// collective path DTL_COLLECTIVES selects (auto, nccl, mpi_gpu_aware, mpi_staged). Every path must give
// the same results; a path this machine cannot take skips (exit 77).
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

template <class V>
auto everything(const V& v) {
  using T = typename V::value_type;
  const auto& ctx = v.get_context();
  auto all = v.gather(0).value();
  std::size_t n = all.size();
  REQUIRE(ctx.broadcast(&n, 1, 0).has_value());
  all.resize(n);
  REQUIRE(ctx.broadcast(all.data(), n, 0).has_value());
  return std::vector<T>(all);
}

}  // namespace

TEST_SUITE("gpu.mpi") {
  TEST_CASE("the path and why") {
    const auto ctx = test_support::world();
    if (ctx.rank() == 0)
      std::printf("device collectives: %s (%s)\n",
                  std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                  ctx.device_collective_reason().c_str());
    CHECK(ctx.has_device());
  }

  TEST_CASE("context collectives on device buffers, blocking and on a stream") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), r = ctx.rank();
    const std::size_t n = (std::size_t{1} << 20) + 3;
    dtl::distributed_vector<float, dtl::device_only_runtime> send(n * static_cast<std::size_t>(p),
                                                                  static_cast<float>(r + 1), ctx);
    float* d = send.local_data();  // n elements of this rank
    REQUIRE(ctx.allreduce(d, d, n, dtl::reduce_op::sum).has_value());
    std::vector<float> host(n);
    REQUIRE(dtl::hip::hip_memory_transfer::copy(host.data(), d, n * sizeof(float), dtl::transfer_kind::device_to_host)
                .has_value());
    CHECK(host[0] == static_cast<float>(p * (p + 1) / 2));
    CHECK(host[n - 1] == static_cast<float>(p * (p + 1) / 2));
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
            .value();
    REQUIRE(ctx.allreduce(d, d, n, dtl::reduce_op::max, stream).get_result(std::chrono::seconds(60)).has_value());
    REQUIRE(ctx.broadcast(d, n, p - 1, stream).get_result(std::chrono::seconds(60)).has_value());
    REQUIRE(stream.synchronize().has_value());
    REQUIRE(dtl::hip::hip_memory_transfer::copy(host.data(), d, n * sizeof(float), dtl::transfer_kind::device_to_host)
                .has_value());
    CHECK(host[n / 2] == static_cast<float>(p * (p + 1) / 2));
    dtl::distributed_vector<int, dtl::device_only_runtime> ranks(static_cast<std::size_t>(p), r, ctx);
    dtl::distributed_vector<int, dtl::device_only_runtime> gathered(static_cast<std::size_t>(p * p), ctx);
    REQUIRE(ctx.allgather(ranks.local_data(), gathered.local_data(), 1).has_value());
    std::vector<int> g(static_cast<std::size_t>(p));
    REQUIRE(dtl::hip::hip_memory_transfer::copy(g.data(), gathered.local_data(), g.size() * sizeof(int),
                                                dtl::transfer_kind::device_to_host)
                .has_value());
    for (int q = 0; q < p; ++q) CHECK(g[static_cast<std::size_t>(q)] == q);
  }

  TEST_CASE("algorithms over the ranks against a sequential reference") {
    const auto ctx = test_support::world();
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, static_cast<std::size_t>(ctx.size() - 1), std::size_t{1000003}}) {
      CAPTURE(n);
      dtl::distributed_vector<std::int64_t, dtl::device_only_runtime> v(n, ctx), w(n, ctx);
      REQUIRE(dtl::iota(v, 1).has_value());
      std::vector<std::int64_t> ref(n);
      std::iota(ref.begin(), ref.end(), 1);
      CHECK(everything(v) == ref);
      const auto N = static_cast<std::int64_t>(n);
      CHECK(dtl::reduce(v, std::int64_t{3}) == 3 + N * (N + 1) / 2);
      CHECK(dtl::reduce(dtl::async{}, v, std::int64_t{0}).get_result(std::chrono::seconds(60)).value() ==
            N * (N + 1) / 2);
      CHECK(dtl::reduce(v, std::int64_t{0}, dtl::reduce_max<std::int64_t>{}) == N);
      CHECK(dtl::reduce(v, std::int64_t{-1},
                        [] __host__ __device__(std::int64_t a, std::int64_t b) { return a ^ b; }) == [&] {
        std::int64_t x = -1;
        for (auto e : ref) x ^= e;
        return x;
      }());
      const auto rooted = dtl::reduce_to_root(v, std::int64_t{0}, std::plus<>{}, ctx.size() - 1);
      CHECK(rooted.has_global == (ctx.rank() == ctx.size() - 1));
      if (rooted.has_global) CHECK(rooted.global_value == N * (N + 1) / 2);
      CHECK(dtl::count_if(v, [] __device__(std::int64_t x) { return x % 2 == 0; }) == n / 2);
      std::vector<std::int64_t> inc(n), exc(n);
      std::inclusive_scan(ref.begin(), ref.end(), inc.begin(), std::plus<>{}, std::int64_t{5});
      std::exclusive_scan(ref.begin(), ref.end(), exc.begin(), std::int64_t{5});
      REQUIRE(dtl::inclusive_scan(v, w, 5).has_value());
      CHECK(everything(w) == inc);
      REQUIRE(dtl::exclusive_scan(v, w, 5).has_value());
      CHECK(everything(w) == exc);
    }
  }

  TEST_CASE("float sums agree across ranks and paths") {
    const auto ctx = test_support::world();
    const std::size_t n = std::size_t{1} << 24;
    dtl::distributed_vector<float, dtl::device_only_runtime> v(n, 0.25f, ctx);
    const float sum = dtl::reduce(v, 0.0f);
    CHECK(sum == doctest::Approx(0.25 * static_cast<double>(n)));
    const float max_sum = ctx.allreduce_value(sum, dtl::reduce_op::max).value();
    CHECK(max_sum == sum);  // every rank got the same value
  }

  TEST_CASE("global_view of device memory") {
    const auto ctx = test_support::world();
    dtl::distributed_vector<double, dtl::device_only_runtime> v(10, ctx);
    REQUIRE(dtl::iota(v, 0).has_value());
    auto g = v.global_view();
    REQUIRE(ctx.barrier().has_value());
    const std::size_t local_index = v.global_offset();
    if (v.local_size() > 0) CHECK(g[local_index].get().value() == static_cast<double>(local_index));
    // Ranks of this node reach each other's device blocks through HIP IPC (refused only where IPC cannot
    // serve, as between GPUs that are not peers); MPI when it is GPU-aware.
    auto remote = g[ctx.rank() == 0 ? 9 : 0].get();
    if (remote.has_value())
      CHECK(remote.value() == (ctx.rank() == 0 ? 9.0 : 0.0));
    else
      CHECK(remote.error() == dtl::status_code::not_supported);
    if (ctx.device_collective_path() == dtl::collective_path::mpi_gpu_aware) CHECK(remote.has_value());
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("a DTL_COLLECTIVES that one rank has wrong fails the context on every rank") {
    if (test_support::environment()->rank_count() < 2) return;
    const char* before = std::getenv("DTL_COLLECTIVES");
    const std::string saved = before != nullptr ? before : "";
    if (test_support::environment()->rank() == 1) setenv("DTL_COLLECTIVES", "sometimes", 1);
    auto made = test_support::environment()->try_make_world_context();
    if (before != nullptr)
      setenv("DTL_COLLECTIVES", saved.c_str(), 1);
    else
      unsetenv("DTL_COLLECTIVES");
    REQUIRE_FALSE(made.has_value());
    CHECK(std::string(made.error().message()).find("DTL_COLLECTIVES=sometimes") != std::string::npos);
    const auto ctx = test_support::world();  // the environment itself is fine
    CHECK(ctx.allreduce_value(1, dtl::reduce_op::sum).value() == ctx.size());
  }

  TEST_CASE("stream-ordered collectives agree on their arguments too") {
    const auto ctx = test_support::world();
    if (ctx.size() < 2) return;
    dtl::distributed_vector<float, dtl::device_only_runtime> v(static_cast<std::size_t>(ctx.size()) * 8, 1.0f, ctx);
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
            .value();
    // Rank 0 reduces 8 elements, the others 4: every rank gets invalid_argument, nobody waits in RCCL/NCCL.
    auto done = ctx.allreduce(v.local_data(), v.local_data(), ctx.rank() == 0 ? 8 : 4, dtl::reduce_op::sum, stream);
    const auto r = done.get_result(std::chrono::seconds(60));
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == dtl::status_code::invalid_argument);
    CHECK(ctx.allreduce(v.local_data(), v.local_data(), 8, dtl::reduce_op::sum, stream)
              .get_result(std::chrono::seconds(60))
              .has_value());
  }
}
