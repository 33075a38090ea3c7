// SPDX-License-Identifier: MIT
// Upstream DTL's algorithm infrastructure: the policy dispatch over iterator ranges (seq and par against
// the standard algorithms, on ranges large enough for par to split), the algorithm traits, the
// communicator concepts, and the guard of rank-local algorithm bodies (suite mpi.rank_guard: 1 to 3 MPI
// ranks, the same outcome on every rank).
#include "doctest.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/algorithms/algorithm_traits.hpp>
#include <dtl/algorithms/detail/multi_rank_guard.hpp>
#include <dtl/algorithms/dispatch.hpp>
#include <dtl/algorithms/dispatch_helper.hpp>
#include <dtl/backend/concepts/communicator.hpp>
#include <dtl/containers/distributed_vector.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Past 2^15 elements par splits a range into chunks (one per hardware thread).
const std::size_t sizes[] = {0, 1, 5, 100003};

std::vector<int> scrambled(std::size_t n) {
  std::vector<int> v(n);
  std::uint32_t x = 12345;
  for (int& e : v) {
    x = x * 1103515245u + 12345u;
    e = static_cast<int>((x >> 8) % 1000);
  }
  return v;
}

/// 2x2 matrix product over integers mod 2^32: associative, not commutative (a wrong chunk order shows).
struct mat {
  std::uint32_t a = 1, b = 0, c = 0, d = 1;
};
mat operator*(const mat& x, const mat& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
bool operator==(const mat& x, const mat& y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }

struct failure : std::runtime_error {
  failure() : std::runtime_error("user function failed") {}
};

/// A communicator of one rank that satisfies Communicator and CollectiveCommunicator, not the others.
struct one_rank_comm {
  using size_type = dtl::size_type;
  [[nodiscard]] dtl::rank_t rank() const noexcept { return 0; }
  [[nodiscard]] dtl::rank_t size() const noexcept { return 1; }
  void send(const void*, size_type, dtl::rank_t, int) {}
  void recv(void*, size_type, dtl::rank_t, int) {}
  dtl::request_handle isend(const void*, size_type, dtl::rank_t, int) { return {}; }
  dtl::request_handle irecv(void*, size_type, dtl::rank_t, int) { return {}; }
  void wait(dtl::request_handle&) {}
  bool test(dtl::request_handle&) { return true; }
  void barrier() {}
  void broadcast(void*, size_type, dtl::rank_t) {}
  void scatter(const void*, void*, size_type, dtl::rank_t) {}
  void gather(const void*, void*, size_type, dtl::rank_t) {}
  void allgather(const void*, void*, size_type) {}
  void alltoall(const void*, void*, size_type) {}
};
/// rank() returns a long: not a Communicator.
struct wrong_rank_type : one_rank_comm {
  [[nodiscard]] long rank() const noexcept { return 0; }
};

struct fake_container {
  int ranks;
  [[nodiscard]] int num_ranks() const noexcept { return ranks; }
};

}  // namespace

