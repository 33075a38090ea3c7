// SPDX-License-Identifier: MIT
// Containers built from a context-like object (context_like.hpp): the layout and local block of its
// rank of its size, with no communicator behind them.
#include "doctest.hpp"
#include "names_device.hpp"

#include <dtl/containers/containers.hpp>

#include <cstddef>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// What upstream DTL's tests pass: a rank and a rank count, nothing else.
struct rank_of {
  dtl::rank_t my_rank = 0;
  dtl::rank_t ranks = 1;
  [[nodiscard]] dtl::rank_t rank() const noexcept { return my_rank; }
  [[nodiscard]] dtl::rank_t size() const noexcept { return ranks; }
};

// An object that carries one of our contexts (as upstream's communicator does).
struct carrier {
  dtl::context ctx;
  [[nodiscard]] int rank() const noexcept { return ctx.rank(); }
  [[nodiscard]] int size() const noexcept { return ctx.size(); }
  [[nodiscard]] const dtl::context& dtl_context() const noexcept { return ctx; }
};

struct not_a_context {
  int rank = 0;  // a field, not rank()
};

bool says_no_communicator(const dtl::status& s, const std::string& rank_text) {
  const std::string message(s.message());
  return s.code() == dtl::status_code::not_supported && message.find("no communicator") != std::string::npos &&
         message.find(rank_text) != std::string::npos;
}

}  // namespace

// Only context-like types are taken, and a container is none (its size() counts elements).
static_assert(dtl::context_like<rank_of> && dtl::context_like<dtl::context>);
static_assert(dtl::Context<dtl::context> && !dtl::Context<rank_of>);
static_assert(std::is_constructible_v<dtl::distributed_vector<int>, std::size_t, rank_of>);
static_assert(!std::is_constructible_v<dtl::distributed_vector<int>, std::size_t, not_a_context>);
static_assert(!std::is_constructible_v<dtl::distributed_vector<int>, std::size_t, const dtl::distributed_vector<int>&>);
static_assert(!std::is_constructible_v<dtl::distributed_array<int, 4>, not_a_context>);
// Upstream's one-rank forms: (size) is explicit, (size, value) is not a context-like form.
static_assert(std::is_constructible_v<dtl::distributed_vector<int>, std::size_t, int>);
static_assert(!std::is_convertible_v<std::size_t, dtl::distributed_vector<int>>);

