// SPDX-License-Identifier: MIT
// Upstream DTL's free functions of dtl/communication/ (dtl::send, dtl::recv, dtl::broadcast,
// dtl::reduce(comm, ...), ...) in its spellings alone, run on 1, 2 and 3 ranks: each against a serial
// reference of what every rank contributes (values distinct per rank and element, and uneven counts
// for the v-forms), wildcards refused on every rank, dtl::reduce's vector forms beside its
// communicator forms, and the size rule: a span shorter than the call needs is refused on every rank
// before anything moves (a guard region after each span shows that nothing is written past it).
#include "test_environment.hpp"
#include "upstream_checks.hpp"

#include <dtl/communication/communication.hpp>
#include <dtl/communication/default_communicator.hpp>
#include <dtl/communication/message_status.hpp>
#include <dtl/communication/send_mode.hpp>
#include <dtl/dtl.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace {

using test_support::guarded;
using test_support::refused_on_every_rank;
using test_support::same_on_every_rank;
using test_support::thrown_by;

constexpr int untouched = guarded<int>::sentinel;

/// What rank `from` contributes for element i.
int contribution(int from, std::size_t i) { return from * 100 + static_cast<int>(i) * 7 + 1; }

/// Rank `from`'s values (n of them).
std::vector<int> values_of(int from, std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = contribution(from, i);
  return v;
}

/// How many elements rank r sends in the uneven forms: 1, 2, 3, ...
std::size_t uneven_count(int r) { return static_cast<std::size_t>(r) + 1; }

/// "has N elements", as the size rule's messages name a span's size.
std::string has(std::size_t n) { return "has " + std::to_string(n) + " elements"; }
/// "needs N", the size the call needs.
std::string needs(std::size_t n) { return "needs " + std::to_string(n); }

}  // namespace

