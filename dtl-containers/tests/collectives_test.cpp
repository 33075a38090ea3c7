// SPDX-License-Identifier: MIT
// The gather, scatter, all-to-all and scan collectives of a context on host buffers (run with 1, 2 and 3
// ranks, and with DTL_MPI_MESSAGE_LIMIT small so that every message goes in pieces): results against a
// serial reference of what every rank sends, uneven and zero counts, gaps between blocks left alone, and
// bad arguments giving one status on every rank.
#include "collectives_reference.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace collectives_reference;

dtl::context world() { return test_support::world(); }

bool mentions(const dtl::status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

using test_support::failed_everywhere;

}  // namespace

TEST_SUITE("mpi.collectives") {
  TEST_CASE("alltoallv: uneven and zero counts, gaps left alone, against a serial reference") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    counts send_counts(static_cast<std::size_t>(p)), recv_counts(static_cast<std::size_t>(p));
    for (int q = 0; q < p; ++q) {
      send_counts[static_cast<std::size_t>(q)] = count_between(me, q);
      recv_counts[static_cast<std::size_t>(q)] = count_between(q, me);
    }
    counts send_displs, recv_displs;
    const std::vector<std::int64_t> send = blocks_to_send(me, send_counts, send_displs);
    std::vector<std::int64_t> recv(lay_out(recv_counts, ranks_in_order(p, false), 2, recv_displs), untouched);

    REQUIRE(ctx.alltoallv(send.data(), send_counts, send_displs, recv.data(), recv_counts, recv_displs).has_value());

    CHECK(recv == blocks_received(me, recv_counts, recv_displs, recv.size()));
  }

  TEST_CASE("alltoallv: a rank that sends and receives nothing") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    // Rank 0 is silent; every other pair exchanges q + 1 elements.
    counts send_counts(n), recv_counts(n), send_displs(n), recv_displs(n);
    for (int q = 0; q < p; ++q) {
      const auto i = static_cast<std::size_t>(q);
      send_counts[i] = me == 0 || q == 0 ? 0 : static_cast<std::size_t>(q + 1);
      recv_counts[i] = me == 0 || q == 0 ? 0 : static_cast<std::size_t>(me + 1);
    }
    const std::size_t send_total = lay_out(send_counts, ranks_in_order(p, false), 0, send_displs);
    const std::size_t recv_total = lay_out(recv_counts, ranks_in_order(p, false), 0, recv_displs);
    std::vector<int> send(std::max<std::size_t>(send_total, 1)), recv(std::max<std::size_t>(recv_total, 1), -7);
    for (int q = 0; q < p; ++q)
      for (std::size_t i = 0; i < send_counts[static_cast<std::size_t>(q)]; ++i)
        send[send_displs[static_cast<std::size_t>(q)] + i] = me * 100 + q;
    REQUIRE(ctx.alltoallv(send.data(), send_counts, send_displs, recv.data(), recv_counts, recv_displs).has_value());
    for (int q = 0; q < p; ++q)
      for (std::size_t i = 0; i < recv_counts[static_cast<std::size_t>(q)]; ++i)
        CHECK(recv[recv_displs[static_cast<std::size_t>(q)] + i] == q * 100 + me);
    if (me == 0) CHECK(recv[0] == -7);
  }

  TEST_CASE("a rank that moves nothing passes no buffers, then takes part in the next collectives") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    const bool silent = me == 0;
    // Rank 0 passes nullptr and zero counts; every other rank exchanges `each` elements with itself.
    const std::size_t each = 1000;
    counts sizes(n), displs(n);
    for (std::size_t q = 0; q < n; ++q) {
      sizes[q] = silent || q != static_cast<std::size_t>(me) ? 0 : each;
      displs[q] = q * each;
    }
    std::vector<std::int64_t> send(n * each, me), recv(n * each, -7);
    REQUIRE(ctx.alltoallv(silent ? nullptr : send.data(), sizes, displs, silent ? nullptr : recv.data(), sizes, displs)
                .has_value());
    if (!silent) CHECK(recv[static_cast<std::size_t>(me) * each] == me);
    // gatherv to the last rank, rank 0 giving nothing; then a plain collective.
    const int root = p - 1;
    counts root_sizes(n, each);
    root_sizes[0] = 0;
    std::fill(recv.begin(), recv.end(), -7);
    REQUIRE(ctx.gatherv(silent ? nullptr : send.data(), silent ? 0 : each, me == root ? recv.data() : nullptr,
                        me == root ? root_sizes : counts{}, me == root ? displs : counts{}, root)
                .has_value());
    if (me == root)
      for (std::size_t q = 1; q < n; ++q) CHECK(recv[q * each] == static_cast<std::int64_t>(q));
    CHECK(ctx.allreduce_value(1, dtl::reduce_op::sum).value() == p);
  }

  TEST_CASE("alltoall") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    const std::size_t each = 301;  // 1204 bytes: pieces under a small DTL_MPI_MESSAGE_LIMIT
    std::vector<std::int32_t> send(n * each), recv(n * each, -1);
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t i = 0; i < each; ++i) send[q * each + i] = static_cast<std::int32_t>(me * 100000 + q * 1000 + i);
    REQUIRE(ctx.alltoall(send.data(), recv.data(), each).has_value());
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t i = 0; i < each; i += 50)
        CHECK(recv[q * each + i] == static_cast<std::int32_t>(q * 100000 + static_cast<std::size_t>(me) * 1000 + i));
    CHECK(ctx.alltoall(send.data(), recv.data(), 0).has_value());
    CHECK(ctx.alltoall<int>(nullptr, nullptr, 0).has_value());  // nothing to move: no buffers needed
  }

  TEST_CASE("gather and scatter") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank(), root = p - 1;
    const auto n = static_cast<std::size_t>(p);
    const std::size_t each = 53;
    std::vector<double> mine(each);
    for (std::size_t i = 0; i < each; ++i) mine[i] = me * 1000.0 + static_cast<double>(i);
    std::vector<double> all(me == root ? n * each : 0, -1.0);
    REQUIRE(ctx.gather(mine.data(), me == root ? all.data() : nullptr, each, root).has_value());
    if (me == root)
      for (std::size_t q = 0; q < n; ++q) CHECK(all[q * each + each - 1] == static_cast<double>(q) * 1000.0 + 52.0);

    std::vector<double> back(each, -1.0);
    REQUIRE(ctx.scatter(me == root ? all.data() : nullptr, back.data(), each, root).has_value());
    CHECK(back == mine);
    CHECK(ctx.gather<double>(nullptr, nullptr, 0, 0).has_value());
    CHECK(ctx.scatter<double>(nullptr, nullptr, 0, 0).has_value());
  }

  TEST_CASE("gatherv, scatterv and allgatherv: uneven counts, zero counts, blocks out of order") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank(), root = p / 2;
    const auto n = static_cast<std::size_t>(p);
    counts sizes(n);
    for (int q = 0; q < p; ++q) sizes[static_cast<std::size_t>(q)] = count_between(q, root);
    counts displs;
    const std::size_t extent = lay_out(sizes, ranks_in_order(p, true), 3, displs);
    const std::size_t count = sizes[static_cast<std::size_t>(me)];
    std::vector<std::int64_t> mine(std::max<std::size_t>(count, 1));
    for (std::size_t i = 0; i < count; ++i) mine[i] = value_of(me, root, i);

    std::vector<std::int64_t> expected(extent, untouched);
    for (int q = 0; q < p; ++q)
      for (std::size_t i = 0; i < sizes[static_cast<std::size_t>(q)]; ++i)
        expected[displs[static_cast<std::size_t>(q)] + i] = value_of(q, root, i);

    std::vector<std::int64_t> at_root(extent, untouched);
    // Only the root's counts are read: the other ranks pass none.
    const bool is_root = me == root;
    REQUIRE(ctx.gatherv(mine.data(), count, is_root ? at_root.data() : nullptr, is_root ? sizes : counts{},
                        is_root ? displs : counts{}, root)
                .has_value());
    if (is_root) CHECK(at_root == expected);

    std::vector<std::int64_t> back(std::max<std::size_t>(count, 1), untouched);
    REQUIRE(ctx.scatterv(is_root ? expected.data() : nullptr, is_root ? sizes : counts{}, is_root ? displs : counts{},
                         back.data(), count, root)
                .has_value());
    back.resize(count);
    mine.resize(count);
    CHECK(back == mine);

    std::vector<std::int64_t> everywhere(extent, untouched);
    REQUIRE(ctx.allgatherv(mine.data(), count, everywhere.data(), sizes, displs).has_value());
    CHECK(everywhere == expected);
  }

  // Small data moves in the agreement step's own message, larger data in a call of its own: every size
  // from nothing to past that message's payload, and counts that fit on some ranks and not on others.
  TEST_CASE("small and mid-size data, around what the agreement step's message carries, against a reference") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank(), root = p - 1;
    const auto n = static_cast<std::size_t>(p);
    for (std::size_t k = 0; k <= 40; ++k) {
      CAPTURE(k);
      std::vector<std::int64_t> in(k), sum(k, untouched), low(k, untouched);
      for (std::size_t i = 0; i < k; ++i) in[i] = value_of(me, 0, i) * (me % 2 == 0 ? 1 : -1);
      REQUIRE(ctx.allreduce(in.data(), sum.data(), k, dtl::reduce_op::sum).has_value());
      REQUIRE(ctx.reduce(in.data(), low.data(), k, dtl::reduce_op::min, root).has_value());
      for (std::size_t i = 0; i < k; ++i) {
        std::int64_t expected_sum = 0, expected_low = std::numeric_limits<std::int64_t>::max();
        for (int q = 0; q < p; ++q) {
          const std::int64_t v = value_of(q, 0, i) * (q % 2 == 0 ? 1 : -1);
          expected_sum += v;
          expected_low = std::min(expected_low, v);
        }
        CHECK(sum[i] == expected_sum);
        if (me == root) CHECK(low[i] == expected_low);
      }

      std::vector<std::int64_t> prefix(in), before(k, untouched);
      REQUIRE(ctx.scan(prefix.data(), prefix.data(), k, dtl::reduce_op::sum).has_value());
      REQUIRE(ctx.exscan(in.data(), before.data(), k, dtl::reduce_op::max).has_value());
      for (std::size_t i = 0; i < k; ++i) {
        std::int64_t expected_prefix = 0, expected_before = std::numeric_limits<std::int64_t>::lowest();
        for (int q = 0; q <= me; ++q) {
          const std::int64_t v = value_of(q, 0, i) * (q % 2 == 0 ? 1 : -1);
          expected_prefix += v;
          if (q < me) expected_before = std::max(expected_before, v);
        }
        CHECK(prefix[i] == expected_prefix);
        CHECK(before[i] == expected_before);
      }

      std::vector<char> bytes(k * 7, me == root ? 'r' : 'x');
      REQUIRE(ctx.broadcast(bytes.data(), bytes.size(), root).has_value());
      CHECK(bytes == std::vector<char>(k * 7, 'r'));

      std::vector<char> block(k, static_cast<char>('a' + me)), all(k * n, '?');
      REQUIRE(ctx.allgather(block.data(), all.data(), k).has_value());
      for (int q = 0; q < p; ++q)
        CHECK(std::string(all.begin() + static_cast<std::ptrdiff_t>(k) * q,
                          all.begin() + static_cast<std::ptrdiff_t>(k) * (q + 1)) ==
              std::string(k, static_cast<char>('a' + q)));

      // alltoallv, gatherv and scatterv with counts of a few elements, uneven between pairs.
      auto small = [k](int from, int to) {
        return static_cast<std::size_t>(from + 2 * to + static_cast<int>(k)) % (k + 1);
      };
      counts send_counts(n), recv_counts(n), send_displs, recv_displs;
      for (int q = 0; q < p; ++q) {
        send_counts[static_cast<std::size_t>(q)] = small(me, q);
        recv_counts[static_cast<std::size_t>(q)] = small(q, me);
      }
      const std::vector<std::int64_t> send = blocks_to_send(me, send_counts, send_displs);
      std::vector<std::int64_t> recv(lay_out(recv_counts, ranks_in_order(p, false), 1, recv_displs), untouched);
      REQUIRE(ctx.alltoallv(send.data(), send_counts, send_displs, recv.data(), recv_counts, recv_displs).has_value());
      CHECK(recv == blocks_received(me, recv_counts, recv_displs, recv.size()));

      counts sizes(n), displs;
      for (int q = 0; q < p; ++q) sizes[static_cast<std::size_t>(q)] = small(q, root);
      const std::size_t extent = lay_out(sizes, ranks_in_order(p, true), 1, displs);
      const std::size_t count = sizes[static_cast<std::size_t>(me)];
      std::vector<std::int64_t> mine(count), at_root(extent, untouched), back(count, untouched);
      for (std::size_t i = 0; i < count; ++i) mine[i] = value_of(me, root, i);
      std::vector<std::int64_t> gathered(extent, untouched);
      for (int q = 0; q < p; ++q)
        for (std::size_t i = 0; i < sizes[static_cast<std::size_t>(q)]; ++i)
          gathered[displs[static_cast<std::size_t>(q)] + i] = value_of(q, root, i);
      REQUIRE(ctx.gatherv(mine.data(), count, at_root.data(), sizes, displs, root).has_value());
      if (me == root) CHECK(at_root == gathered);
      REQUIRE(ctx.scatterv(gathered.data(), sizes, displs, back.data(), count, root).has_value());
      CHECK(back == mine);
    }
  }

  TEST_CASE("scan and exscan, with op's identity on rank 0") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    CHECK(ctx.scan_value(me + 1, dtl::reduce_op::sum).value() == (me + 1) * (me + 2) / 2);
    CHECK(ctx.exscan_value(me + 1, dtl::reduce_op::sum).value() == me * (me + 1) / 2);
    CHECK(ctx.exscan_value(std::int64_t{2}, dtl::reduce_op::product).value() == (std::int64_t{1} << me));
    CHECK(ctx.scan_value(static_cast<double>(p - me), dtl::reduce_op::min).value() == static_cast<double>(p - me));
    const double exmin = ctx.exscan_value(static_cast<double>(p - me), dtl::reduce_op::min).value();
    if (me == 0)
      CHECK(exmin == std::numeric_limits<double>::infinity());
    else
      CHECK(exmin == static_cast<double>(p - me + 1));
    const std::uint32_t exmax = ctx.exscan_value(std::uint32_t{7}, dtl::reduce_op::max).value();
    CHECK(exmax == (me == 0 ? 0u : 7u));
    const std::int16_t exmin16 = ctx.exscan_value(std::int16_t{-3}, dtl::reduce_op::min).value();
    CHECK(exmin16 == (me == 0 ? std::numeric_limits<std::int16_t>::max() : std::int16_t{-3}));

    // Arrays, and in place.
    std::vector<std::int64_t> values(1000), prefix(1000, -1);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i) * (me + 1);
    REQUIRE(ctx.scan(values.data(), prefix.data(), values.size(), dtl::reduce_op::sum).has_value());
    CHECK(prefix[999] == 999 * (me + 1) * (me + 2) / 2);
    REQUIRE(ctx.exscan(values.data(), values.data(), values.size(), dtl::reduce_op::sum).has_value());
    CHECK(values[999] == 999 * me * (me + 1) / 2);
    CHECK(values[0] == 0);
    CHECK(ctx.scan<int>(nullptr, nullptr, 0, dtl::reduce_op::sum).has_value());
  }

  TEST_CASE(
      "bad input: scan and exscan with counts that differ between ranks, one status on every rank, nothing written") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    if (p == 1) return;  // nothing to differ from
    for (const bool exclusive : {false, true}) {
      CAPTURE(exclusive);
      // 1000 elements: past the agreement record, so the scan itself would move them.
      std::vector<std::int64_t> values(1000, me + 1), out(1000, -1);
      const std::size_t count = me == p - 1 ? 999 : 1000;
      const auto r = exclusive ? ctx.exscan(values.data(), out.data(), count, dtl::reduce_op::sum)
                               : ctx.scan(values.data(), out.data(), count, dtl::reduce_op::sum);
      REQUIRE_FALSE(r.has_value());
      const int code = static_cast<int>(r.error().code());
      CHECK(ctx.allreduce_value(code, dtl::reduce_op::min).value() ==
            ctx.allreduce_value(code, dtl::reduce_op::max).value());
      CHECK(std::count(out.begin(), out.end(), std::int64_t{-1}) == 1000);
      // The context still works.
      REQUIRE(ctx.scan(values.data(), out.data(), 1000, dtl::reduce_op::sum).has_value());
      CHECK(out[999] == static_cast<std::int64_t>(me + 1) * (me + 2) / 2);
    }
  }

  TEST_CASE("allreduce past the agreement's base message: the message grows and shrinks on every rank alike") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    // Counts around each size the message can take (8, 24, 128 and 1024 int64 fill one; a broadcast of
    // 192 or 1024 chars fills one), growing and shrinking, with other collectives in between that use
    // whatever size the step has then.
    for (const std::size_t k :
         {std::size_t{1},    std::size_t{8},   std::size_t{9},   std::size_t{24},   std::size_t{25},   std::size_t{128},
          std::size_t{129},  std::size_t{192}, std::size_t{193}, std::size_t{1024}, std::size_t{1025}, std::size_t{3},
          std::size_t{1024}, std::size_t{1},   std::size_t{1},   std::size_t{1},    std::size_t{1},    std::size_t{1},
          std::size_t{9},    std::size_t{8},   std::size_t{128}, std::size_t{5000}, std::size_t{2}}) {
      CAPTURE(k);
      std::vector<std::int64_t> in(k), sum(k, untouched);
      for (std::size_t i = 0; i < k; ++i) in[i] = value_of(me, 0, i);
      REQUIRE(ctx.allreduce(in.data(), sum.data(), k, dtl::reduce_op::sum).has_value());
      for (std::size_t i = 0; i < k; ++i) {
        std::int64_t expected = 0;
        for (int q = 0; q < p; ++q) expected += value_of(q, 0, i);
        CHECK(sum[i] == expected);
      }
      std::vector<char> bytes(k, me == 0 ? 'r' : 'x');
      REQUIRE(ctx.broadcast(bytes.data(), bytes.size(), 0).has_value());
      CHECK(bytes == std::vector<char>(k, 'r'));
      REQUIRE(ctx.barrier().has_value());
    }
  }

  TEST_CASE("bad input: ranks that differ right after a large allreduce (a large agreement message) fail alike") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    if (p == 1) return;  // nothing to differ from
    std::vector<std::int64_t> big(1024, 1), out(1024, untouched);
    REQUIRE(ctx.allreduce(big.data(), out.data(), 1024, dtl::reduce_op::sum).has_value());
    const auto counts_differ =
        ctx.allreduce(big.data(), out.data(), me == p - 1 ? std::size_t{5} : std::size_t{1024}, dtl::reduce_op::sum);
    failed_everywhere(ctx, counts_differ);
    CHECK(counts_differ.error() == dtl::status_code::invalid_argument);
    REQUIRE(ctx.allreduce(big.data(), out.data(), 1024, dtl::reduce_op::sum).has_value());
    const auto calls_differ = me == 0 ? ctx.broadcast(big.data(), 8 * std::size_t{1024}, 0)
                                      : ctx.allreduce(big.data(), out.data(), 1024, dtl::reduce_op::sum);
    failed_everywhere(ctx, calls_differ);
    CHECK(mentions(calls_differ.error(), "the ranks call different collectives"));
  }

  TEST_CASE("bad input: one status on every rank, and the context still works") {
    const auto ctx = world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    std::vector<int> send(64 * n, me), recv(64 * n, -1);
    counts ones(n, 1), at(n);
    std::iota(at.begin(), at.end(), std::size_t{0});

    SUBCASE("alltoallv: a receive count that differs from its sender's send count") {
      counts recv_counts = ones;
      if (me == p - 1) recv_counts[0] = 2;  // rank 0 sends one element
      counts spaced(n);
      for (std::size_t q = 0; q < n; ++q) spaced[q] = 2 * q;
      const auto r = ctx.alltoallv(send.data(), ones, at, recv.data(), recv_counts, spaced);
      failed_everywhere(ctx, r);
      CHECK_MESSAGE(mentions(r.error(), "recv_counts[0] is 2"), r.error().to_string());
    }
    SUBCASE("alltoallv: overlapping receive blocks") {
      const counts two(n, 2);
      counts displs(n);
      for (std::size_t q = 0; q < n; ++q) displs[q] = 2 * q;
      // The last rank's blocks start one element apart: each overlaps the next (one rank has one block).
      counts recv_displs = displs;
      if (me == p - 1)
        for (std::size_t q = 0; q < n; ++q) recv_displs[q] = q;
      const auto r = ctx.alltoallv(send.data(), two, displs, recv.data(), two, recv_displs);
      if (p == 1) {
        CHECK(r.has_value());
      } else {
        failed_everywhere(ctx, r);
        CHECK(mentions(r.error(), "overlap"));
      }
    }
    SUBCASE("alltoallv: counts of the wrong length") {
      const counts short_counts(n + 1, 0);
      failed_everywhere(ctx, ctx.alltoallv(send.data(), me == 0 ? short_counts : ones, at, recv.data(), ones, at));
    }
    SUBCASE("alltoallv: a null buffer with something to send") {
      failed_everywhere(ctx, ctx.alltoallv(me == 0 ? nullptr : send.data(), ones, at, recv.data(), ones, at));
    }
    SUBCASE("alltoall: in place") {
      const auto r = ctx.alltoall(send.data(), send.data(), 1);
      failed_everywhere(ctx, r);
      CHECK(r.error() == dtl::status_code::invalid_argument);
    }
    SUBCASE("gather and scatter: a root outside the context") {
      auto r = ctx.gather(send.data(), recv.data(), 1, p);
      failed_everywhere(ctx, r);
      CHECK(r.error() == dtl::status_code::invalid_rank);
      r = ctx.scatter(send.data(), recv.data(), 1, -1);
      failed_everywhere(ctx, r);
      CHECK(r.error() == dtl::status_code::invalid_rank);
    }
    SUBCASE("gather: ranks that pass different counts") {
      const auto r = ctx.gather(send.data(), recv.data(), me == 0 ? 2 : 1, 0);
      if (p == 1)
        CHECK(r.has_value());  // one rank cannot disagree with itself
      else
        failed_everywhere(ctx, r);
    }
    SUBCASE("gatherv: a rank's count differs from the root's entry") {
      const auto r = ctx.gatherv(send.data(), me == p - 1 ? 2 : 1, recv.data(), ones, at, 0);
      failed_everywhere(ctx, r);
      CHECK(mentions(r.error(), "passes count 2"));
    }
    SUBCASE("gatherv and scatterv: ranks that pass different roots") {
      const int root = me == 0 ? 0 : p - 1;  // the count checks take no root: every rank still pairs up
      const auto g = ctx.gatherv(send.data(), 1, recv.data(), ones, at, root);
      const auto s = ctx.scatterv(send.data(), ones, at, recv.data(), 1, root);
      if (p == 1) {
        CHECK(g.has_value());
        CHECK(s.has_value());
      } else {
        failed_everywhere(ctx, g);
        CHECK(g.error() == dtl::status_code::invalid_argument);
        CHECK(mentions(g.error(), "root"));
        failed_everywhere(ctx, s);
      }
    }
    SUBCASE("scatterv: a rank's count differs from the root's entry") {
      failed_everywhere(ctx, ctx.scatterv(send.data(), ones, at, recv.data(), me == p - 1 ? 3 : 1, 0));
    }
    SUBCASE("allgatherv: ranks that pass different counts") {
      // One rank says rank 0 sends nothing (with one rank: its own entry is not its count).
      counts mine = p > 1 ? ones : counts(n, 2);
      if (me == p - 1) mine[0] = p > 1 ? 0 : 2;
      failed_everywhere(ctx, ctx.allgatherv(send.data(), 1, recv.data(), mine, at));
    }
    SUBCASE("scan: a null buffer on one rank") {
      int value = 1, out = 0;
      failed_everywhere(ctx, ctx.scan(me == p - 1 ? nullptr : &value, &out, 1, dtl::reduce_op::sum));
    }
  }
}