TEST_SUITE("context_like") {
  TEST_CASE("rank r of 4: the block partition's local size, offset and owners; zeroes and values") {
    for (const std::size_t n : {std::size_t{100}, std::size_t{7}}) {
      const dtl::block_partition<> layout = dtl::block_partition<>::create(n, 4).value();
      for (int r = 0; r < 4; ++r) {
        CAPTURE(n);
        CAPTURE(r);
        const dtl::index_range mine = layout.local_range(r).value();
        dtl::distributed_vector<int> zeroes(n, rank_of{r, 4});
        CHECK(zeroes.global_size() == n);
        CHECK(zeroes.rank() == r);
        CHECK(zeroes.num_ranks() == 4);
        CHECK(zeroes.local_size() == mine.size());
        CHECK(zeroes.global_offset() == mine.begin);
        CHECK(zeroes.local_range().end == mine.end);
        for (std::size_t i = 0; i < n; i += 3) CHECK(zeroes.owner(i).value() == layout.owner(i).value());
        CHECK(zeroes.local_view().size() == mine.size());
        for (const int x : zeroes.local_view()) CHECK(x == 0);

        const dtl::distributed_vector<int> sevens(n, 7, rank_of{r, 4});
        CHECK(sevens.local_size() == mine.size());
        for (const int x : sevens.local_view()) CHECK(x == 7);
        auto made = dtl::distributed_vector<int>::create(n, 5, rank_of{r, 4});
        REQUIRE(made.has_value());
        CHECK(made->global_offset() == mine.begin);
        for (const int x : made->local_view()) CHECK(x == 5);
      }
    }
  }

  TEST_CASE("local calls work: views, element writes, local algorithms, copies to the host") {
    dtl::distributed_vector<int> v(10, rank_of{1, 4});  // rank 1 holds [3, 6)
    REQUIRE(v.local_size() == 3);
    REQUIRE(dtl::fill(v, 4).has_value());
    REQUIRE(dtl::for_each_indexed(v, [](std::size_t i, int& x) { x += static_cast<int>(i); }).has_value());
    CHECK(v.copy_to_host().value() == std::vector<int>{7, 8, 9});  // global indices 3, 4, 5
    v.local_view()[0] = -1;
    CHECK(v.local_data()[0] == -1);
    REQUIRE(dtl::transform(v, v, [](int x) { return 2 * x; }).has_value());
    CHECK(v.copy_to_host().value() == std::vector<int>{-2, 16, 18});
  }

  TEST_CASE("calls that reach another rank return not_supported, naming the rank; the throwing forms throw it") {
    dtl::distributed_vector<int> v(100, 1, rank_of{2, 4});
    CHECK(says_no_communicator(dtl::try_reduce(v, 0, std::plus<>{}).error(), "rank 2 of 4"));
    CHECK_THROWS_AS(static_cast<void>(dtl::reduce(v, 0, std::plus<>{})), dtl::status_error);
    CHECK(says_no_communicator(dtl::sort(v).error(), "rank 2 of 4"));
    CHECK(says_no_communicator(v.gather().error(), "rank 2 of 4"));
    CHECK(says_no_communicator(v.barrier().error(), "rank 2 of 4"));
    CHECK(says_no_communicator(v.get_context().allreduce_value(1, dtl::reduce_op::sum).error(), "rank 2 of 4"));
    const std::vector<std::size_t> sizes{40, 20, 20, 20};
    CHECK(says_no_communicator(v.redistribute(std::span<const std::size_t>(sizes)).error(), "rank 2 of 4"));
    CHECK(v.local_size() == 25);  // unchanged by the failed redistribute
    // global_view: another rank's element fails; asked again, it says so again (never a hang).
    auto all = v.global_view();
    for (int round = 0; round < 2; ++round) CHECK(says_no_communicator(all[0].get().error(), "rank 2 of 4"));
    int value = 0;
    CHECK(says_no_communicator(v.get_context().send(&value, 1, 0).error(), "rank 2 of 4"));
    // Each call gives it again, and the local block is still there.
    CHECK(says_no_communicator(dtl::try_reduce(v, 0, std::plus<>{}).error(), "rank 2 of 4"));
    CHECK(std::accumulate(v.local_view().begin(), v.local_view().end(), 0) == 25);
  }

  TEST_CASE("one rank: an ordinary vector, communication included") {
    dtl::distributed_vector<int> v(6, rank_of{0, 1});
    REQUIRE(dtl::for_each_indexed(v, [](std::size_t i, int& x) { x = 6 - static_cast<int>(i); }).has_value());
    CHECK(dtl::reduce(v, 0, std::plus<>{}) == 21);
    REQUIRE(dtl::sort(v).has_value());
    CHECK(v.gather().value() == std::vector<int>{1, 2, 3, 4, 5, 6});
    CHECK(v.barrier().has_value());
    CHECK(v.global_view()[5].get().value() == 6);
  }

  TEST_CASE("no context: one rank of one, every element local; vectors of one size combine") {
    dtl::distributed_vector<int> zeros(5);
    dtl::distributed_vector<int> fives(5, 5);
    CHECK(zeros.size() == 5);
    CHECK(zeros.local_size() == 5);
    CHECK(fives.get_context().size() == 1);
    CHECK(std::accumulate(fives.local_view().begin(), fives.local_view().end(), 0) == 25);
    CHECK(std::accumulate(zeros.local_view().begin(), zeros.local_view().end(), 0) == 0);
    REQUIRE(dtl::copy(fives, zeros).has_value());  // one context: they combine
    CHECK(dtl::reduce(zeros, 0, std::plus<>{}) == 25);
    dtl::distributed_vector<int> six(6, 0);
    CHECK(dtl::copy(fives, six).error() == dtl::status_code::invalid_argument);
    CHECK(dtl::distributed_vector<int>(0).size() == 0);
  }

  TEST_CASE("a rank outside [0, size) or a size below 1: invalid_argument") {
    for (const rank_of bad : {rank_of{4, 4}, rank_of{-1, 4}, rank_of{0, 0}}) {
      CHECK(dtl::distributed_vector<int>::create(10, bad).error() == dtl::status_code::invalid_argument);
      CHECK_THROWS_AS(dtl::distributed_vector<int>(10, bad), dtl::status_error);
    }
  }

  TEST_CASE("moved and destroyed like any vector") {
    dtl::distributed_vector<int> a(100, 3, rank_of{3, 4});
    dtl::distributed_vector<int> b(std::move(a));
    CHECK(b.local_size() == 25);
    CHECK(b.global_offset() == 75);
    CHECK(a.local_size() == 0);  // NOLINT(bugprone-use-after-move): a moved-from vector is empty
    dtl::distributed_vector<int> c(7, rank_of{0, 4});
    c = std::move(b);
    CHECK(c.rank() == 3);
    for (const int x : c.local_view()) CHECK(x == 3);
  }

  TEST_CASE("distributed_array: the same forms") {
    const dtl::distributed_array<int, 10> a(rank_of{3, 4});
    CHECK(a.local_size() == dtl::block_partition<>::create(10, 4).value().local_range(3).value().size());
    const dtl::distributed_array<int, 10> b(9, rank_of{0, 4});
    for (const int x : b.local_view()) CHECK(x == 9);
    CHECK(dtl::distributed_array<int, 10>::create(rank_of{5, 4}).error() == dtl::status_code::invalid_argument);
    // Upstream's create(num_ranks, my_rank): the same detached block.
    const auto c = dtl::distributed_array<int, 10>::create(4, 3);
    REQUIRE(c.has_value());
    CHECK(c->local_size() == a.local_size());
    CHECK(c->rank() == 3);
    CHECK(dtl::distributed_array<int, 10>::create(4, 4).error() == dtl::status_code::invalid_argument);
  }

  TEST_CASE("equal context-like objects give one context: their vectors combine in an algorithm") {
    dtl::distributed_vector<int> a(10, 2, rank_of{1, 4});
    dtl::distributed_vector<int> b(10, 5, rank_of{1, 4});
    CHECK(a.get_context().same_as(b.get_context()));
    CHECK_FALSE(a.get_context().same_as(dtl::distributed_vector<int>(10, rank_of{2, 4}).get_context()));
    REQUIRE(dtl::transform(a, b, a, [](int x, int y) { return x * y; }).has_value());
    CHECK(a.copy_to_host().value() == std::vector<int>{10, 10, 10});
    const rank_of one{0, 1};
    dtl::distributed_vector<int> c(3, 2, one);
    const dtl::distributed_vector<int> d(3, 4, one);
    CHECK(dtl::inner_product(c, d, 1) == 25);
  }

  TEST_CASE("an object that carries a context gives that context") {
    const carrier c{dtl::make_cpu_context()};
    const dtl::distributed_vector<int> v(5, c);
    CHECK(v.get_context().same_as(c.ctx));
  }

  TEST_CASE("an object that names a device: a context on it where this process has it, else on none") {
    CHECK(dtl::detail::device_named_by(rank_of{}) == dtl::no_device);
    CHECK(dtl::detail::device_named_by(test_support::names_device{3}) == 3);
    // Device 1 << 20 exists nowhere: the context has none, and host vectors still work.
    const dtl::distributed_vector<int> v(5, 1, test_support::names_device{1 << 20});
    CHECK_FALSE(v.get_context().has_device());
    CHECK(v.local_size() == 5);
  }
}