TEST_SUITE("dispatch") {
  TEST_CASE("policy traits") {
    static_assert(dtl::is_seq_policy_v<dtl::seq> && dtl::is_seq_policy_v<const dtl::seq&>);
    static_assert(!dtl::is_seq_policy_v<dtl::par> && dtl::is_par_policy_v<dtl::par&&>);
    static_assert(!dtl::is_async_policy_v<dtl::seq> && !dtl::is_async_policy_v<dtl::par>);
    CHECK(dtl::dispatch_algorithm<dtl::seq>([] { return 1; }, [] { return 2; }) == 1);
    CHECK(dtl::dispatch_algorithm<dtl::par>([] { return 1; }, [] { return 2; }) == 2);
    CHECK(dtl::dispatch_algorithm<dtl::par>([] { return 1; }, [] { return 2; }, [] { return 3; }) == 2);
    CHECK(dtl::dispatch_algorithm<int>([] { return 1; }, [] { return 2; }, [] { return 3; }) == 1);
    CHECK(dtl::execution_dispatcher<dtl::par>::invoke(std::plus<>{}, 2, 3) == 5);
  }

  // In every build: dtl::async is a policy of the dispatch layer in host-only builds too.
  TEST_CASE("async: invoke returns a ready future, the algorithms run as under seq") {
    static_assert(dtl::is_async_policy_v<dtl::async> && !dtl::is_seq_policy_v<dtl::async>);
    CHECK(dtl::dispatch_algorithm<dtl::async>([] { return 1; }, [] { return 2; }, [] { return 3; }) == 3);
    CHECK(dtl::dispatch_algorithm<dtl::async>([] { return 1; }, [] { return 2; }) == 1);
    std::future<int> value = dtl::execution_dispatcher<dtl::async>::invoke(std::plus<>{}, 2, 3);
    CHECK(value.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    CHECK(value.get() == 5);
    int touched = 0;
    std::future<void> done = dtl::execution_dispatcher<dtl::async>::invoke([&touched] { touched = 1; });
    CHECK(touched == 1);
    done.get();
    std::future<int> failed = dtl::execution_dispatcher<dtl::async>::invoke([]() -> int { throw failure(); });
    CHECK_THROWS_AS(failed.get(), failure);
    const std::vector<int> in = scrambled(1000);
    CHECK(dtl::dispatch_reduce(dtl::async{}, in.begin(), in.end(), 0L, std::plus<>{}) ==
          std::accumulate(in.begin(), in.end(), 0L));
  }

  TEST_CASE("elementwise under seq and par against the standard algorithms") {
    for (std::size_t n : sizes) {
      CAPTURE(n);
      const std::vector<int> in = scrambled(n);
      std::vector<int> expected(n);
      std::transform(in.begin(), in.end(), expected.begin(), [](int x) { return 3 * x + 1; });
      for (int policy = 0; policy < 2; ++policy) {
        CAPTURE(policy);
        auto run = [&](auto p) {
          std::vector<int> out(n, -1);
          const auto end =
              dtl::dispatch_transform(p, in.begin(), in.end(), out.begin(), [](int x) { return 3 * x + 1; });
          CHECK(end == out.end());
          CHECK(out == expected);
          std::vector<int> copied(n, -1);
          CHECK(dtl::dispatch_copy(p, in.begin(), in.end(), copied.begin()) == copied.end());
          CHECK(copied == in);
          dtl::dispatch_fill(p, copied.begin(), copied.end(), 7);
          CHECK(std::all_of(copied.begin(), copied.end(), [](int x) { return x == 7; }));
          std::atomic<long> sum{0};
          dtl::dispatch_for_each(p, in.begin(), in.end(), [&sum](int x) { sum += x; });
          CHECK(sum.load() == std::accumulate(in.begin(), in.end(), 0L));
          dtl::dispatch_for_each(p, copied.begin(), copied.end(), [](int& x) { x *= 2; });
          CHECK(std::count(copied.begin(), copied.end(), 14) == static_cast<std::ptrdiff_t>(n));
        };
        if (policy == 0)
          run(dtl::seq{});
        else
          run(dtl::par{});
      }
    }
  }

  TEST_CASE("queries and reductions under par equal seq's") {
    for (std::size_t n : sizes) {
      CAPTURE(n);
      const std::vector<int> in = scrambled(n);
      auto big = [](int x) { return x > 990; };
      CHECK(dtl::dispatch_count(dtl::par{}, in.begin(), in.end(), 500) == std::count(in.begin(), in.end(), 500));
      CHECK(dtl::dispatch_count_if(dtl::par{}, in.begin(), in.end(), big) == std::count_if(in.begin(), in.end(), big));
      // The first match, wherever the chunks split: a value present only near the end, and one everywhere.
      std::vector<int> marked = in;
      if (n > 0) marked[n - 1] = 5000;
      if (n > 2) marked[n / 2] = 5000;
      CHECK(dtl::dispatch_find(dtl::par{}, marked.begin(), marked.end(), 5000) ==
            std::find(marked.begin(), marked.end(), 5000));
      CHECK(dtl::dispatch_find_if(dtl::par{}, in.begin(), in.end(), big) == std::find_if(in.begin(), in.end(), big));
      CHECK(dtl::dispatch_find(dtl::par{}, in.begin(), in.end(), -1) == in.end());
      CHECK(dtl::dispatch_all_of(dtl::par{}, in.begin(), in.end(), [](int x) { return x >= 0; }));
      CHECK(dtl::dispatch_any_of(dtl::par{}, in.begin(), in.end(), big) == std::any_of(in.begin(), in.end(), big));
      CHECK(dtl::dispatch_none_of(dtl::par{}, in.begin(), in.end(), big) == std::none_of(in.begin(), in.end(), big));
      CHECK(dtl::dispatch_reduce(dtl::par{}, in.begin(), in.end(), 10L, std::plus<>{}) ==
            std::accumulate(in.begin(), in.end(), 10L));
      // Associative, not commutative: par keeps the order, init first.
      std::vector<mat> ms(n);
      for (std::size_t i = 0; i < n; ++i)
        ms[i] = mat{1, static_cast<std::uint32_t>(in[i]), static_cast<std::uint32_t>(i & 1u), 1};
      const mat init{2, 1, 1, 1};
      CHECK(dtl::dispatch_reduce(dtl::par{}, ms.begin(), ms.end(), init, std::multiplies<>{}) ==
            std::accumulate(ms.begin(), ms.end(), init, std::multiplies<>{}));
      CHECK(dtl::dispatch_reduce(dtl::seq{}, ms.begin(), ms.end(), init, std::multiplies<>{}) ==
            std::accumulate(ms.begin(), ms.end(), init, std::multiplies<>{}));
    }
  }

  TEST_CASE("sort under seq and par") {
    for (std::size_t n : sizes) {
      CAPTURE(n);
      std::vector<int> expected = scrambled(n);
      std::sort(expected.begin(), expected.end());
      std::vector<int> a = scrambled(n), b = scrambled(n);
      dtl::dispatch_sort(dtl::par{}, a.begin(), a.end());
      dtl::dispatch_sort(dtl::seq{}, b.begin(), b.end());
      CHECK(a == expected);
      CHECK(b == expected);
      dtl::dispatch_sort(dtl::par{}, a.begin(), a.end(), std::greater<>{});
      CHECK(std::equal(a.begin(), a.end(), expected.rbegin()));
    }
    // Not random access: the sequential algorithms.
    std::list<int> l{3, 1, 2};
    CHECK(dtl::dispatch_count(dtl::par{}, l.begin(), l.end(), 2) == 1);
    CHECK(*dtl::dispatch_find(dtl::par{}, l.begin(), l.end(), 1) == 1);
  }

  TEST_CASE("a user function that throws under par: the exception reaches the caller") {
    const std::vector<int> in = scrambled(100003);
    std::vector<int> out(in.size());
    auto throws_late = [](int x) -> int {
      if (x == 999) throw failure();
      return x;
    };
    REQUIRE(std::count(in.begin(), in.end(), 999) > 0);
    CHECK_THROWS_AS(dtl::dispatch_transform(dtl::par{}, in.begin(), in.end(), out.begin(), throws_late), failure);
    CHECK_THROWS_AS(dtl::dispatch_count_if(dtl::par{}, in.begin(), in.end(), throws_late), failure);
  }

  TEST_CASE("algorithm traits") {
    using dtl::algorithm_traits;
    static_assert(dtl::LocalAlgorithm<dtl::fill_tag> && !dtl::requires_communication_v<dtl::fill_tag>);
    static_assert(dtl::is_modifying_algorithm_v<dtl::for_each_tag> && !dtl::produces_scalar_v<dtl::for_each_tag>);
    static_assert(dtl::CollectiveAlgorithm<dtl::sort_tag> && dtl::requires_all_ranks_v<dtl::sort_tag>);
    static_assert(dtl::is_modifying_algorithm_v<dtl::unique_tag>);
    static_assert(dtl::CollectiveAlgorithm<dtl::find_tag> && !dtl::produces_scalar_v<dtl::find_tag>);
    static_assert(dtl::produces_scalar_v<dtl::reduce_tag> && !dtl::is_modifying_algorithm_v<dtl::reduce_tag>);
    static_assert(dtl::produces_scalar_v<dtl::min_element_tag> && dtl::produces_scalar_v<dtl::count_tag>);
    // Without a row: local, nothing else.
    struct unknown_tag {};
    static_assert(dtl::LocalAlgorithm<unknown_tag> && !dtl::is_modifying_algorithm_v<unknown_tag>);
    static_assert(!dtl::DistributedAlgorithm<dtl::reduce_tag>);
    CHECK(algorithm_traits<dtl::nth_element_tag>::requires_communication);
    CHECK_FALSE(algorithm_traits<dtl::replace_tag>::requires_communication);
  }

  TEST_CASE("communicator concepts") {
    static_assert(dtl::CollectiveCommunicator<one_rank_comm> && !dtl::ReducingCommunicator<one_rank_comm>);
    static_assert(!dtl::Communicator<wrong_rank_type> && !dtl::Communicator<int>);
    static_assert(dtl::ReducingCommunicator<dtl::mpi::mpi_comm_adapter>);
    static_assert(!dtl::AsyncCommunicator<dtl::mpi::mpi_comm_adapter>);
    one_rank_comm comm;
    dtl::request_handle r = comm.isend(nullptr, 0, 0, 0);
    CHECK_FALSE(r.valid());
    CHECK(comm.test(r));
  }

  TEST_CASE("the rank guard on a container's rank count") {
    CHECK(dtl::detail::check_collective_comm_or_single_rank(fake_container{1}, "dtl::partition").ok());
    CHECK_NOTHROW(dtl::detail::require_collective_comm_or_single_rank(fake_container{1}, "dtl::partition"));
    const dtl::status refused = dtl::detail::check_collective_comm_or_single_rank(fake_container{4}, "dtl::partition");
    CHECK(refused.code() == dtl::status_code::precondition_failed);
    CHECK(refused.message().find("dtl::partition") != std::string::npos);
    CHECK_THROWS_AS(dtl::detail::require_collective_comm_or_single_rank(fake_container{2}, "dtl::partition"),
                    std::runtime_error);
  }
}

TEST_SUITE("mpi.rank_guard") {
  TEST_CASE("a distributed vector: refused on every rank past one rank, with one status") {
    const dtl::context ctx = test_support::world();
    dtl::distributed_vector<int> v(10, ctx);
    const dtl::status s = dtl::detail::check_collective_comm_or_single_rank(v, "dtl::nth_element");
    CHECK(s.ok() == (ctx.size() == 1));
    test_support::same_status_everywhere(ctx, s);
    if (ctx.size() > 1) {
      CHECK(s.code() == dtl::status_code::precondition_failed);
      CHECK_THROWS_AS(dtl::detail::require_collective_comm_or_single_rank(v, "dtl::nth_element"), dtl::status_error);
    } else {
      CHECK_NOTHROW(dtl::detail::require_collective_comm_or_single_rank(v, "dtl::nth_element"));
    }
    test_support::still_in_step(ctx);
  }
}