TEST_SUITE("mpi.upstream_free_functions") {
  TEST_CASE("message_status, send_mode, wildcards") {
    const dtl::message_status s;
    CHECK(s.source == dtl::no_rank);
    CHECK(s.tag == 0);
    CHECK(s.count == 0);
    CHECK_FALSE(s.cancelled);
    CHECK(dtl::to_string(dtl::send_mode::synchronous) == "synchronous");
    CHECK(dtl::to_string(dtl::send_mode::buffered) == "buffered");
    static_assert(dtl::any_source == -1 && dtl::any_tag == -1);
  }

  TEST_CASE("send / recv around a ring (odd ranks receive first), spans and values") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    if (n == 1) return;  // a blocking send to oneself waits for a receive that never comes first
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    const std::vector<int> out = values_of(me, 5);
    std::vector<int> in(5, -1);
    double value_in = 0;
    const double value_out = 0.5 + me;
    auto receive = [&] {
      auto got = dtl::recv(comm, std::span<int>(in), left, 7);
      REQUIRE(got.has_value());
      CHECK(got->source == left);
      CHECK(got->tag == 7);
      CHECK(got->count == 5);
      CHECK(dtl::recv(comm, value_in, left, 8).has_value());
    };
    auto transmit = [&] {
      CHECK(dtl::send(comm, std::span<const int>(out), right, 7).has_value());
      CHECK(dtl::send(comm, value_out, right, 8).has_value());
    };
    if (me % 2 == 0) {
      transmit();
      receive();
    } else {
      receive();
      transmit();
    }
    CHECK(in == values_of(left, 5));
    CHECK(value_in == 0.5 + left);
    // ssend and rsend: the same messages.
    std::vector<int> again(5, -1);
    dtl::request_handle r = dtl::irecv(comm, std::span<int>(again), left, 9);
    CHECK(dtl::barrier(comm).has_value());  // every receive is posted before the ready send
    if (me % 2 == 0) {
      CHECK(dtl::rsend(comm, std::span<const int>(out), right, 9).has_value());
    } else {
      CHECK(dtl::ssend(comm, std::span<const int>(out), right, 9).has_value());
    }
    CHECK(dtl::wait(comm, r).has_value());
    CHECK(again == values_of(left, 5));
  }

  TEST_CASE("sendrecv and sendrecv_replace around a ring (oneself on one rank)") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    const std::vector<int> out = values_of(me, 4);
    std::vector<int> in(4, -1);
    auto got = dtl::sendrecv(comm, std::span<const int>(out), right, 3, std::span<int>(in), left, 3);
    REQUIRE(got.has_value());
    CHECK(got->source == left);
    CHECK(got->tag == 3);
    CHECK(got->count == 4);
    CHECK(in == values_of(left, 4));

    std::vector<int> data = values_of(me, 3);
    auto replaced = dtl::sendrecv_replace(comm, std::span<int>(data), left, 4, right, 4);
    REQUIRE(replaced.has_value());
    CHECK(replaced->source == right);
    CHECK(data == values_of(right, 3));
  }

  TEST_CASE("isend / irecv with wait, test, wait_all and wait_any") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    const std::vector<int> out = values_of(me, 6);
    std::vector<int> in(6, -1);
    dtl::request_handle r = dtl::irecv(comm, std::span<int>(in), left, 11);
    dtl::request_handle s = dtl::isend(comm, std::span<const int>(out), right, 11);
    CHECK(r.valid());
    CHECK(s.valid());
    CHECK(dtl::wait(comm, s).has_value());
    while (!dtl::test(comm, r)) {
    }
    CHECK_FALSE(r.valid());
    CHECK(in == values_of(left, 6));

    std::vector<int> a(2, -1), b(3, -1);
    const std::vector<int> oa = values_of(me, 2), ob = values_of(me + 10, 3);
    std::array<dtl::request_handle, 4> all = {
        dtl::irecv(comm, std::span<int>(a), left, 12), dtl::irecv(comm, std::span<int>(b), left, 13),
        dtl::isend(comm, std::span<const int>(oa), right, 12), dtl::isend(comm, std::span<const int>(ob), right, 13)};
    auto first = dtl::wait_any(comm, std::span<dtl::request_handle>(all));
    REQUIRE(first.has_value());
    CHECK(*first < all.size());
    CHECK_FALSE(all[*first].valid());
    CHECK(dtl::wait_all(comm, std::span<dtl::request_handle>(all)).has_value());  // skips the completed one
    CHECK(std::none_of(all.begin(), all.end(), [](const dtl::request_handle& h) { return h.valid(); }));
    CHECK(a == values_of(left, 2));
    CHECK(b == values_of(left + 10, 3));
  }

  TEST_CASE("broadcast from the last rank: a span and a value") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int last = comm.size() - 1;
    std::vector<int> data = comm.rank() == last ? values_of(last, 7) : std::vector<int>(7, -1);
    CHECK(dtl::broadcast(comm, std::span<int>(data), last).has_value());
    CHECK(data == values_of(last, 7));
    double value = comm.rank() == last ? 2.25 : 0.0;
    CHECK(dtl::broadcast(comm, value, last).has_value());
    CHECK(value == 2.25);
  }

  TEST_CASE("reduce to a root: sum, max, product, the value form; float and unsigned promoted") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n / 2;
    const std::vector<int> mine = values_of(me, 4);
    std::vector<int> sum_ref(4, 0), max_ref(4, 0);
    for (int r = 0; r < n; ++r)
      for (std::size_t i = 0; i < 4; ++i) {
        sum_ref[i] += contribution(r, i);
        max_ref[i] = std::max(max_ref[i], contribution(r, i));
      }
    std::vector<int> out(4, -1);
    CHECK(dtl::reduce(comm, std::span<const int>(mine), std::span<int>(out), std::plus<int>{}, root).has_value());
    CHECK(out == (me == root ? sum_ref : std::vector<int>(4, -1)));  // written on the root only
    std::fill(out.begin(), out.end(), -1);
    CHECK(dtl::reduce(comm, std::span<const int>(mine), std::span<int>(out), dtl::reduce_max<int>{}, root).has_value());
    CHECK(out == (me == root ? max_ref : std::vector<int>(4, -1)));
    std::fill(out.begin(), out.end(), -1);
    CHECK(dtl::sum(comm, std::span<const int>(mine), std::span<int>(out), root).has_value());
    CHECK(out == (me == root ? sum_ref : std::vector<int>(4, -1)));

    const long factor = me + 2;
    long product_ref = 1;
    for (int r = 0; r < n; ++r) product_ref *= r + 2;
    dtl::result<long> product = dtl::reduce(comm, factor, std::multiplies<long>{}, root);
    REQUIRE(product.has_value());
    CHECK(*product == (me == root ? product_ref : 0L));

    const float f = 0.5f + static_cast<float>(me);
    const unsigned u = 3u + static_cast<unsigned>(me);
    float f_ref = 0;
    unsigned u_ref = 0;
    for (int r = 0; r < n; ++r) {
      f_ref += 0.5f + static_cast<float>(r);
      u_ref += 3u + static_cast<unsigned>(r);
    }
    dtl::result<float> fs = dtl::reduce(comm, f, std::plus<float>{});  // root 0 by default
    dtl::result<unsigned> us = dtl::reduce(comm, u, std::plus<unsigned>{}, root);
    REQUIRE(fs.has_value());
    REQUIRE(us.has_value());
    CHECK(*fs == (me == 0 ? f_ref : 0.0f));
    CHECK(*us == (me == root ? u_ref : 0u));
  }

  TEST_CASE("allreduce: spans, values, in place, allsum / allmax / allmin") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const std::vector<int> mine = values_of(me, 3);
    std::vector<int> sum_ref(3, 0), min_ref(3, 1 << 30), max_ref(3, 0);
    for (int r = 0; r < n; ++r)
      for (std::size_t i = 0; i < 3; ++i) {
        sum_ref[i] += contribution(r, i);
        min_ref[i] = std::min(min_ref[i], contribution(r, i));
        max_ref[i] = std::max(max_ref[i], contribution(r, i));
      }
    std::vector<int> out(3, -1);
    CHECK(dtl::allreduce(comm, std::span<const int>(mine), std::span<int>(out), std::plus<int>{}).has_value());
    CHECK(out == sum_ref);
    CHECK(dtl::allsum(comm, std::span<const int>(mine), std::span<int>(out)).has_value());
    CHECK(out == sum_ref);
    CHECK(dtl::allmax(comm, std::span<const int>(mine), std::span<int>(out)).has_value());
    CHECK(out == max_ref);
    CHECK(dtl::allmin(comm, std::span<const int>(mine), std::span<int>(out)).has_value());
    CHECK(out == min_ref);
    std::vector<int> inplace = mine;
    CHECK(dtl::allreduce_inplace(comm, std::span<int>(inplace), std::plus<int>{}).has_value());
    CHECK(inplace == sum_ref);
    // Upstream's own operator names: the same native sum, and a product.
    CHECK(dtl::allreduce(comm, std::span<const int>(mine), std::span<int>(out), dtl::reduce_sum<int>{}).has_value());
    CHECK(out == sum_ref);
    dtl::result<long> twos = dtl::allreduce(comm, 2L, dtl::reduce_product<long>{});
    REQUIRE(twos.has_value());
    CHECK(*twos == (1L << n));

    dtl::result<double> total = dtl::allreduce(comm, 0.25 * me, std::plus<double>{});
    REQUIRE(total.has_value());
    CHECK(*total == doctest::Approx(0.25 * n * (n - 1) / 2));
    dtl::result<short> top = dtl::allreduce(comm, static_cast<short>(me), dtl::reduce_max<short>{});
    REQUIRE(top.has_value());
    CHECK(*top == static_cast<short>(n - 1));
  }

  TEST_CASE("the logical and bitwise reductions: small (in the agreement) and large (MPI's own), scans too") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const auto bits_of = [](int r, std::size_t i) { return (1u << r) | (i % 2 == 0 ? 0x100u : 0u); };
    const auto flag_of = [](int r, std::size_t i) { return r == 0 && i % 3 == 0 ? 0u : 2u; };
    for (const std::size_t count : {std::size_t{3}, std::size_t{5000}}) {
      std::vector<unsigned> bits(count), flags(count), all_or(count, 0), all_and(count, ~0u), all_xor(count, 0),
          mine_or(count, 0), before_and(count, ~0u), all_land(count, 1), all_lor(count, 0);
      for (std::size_t i = 0; i < count; ++i) {
        bits[i] = bits_of(me, i);
        flags[i] = flag_of(me, i);
        for (int r = 0; r < n; ++r) {
          all_or[i] |= bits_of(r, i);
          all_and[i] &= bits_of(r, i);
          all_xor[i] ^= bits_of(r, i);
          all_land[i] = all_land[i] && flag_of(r, i) != 0 ? 1u : 0u;
          all_lor[i] = all_lor[i] || flag_of(r, i) != 0 ? 1u : 0u;
          if (r <= me) mine_or[i] |= bits_of(r, i);
          if (r < me) before_and[i] &= bits_of(r, i);
        }
      }
      const std::span<const unsigned> in(bits), in_flags(flags);
      std::vector<unsigned> out(count);
      REQUIRE(dtl::allreduce(comm, in, std::span<unsigned>(out), std::bit_or<unsigned>{}).has_value());
      CHECK(out == all_or);
      REQUIRE(dtl::allreduce(comm, in, std::span<unsigned>(out), dtl::reduce_band<unsigned>{}).has_value());
      CHECK(out == all_and);
      REQUIRE(dtl::allreduce(comm, in, std::span<unsigned>(out), dtl::reduce_bxor<unsigned>{}).has_value());
      CHECK(out == all_xor);
      // 1 or 0; on one rank its values as they are, as MPI's.
      REQUIRE(dtl::allreduce(comm, in_flags, std::span<unsigned>(out), dtl::reduce_land<unsigned>{}).has_value());
      CHECK(out == (n == 1 ? flags : all_land));
      REQUIRE(dtl::allreduce(comm, in_flags, std::span<unsigned>(out), std::logical_or<unsigned>{}).has_value());
      CHECK(out == (n == 1 ? flags : all_lor));
      REQUIRE(dtl::scan(comm, in, std::span<unsigned>(out), std::bit_or<unsigned>{}).has_value());
      CHECK(out == mine_or);
      REQUIRE(dtl::exscan(comm, in, std::span<unsigned>(out), dtl::reduce_band<unsigned>{}).has_value());
      CHECK(out == before_and);  // rank 0: band's identity, all ones
    }
    // Floating-point elements: refused on every rank (the typed free functions refuse them at compile time).
    const std::vector<double> reals(2, 1.0);
    std::vector<double> sink(2);
    const dtl::result<void> refused = ctx.allreduce(reals.data(), sink.data(), 2, dtl::reduce_op::bor);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().code() == dtl::status_code::invalid_argument);
    CHECK(dtl::reduce_op_name(dtl::reduce_op::bxor) == "bxor");
  }

  TEST_CASE("scan and exscan: sum, max, a promoted type") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int me = comm.rank();
    const std::vector<int> mine = values_of(me, 3);
    std::vector<int> inclusive(3, 0), exclusive(3, 0), running_max(3, 0);
    for (int r = 0; r <= me; ++r)
      for (std::size_t i = 0; i < 3; ++i) {
        inclusive[i] += contribution(r, i);
        if (r < me) exclusive[i] += contribution(r, i);
        running_max[i] = std::max(running_max[i], contribution(r, i));
      }
    std::vector<int> out(3, -1);
    CHECK(dtl::scan(comm, std::span<const int>(mine), std::span<int>(out), std::plus<int>{}).has_value());
    CHECK(out == inclusive);
    CHECK(dtl::exscan(comm, std::span<const int>(mine), std::span<int>(out), std::plus<int>{}).has_value());
    CHECK(out == exclusive);  // rank 0: 0, the sum's identity
    CHECK(dtl::scan(comm, std::span<const int>(mine), std::span<int>(out), dtl::reduce_max<int>{}).has_value());
    CHECK(out == running_max);
    const short s = static_cast<short>(me + 1);
    short before = 0;
    CHECK(dtl::exscan(comm, std::span<const short>(&s, 1), std::span<short>(&before, 1), dtl::reduce_max<short>{})
              .has_value());
    CHECK(before == (me == 0 ? std::numeric_limits<short>::lowest() : static_cast<short>(me)));
  }

  TEST_CASE("gather, scatter, allgather, alltoall (counts in elements)") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n - 1;
    const auto un = static_cast<std::size_t>(n);
    const std::vector<int> mine = values_of(me, 3);
    std::vector<int> everyone;  // every rank's three values, in rank order
    for (int r = 0; r < n; ++r) {
      const auto v = values_of(r, 3);
      everyone.insert(everyone.end(), v.begin(), v.end());
    }
    std::vector<int> gathered(me == root ? 3 * un : 0, -1);
    CHECK(dtl::gather(comm, std::span<const int>(mine), std::span<int>(gathered), root).has_value());
    if (me == root) CHECK(gathered == everyone);

    std::vector<int> all(3 * un, -1);
    CHECK(dtl::allgather(comm, std::span<const int>(mine), std::span<int>(all)).has_value());
    CHECK(all == everyone);

    const std::vector<int> to_scatter = me == root ? everyone : std::vector<int>{};
    std::vector<int> part(3, -1);
    CHECK(dtl::scatter(comm, std::span<const int>(to_scatter), std::span<int>(part), root).has_value());
    CHECK(part == mine);

    // alltoall: 2 elements to each rank; rank r's block for rank d is {contribution(r, 2d), (r, 2d + 1)}.
    const std::vector<int> send = values_of(me, 2 * un);
    std::vector<int> recv(2 * un, -1), expected;
    for (int r = 0; r < n; ++r) {
      expected.push_back(contribution(r, 2 * static_cast<std::size_t>(me)));
      expected.push_back(contribution(r, 2 * static_cast<std::size_t>(me) + 1));
    }
    CHECK(dtl::alltoall(comm, std::span<const int>(send), std::span<int>(recv)).has_value());
    CHECK(recv == expected);
  }

  TEST_CASE("gatherv, scatterv, allgatherv, alltoallv with uneven counts") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n - 1;
    std::vector<dtl::size_type> counts, displs;
    std::vector<int> everyone;
    for (int r = 0; r < n; ++r) {
      displs.push_back(everyone.size());
      counts.push_back(uneven_count(r));
      const auto v = values_of(r, uneven_count(r));
      everyone.insert(everyone.end(), v.begin(), v.end());
    }
    const std::vector<int> mine = values_of(me, uneven_count(me));
    const std::vector<dtl::size_type> none;

    std::vector<int> gathered(me == root ? everyone.size() : 0, -1);
    const auto& root_counts = me == root ? counts : none;
    const auto& root_displs = me == root ? displs : none;
    CHECK(dtl::gatherv(comm, std::span<const int>(mine), std::span<int>(gathered),
                       std::span<const dtl::size_type>(root_counts), std::span<const dtl::size_type>(root_displs), root)
              .has_value());
    if (me == root) CHECK(gathered == everyone);

    std::vector<int> all(everyone.size(), -1);
    CHECK(dtl::allgatherv(comm, std::span<const int>(mine), std::span<int>(all),
                          std::span<const dtl::size_type>(counts), std::span<const dtl::size_type>(displs))
              .has_value());
    CHECK(all == everyone);

    const std::vector<int> to_scatter = me == root ? everyone : std::vector<int>{};
    std::vector<int> part(uneven_count(me), -1);
    CHECK(dtl::scatterv(comm, std::span<const int>(to_scatter), std::span<const dtl::size_type>(root_counts),
                        std::span<const dtl::size_type>(root_displs), std::span<int>(part), root)
              .has_value());
    CHECK(part == mine);

    // alltoallv: rank r sends (d + 1) elements to rank d: {contribution(r, 10 d + k)}.
    std::vector<dtl::size_type> sc, sd, rc, rd;
    std::vector<int> send, expected;
    for (int d = 0; d < n; ++d) {
      sd.push_back(send.size());
      sc.push_back(uneven_count(d));
      for (std::size_t k = 0; k < uneven_count(d); ++k)
        send.push_back(contribution(me, 10 * static_cast<std::size_t>(d) + k));
    }
    for (int r = 0; r < n; ++r) {
      rd.push_back(expected.size());
      rc.push_back(uneven_count(me));
      for (std::size_t k = 0; k < uneven_count(me); ++k)
        expected.push_back(contribution(r, 10 * static_cast<std::size_t>(me) + k));
    }
    std::vector<int> recv(expected.size(), -1);
    CHECK(dtl::alltoallv(comm, std::span<const int>(send), std::span<const dtl::size_type>(sc),
                         std::span<const dtl::size_type>(sd), std::span<int>(recv), std::span<const dtl::size_type>(rc),
                         std::span<const dtl::size_type>(rd))
              .has_value());
    CHECK(recv == expected);
  }

  TEST_CASE("size rule: alltoall refuses a short receive span and a send span that is not a multiple of the ranks") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const auto un = static_cast<std::size_t>(n);
    const std::vector<int> send = values_of(me, 3 * un);
    auto alltoall_into = [&](std::span<int> recv) {
      return thrown_by([&] { static_cast<void>(dtl::alltoall(comm, std::span<const int>(send), recv)); });
    };
    // Every rank receives 3n elements into 2 (on 3 ranks: 7 past the span).
    guarded<int> two(2);
    refused_on_every_rank(comm, alltoall_into(two.span()), n, {has(2), needs(3 * un)});
    CHECK(two.all(untouched));
    CHECK(two.guard_intact());
    // Rank 0's span is one short: every rank refuses, and no rank receives anything.
    guarded<int> recv(me == 0 ? 3 * un - 1 : 3 * un);
    refused_on_every_rank(comm, alltoall_into(recv.span()), 1, {has(3 * un - 1), needs(3 * un)});
    CHECK(recv.all(untouched));
    CHECK(recv.guard_intact());
    // 3n + 1 elements do not split among n ranks (upstream would drop the last): refused.
    if (n > 1) {
      const std::vector<int> odd = values_of(me, 3 * un + 1);
      guarded<int> all(3 * un + 1);
      refused_on_every_rank(
          comm, thrown_by([&] { static_cast<void>(dtl::alltoall(comm, std::span<const int>(odd), all.span())); }), n,
          {has(3 * un + 1), "multiple of the " + std::to_string(n) + " ranks"});
      CHECK(all.all(untouched));
    }
    CHECK(dtl::barrier(comm).has_value());  // the communicator still works
  }

  TEST_CASE("size rule: gather and allgather refuse a short receive span (gather: the root's only)") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n - 1;
    const auto un = static_cast<std::size_t>(n);
    const std::vector<int> mine = values_of(me, 3);
    // The root's receive span holds one element fewer than the n blocks of 3 (the others' are unused).
    guarded<int> at_root(me == root ? 3 * un - 1 : 0);
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::gather(comm, std::span<const int>(mine), at_root.span(), root));
                          }),
                          1, {has(3 * un - 1), needs(3 * un)});
    CHECK(at_root.all(untouched));
    CHECK(at_root.guard_intact());

    auto allgather_into = [&](std::span<int> recv) {
      return thrown_by([&] { static_cast<void>(dtl::allgather(comm, std::span<const int>(mine), recv)); });
    };
    guarded<int> short_everywhere(3 * un - 1);
    refused_on_every_rank(comm, allgather_into(short_everywhere.span()), n, {has(3 * un - 1), needs(3 * un)});
    CHECK(short_everywhere.all(untouched));
    CHECK(short_everywhere.guard_intact());
    guarded<int> short_on_last(me == n - 1 ? 3 * un - 2 : 3 * un);
    refused_on_every_rank(comm, allgather_into(short_on_last.span()), 1, {has(3 * un - 2), needs(3 * un)});
    CHECK(short_on_last.all(untouched));
    CHECK(short_on_last.guard_intact());
  }

  TEST_CASE("size rule: scatter refuses a root's send span shorter than the ranks' blocks; broadcast's sizes agree") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n - 1;
    const auto un = static_cast<std::size_t>(n);
    // The root has 3n - 1 elements for n blocks of 3: the last block would be read past the span.
    guarded<int> to_scatter(me == root ? 3 * un - 1 : 0, 5);
    guarded<int> part(3);
    refused_on_every_rank(
        comm, thrown_by([&] { static_cast<void>(dtl::scatter(comm, to_scatter.const_span(), part.span(), root)); }), 1,
        {has(3 * un - 1), needs(3 * un)});
    CHECK(part.all(untouched));
    CHECK(part.guard_intact());

    // broadcast has one span: its size is the count, which every rank must pass alike.
    if (n > 1) {
      std::vector<int> data(me == 0 ? 5 : 4, -1);
      same_on_every_rank(comm, thrown_by([&] { static_cast<void>(dtl::broadcast(comm, std::span<int>(data), 0)); }),
                         dtl::status_code::invalid_argument);
      CHECK(std::count(data.begin(), data.end(), -1) == static_cast<std::ptrdiff_t>(data.size()));
    }
  }

  TEST_CASE("size rule: allreduce, allsum, allmax, allmin refuse a receive span shorter than the send span") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const std::vector<int> mine = values_of(me, 5);
    const std::span<const int> send(mine);
    using call = std::function<void(std::span<int>)>;
    const std::vector<call> calls = {
        [&](std::span<int> out) { static_cast<void>(dtl::allreduce(comm, send, out, std::plus<int>{})); },
        [&](std::span<int> out) { static_cast<void>(dtl::allsum(comm, send, out)); },
        [&](std::span<int> out) { static_cast<void>(dtl::allmax(comm, send, out)); },
        [&](std::span<int> out) { static_cast<void>(dtl::allmin(comm, send, out)); },
        [&](std::span<int> out) { static_cast<void>(dtl::allreduce(comm, send, out, dtl::reduce_product<int>{})); }};
    for (const call& c : calls) {
      guarded<int> out(2);
      refused_on_every_rank(comm, thrown_by([&] { c(out.span()); }), n, {has(2), needs(5)});
      CHECK(out.all(untouched));
      CHECK(out.guard_intact());
    }
    // One rank short; and a promoted type (unsigned reduces through long, then is copied back).
    guarded<int> one_short(me == 0 ? 4 : 5);
    refused_on_every_rank(comm, thrown_by([&] { calls[0](one_short.span()); }), 1, {has(4), needs(5)});
    CHECK(one_short.all(untouched));
    const std::vector<unsigned> wide(5, 1u + static_cast<unsigned>(me));
    guarded<unsigned> narrow(3);
    refused_on_every_rank(
        comm, thrown_by([&] {
          static_cast<void>(dtl::allreduce(comm, std::span<const unsigned>(wide), narrow.span(), std::plus<>{}));
        }),
        n, {has(3), needs(5)});
    CHECK(narrow.all(guarded<unsigned>::sentinel));
    CHECK(narrow.guard_intact());
  }

  TEST_CASE("size rule: reduce and sum refuse a root's receive span shorter than the send span") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n / 2;
    const std::vector<int> mine = values_of(me, 4);
    guarded<int> out(me == root ? 3 : 0);  // only the root's is written: the others may pass none
    refused_on_every_rank(
        comm, thrown_by([&] {
          static_cast<void>(dtl::reduce(comm, std::span<const int>(mine), out.span(), std::plus<int>{}, root));
        }),
        1, {has(3), needs(4)});
    CHECK(out.all(untouched));
    CHECK(out.guard_intact());
    refused_on_every_rank(
        comm, thrown_by([&] { static_cast<void>(dtl::sum(comm, std::span<const int>(mine), out.span(), root)); }), 1,
        {has(3), needs(4)});
    CHECK(out.guard_intact());
    const std::vector<short> few(4, static_cast<short>(me));  // promoted through long
    guarded<short> small(me == root ? 1 : 0);
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::reduce(comm, std::span<const short>(few), small.span(),
                                                          dtl::reduce_max<short>{}, root));
                          }),
                          1, {has(1), needs(4)});
    CHECK(small.guard_intact());
    // A root whose span fits, and no receive span elsewhere: the sum, on the root.
    int first_sum = 0;
    for (int r = 0; r < n; ++r) first_sum += contribution(r, 0);
    guarded<int> fits(me == root ? 4 : 0);
    CHECK(dtl::sum(comm, std::span<const int>(mine), fits.span(), root).has_value());
    if (me == root) CHECK(fits.values()[0] == first_sum);
    CHECK(fits.guard_intact());
  }

  TEST_CASE("size rule: scan and exscan refuse a receive span shorter than the send span") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank();
    const std::vector<int> mine = values_of(me, 6);
    auto scan_into = [&](std::span<int> out, bool exclusive) {
      return thrown_by([&] {
        static_cast<void>(exclusive ? dtl::exscan(comm, std::span<const int>(mine), out, std::plus<int>{})
                                    : dtl::scan(comm, std::span<const int>(mine), out, std::plus<int>{}));
      });
    };
    for (const bool exclusive : {false, true}) {
      guarded<int> out(2);
      refused_on_every_rank(comm, scan_into(out.span(), exclusive), n, {has(2), needs(6)});
      CHECK(out.all(untouched));
      CHECK(out.guard_intact());
      guarded<int> one_short(me == n - 1 ? 5 : 6);
      refused_on_every_rank(comm, scan_into(one_short.span(), exclusive), 1, {has(5), needs(6)});
      CHECK(one_short.all(untouched));
      CHECK(one_short.guard_intact());
    }
  }

  TEST_CASE("size rule: the v-forms refuse data spans shorter than their counts and displacements reach") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size(), me = comm.rank(), root = n - 1;
    std::vector<dtl::size_type> counts, displs;
    std::size_t total = 0;
    for (int r = 0; r < n; ++r) {
      displs.push_back(total);
      counts.push_back(uneven_count(r));
      total += uneven_count(r);
    }
    const std::vector<int> mine = values_of(me, uneven_count(me));
    const std::vector<dtl::size_type> none;
    const auto& root_counts = me == root ? counts : none;
    const auto& root_displs = me == root ? displs : none;
    using sizes = std::span<const dtl::size_type>;

    guarded<int> gathered(me == root ? total - 1 : 0);
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::gatherv(comm, std::span<const int>(mine), gathered.span(),
                                                           sizes(root_counts), sizes(root_displs), root));
                          }),
                          1, {has(total - 1), needs(total)});
    CHECK(gathered.all(untouched));
    CHECK(gathered.guard_intact());

    guarded<int> all(total - 1);
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::allgatherv(comm, std::span<const int>(mine), all.span(),
                                                              sizes(counts), sizes(displs)));
                          }),
                          n, {has(total - 1), needs(total)});
    CHECK(all.all(untouched));
    CHECK(all.guard_intact());

    guarded<int> to_scatter(me == root ? total - 1 : 0, 5);
    guarded<int> part(uneven_count(me));
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::scatterv(comm, to_scatter.const_span(), sizes(root_counts),
                                                            sizes(root_displs), part.span(), root));
                          }),
                          1, {has(total - 1), needs(total)});
    CHECK(part.all(untouched));

    // alltoallv: one element to and from each rank; rank 0's receive span is one short, then its send span.
    const std::vector<dtl::size_type> ones(static_cast<std::size_t>(n), 1);
    std::vector<dtl::size_type> at(static_cast<std::size_t>(n));
    std::iota(at.begin(), at.end(), dtl::size_type{0});
    const auto un = static_cast<std::size_t>(n);
    const std::vector<int> send = values_of(me, un);
    guarded<int> recv(me == 0 ? un - 1 : un);
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::alltoallv(comm, std::span<const int>(send), sizes(ones), sizes(at),
                                                             recv.span(), sizes(ones), sizes(at)));
                          }),
                          1, {has(un - 1), needs(un)});
    CHECK(recv.all(untouched));
    CHECK(recv.guard_intact());
    guarded<int> short_send(me == 0 ? un - 1 : un, 5);
    guarded<int> in(un);
    refused_on_every_rank(comm, thrown_by([&] {
                            static_cast<void>(dtl::alltoallv(comm, short_send.const_span(), sizes(ones), sizes(at),
                                                             in.span(), sizes(ones), sizes(at)));
                          }),
                          1, {has(un - 1), needs(un)});
    CHECK(in.all(untouched));
  }

  TEST_CASE("barrier, and a collective's failure throws on every rank") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    CHECK(dtl::barrier(comm).has_value());
    int value = 1;
    const dtl::status s =
        thrown_by([&] { static_cast<void>(dtl::broadcast(comm, value, comm.size())); });  // no such root
    same_on_every_rank(comm, s, dtl::status_code::invalid_rank);
    CHECK(dtl::barrier(comm).has_value());  // the communicator still works
  }

  TEST_CASE("wildcards are refused on every rank, at once") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    std::vector<int> buffer(2, -1);
    int value = 0;
    const std::vector<int> out(2, 1);
    same_on_every_rank(comm, thrown_by([&] { static_cast<void>(dtl::recv(comm, std::span<int>(buffer))); }),
                       dtl::status_code::not_supported);
    same_on_every_rank(comm, thrown_by([&] { static_cast<void>(dtl::recv(comm, value, 0)); }),
                       dtl::status_code::not_supported);
    same_on_every_rank(comm, thrown_by([&] { static_cast<void>(dtl::recv(comm, value, dtl::any_source, 5)); }),
                       dtl::status_code::not_supported);
    same_on_every_rank(comm,
                       thrown_by([&] { static_cast<void>(dtl::irecv(comm, std::span<int>(buffer), 0, dtl::any_tag)); }),
                       dtl::status_code::not_supported);
    same_on_every_rank(comm, thrown_by([&] {
                         static_cast<void>(dtl::sendrecv(comm, std::span<const int>(out), 0, 1, std::span<int>(buffer),
                                                         dtl::any_source, 1));
                       }),
                       dtl::status_code::not_supported);
    same_on_every_rank(comm, thrown_by([&] {
                         static_cast<void>(dtl::sendrecv_replace(comm, std::span<int>(buffer), 0, 1, 0, dtl::any_tag));
                       }),
                       dtl::status_code::not_supported);
    CHECK(buffer == std::vector<int>(2, -1));  // nothing was received
    CHECK(dtl::barrier(comm).has_value());
  }

  TEST_CASE("world_comm(): every rank of the environment") {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // deprecated upstream too
    dtl::default_communicator world = dtl::world_comm();
#pragma GCC diagnostic pop
    auto ctx = test_support::world();
    CHECK(world.rank() == ctx.rank());
    CHECK(world.size() == ctx.size());
    dtl::result<int> ranks = dtl::allreduce(world, 1, std::plus<int>{});
    REQUIRE(ranks.has_value());
    CHECK(*ranks == world.size());
  }

  TEST_CASE("a default-constructed communicator is the world's, as upstream's") {
    dtl::default_communicator world{};
    auto ctx = test_support::world();
    CHECK(world.rank() == ctx.rank());
    CHECK(world.size() == ctx.size());
    dtl::result<int> ranks = dtl::allreduce(world, 2, std::plus<int>{});
    REQUIRE(ranks.has_value());
    CHECK(*ranks == 2 * world.size());
  }

  TEST_CASE("dtl::reduce: the vector forms beside the communicator forms") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int n = comm.size();
    dtl::distributed_vector<int> vec(static_cast<dtl::size_type>(4 * n), ctx);
    static_cast<void>(dtl::fill(vec, 2));  // the reductions below check it
    CHECK(dtl::reduce(vec, 0) == 8 * n);
    CHECK(dtl::reduce(dtl::seq{}, vec, 0, std::plus<>{}, comm) == 8 * n);
    dtl::result<int> r = dtl::reduce(comm, 2, std::plus<int>{}, 0);
    REQUIRE(r.has_value());
    CHECK(*r == (comm.rank() == 0 ? 2 * n : 0));
  }
}
