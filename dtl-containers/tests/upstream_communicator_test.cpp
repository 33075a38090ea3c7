// SPDX-License-Identifier: MIT
// Upstream DTL's communicator (ctx.get<dtl::mpi_domain>().communicator()) on host buffers, run on 1, 2
// and 3 ranks: every member against a serial reference of what each rank contributes, byte counts
// where upstream counts bytes, the promotions of the value forms, point-to-point around a ring (the
// odd/even order of upstream's example, and a halo exchange as its Jacobi solver does), requests with
// wait, test and waitany, communication_error thrown on every rank where upstream throws, and the int
// counts of the v-forms checked before any arithmetic (negative: invalid_argument; bytes past size_t:
// out_of_range), on every rank.
#include "test_environment.hpp"
#include "upstream_checks.hpp"

#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/status_error.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using test_support::refused_on_every_rank;
using test_support::same_on_every_rank;
using test_support::thrown_by;

/// The value rank `from` contributes for element i: distinct per rank and element.
int contribution(int from, std::size_t i) { return from * 1000 + static_cast<int>(i) * 7 + 3; }

}  // namespace

TEST_SUITE("mpi.upstream_communicator") {
  TEST_CASE("domains: ctx.get<mpi_domain>() and get<cpu_domain>() on every context") {
    auto ctx = test_support::world();
    static_assert(dtl::context::has<dtl::mpi_domain>() && dtl::context::has<dtl::cpu_domain>());
    static_assert(!dtl::context::has<int>());
    auto& mpi = ctx.get<dtl::mpi_domain>();
    CHECK(&mpi == &ctx.get<dtl::mpi_domain>());  // made once
    CHECK(mpi.valid());
    CHECK(mpi.rank() == ctx.rank());
    CHECK(mpi.size() == ctx.size());
    CHECK(mpi.is_root() == (ctx.rank() == 0));
    auto& comm = mpi.communicator();
    CHECK(comm.rank() == ctx.rank());
    CHECK(comm.size() == ctx.size());
    CHECK(mpi.adapter_handle().get() == &comm);
    const auto copy = ctx;  // a copy made after shares the communicator
    CHECK(&copy.get<dtl::mpi_domain>().communicator() == &comm);
    const auto& cpu = ctx.get<dtl::cpu_domain>();
    CHECK(cpu.rank() == 0);
    CHECK(cpu.size() == 1);
    CHECK(cpu.valid());
    mpi.barrier();

    // An empty context's domain is invalid, and its communicator throws.
    auto moved = std::move(ctx);
    CHECK_FALSE(ctx.get<dtl::mpi_domain>().valid());  // NOLINT(bugprone-use-after-move): the empty state is the point
    CHECK(thrown_by([&] { ctx.get<dtl::mpi_domain>().communicator().barrier(); }).code() ==
          dtl::status_code::invalid_state);
    CHECK(moved.get<dtl::mpi_domain>().valid());
  }

  TEST_CASE("broadcast, gather, scatter, allgather, alltoall count bytes") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank();
    const auto n = static_cast<std::size_t>(p);
    comm.barrier();

    for (int root = 0; root < p; ++root) {
      std::vector<int> v(5, -1);
      if (me == root)
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = contribution(root, i);
      comm.broadcast(v.data(), v.size() * sizeof(int), root);
      for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == contribution(root, i));

      // Three bytes only: the fourth byte of each int is left alone (counts are bytes).
      std::uint32_t word = me == root ? 0x11223344u : 0xAAAAAAAAu;
      comm.broadcast(&word, 3, root);
      CHECK(word == (me == root ? 0x11223344u : 0xAA223344u));

      const int mine[2] = {contribution(me, 0), contribution(me, 1)};
      std::vector<int> gathered(2 * n, -1);
      comm.gather(mine, gathered.data(), 2 * sizeof(int), root);
      if (me == root)
        for (int r = 0; r < p; ++r)
          for (std::size_t i = 0; i < 2; ++i)
            CHECK(gathered[2 * static_cast<std::size_t>(r) + i] == contribution(r, i));

      std::vector<int> source(2 * n);
      for (int r = 0; r < p; ++r)
        for (std::size_t i = 0; i < 2; ++i) source[2 * static_cast<std::size_t>(r) + i] = contribution(r, i) + root;
      int got[2] = {-1, -1};
      comm.scatter(source.data(), got, 2 * sizeof(int), root);
      CHECK(got[0] == contribution(me, 0) + root);
      CHECK(got[1] == contribution(me, 1) + root);
    }

    const double mine = me * 0.5;
    std::vector<double> all(n, -1.0);
    comm.allgather(&mine, all.data(), sizeof(double));
    for (int r = 0; r < p; ++r) CHECK(all[static_cast<std::size_t>(r)] == r * 0.5);

    std::vector<int> to(n), from(n, -1);
    for (int r = 0; r < p; ++r) to[static_cast<std::size_t>(r)] = me * 100 + r;  // what this rank sends rank r
    comm.alltoall(to.data(), from.data(), sizeof(int));
    for (int r = 0; r < p; ++r) CHECK(from[static_cast<std::size_t>(r)] == r * 100 + me);
  }

  TEST_CASE("the value reductions, with upstream's promotions") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank();
    int product = 1;
    for (int r = 0; r < p; ++r) product *= r + 2;

    CHECK(comm.allreduce_sum_value<int>(me + 1) == p * (p + 1) / 2);
    CHECK(comm.allreduce_sum_value<long>(10000000000L + me) == 10000000000L * p + p * (p - 1) / 2);
    CHECK(comm.allreduce_sum_value<double>(0.25 * me) == 0.25 * (p * (p - 1) / 2));
    CHECK(comm.allreduce_sum_value(1.5f) == 1.5f * static_cast<float>(p));  // float: summed as double
    CHECK(comm.allreduce_sum_value<unsigned short>(static_cast<unsigned short>(me + 1)) == p * (p + 1) / 2);
    CHECK(comm.allreduce_min_value<int>(10 - me) == 10 - (p - 1));
    CHECK(comm.allreduce_max_value<double>(-1.0 * me) == 0.0);
    CHECK(comm.allreduce_max_value<long>(me) == p - 1);
    CHECK(comm.allreduce_prod_value<int>(me + 2) == product);
    CHECK(comm.allreduce_prod_value<double>(me + 2.0) == product);

    CHECK(comm.allreduce_land_value(true));
    CHECK_FALSE(comm.allreduce_land_value(me != 0));  // rank 0 is false
    CHECK(comm.allreduce_land_value(me != p - 1) == false);
    CHECK_FALSE(comm.allreduce_lor_value(false));
    CHECK(comm.allreduce_lor_value(me == p - 1));

    for (int root = 0; root < p; ++root) {
      const long at_root = comm.reduce_sum_to_root<long>(me + 1L, root);
      CHECK(at_root == (me == root ? p * (p + 1L) / 2 : 0L));
    }

    CHECK(comm.scan_sum_value<int>(me + 1) == (me + 1) * (me + 2) / 2);
    CHECK(comm.exscan_sum_value<long>(me + 1L) == me * (me + 1L) / 2);  // rank 0: 0
    CHECK(comm.exscan_sum_value<double>(2.0) == 2.0 * me);
  }

  TEST_CASE("the buffer reductions and scans count elements of their type") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank();

    const double d[2] = {1.0 * me, 2.0};
    double dr[2] = {};
    comm.allreduce_sum(d, dr, 2);
    CHECK(dr[0] == p * (p - 1) / 2.0);
    CHECK(dr[1] == 2.0 * p);
    comm.allreduce_min(d, dr, 2);
    CHECK(dr[0] == 0.0);
    comm.allreduce_max(d, dr, 2);
    CHECK(dr[0] == p - 1.0);
    comm.allreduce_prod(d, dr, 2);
    CHECK(dr[1] == static_cast<double>(1 << p));

    const int i[3] = {me, -me, 1};
    int ir[3] = {};
    comm.allreduce_sum_int(i, ir, 3);
    CHECK(ir[0] == p * (p - 1) / 2);
    CHECK(ir[1] == -p * (p - 1) / 2);
    CHECK(ir[2] == p);
    comm.allreduce_min_int(i, ir, 3);
    CHECK(ir[1] == -(p - 1));
    comm.allreduce_max_int(i, ir, 3);
    CHECK(ir[0] == p - 1);
    comm.allreduce_prod_int(i, ir, 3);
    CHECK(ir[2] == 1);

    const long l[1] = {3000000000L * (me + 1)};
    long lr[1] = {};
    comm.allreduce_sum_long(l, lr, 1);
    CHECK(lr[0] == 3000000000L * p * (p + 1) / 2);
    comm.allreduce_min_long(l, lr, 1);
    CHECK(lr[0] == 3000000000L);
    comm.allreduce_max_long(l, lr, 1);
    CHECK(lr[0] == 3000000000L * p);
    const long two[1] = {2};
    comm.allreduce_prod_long(two, lr, 1);
    CHECK(lr[0] == (1L << p));

    // Logical: any non-zero int is true; the result is 1 or 0.
    const int flags[3] = {-5, me == 0 ? 0 : 7, 0};
    int fr[3] = {9, 9, 9};
    comm.allreduce_land(flags, fr, 3);
    CHECK(fr[0] == 1);
    CHECK(fr[1] == 0);
    CHECK(fr[2] == 0);
    comm.allreduce_lor(flags, fr, 3);
    CHECK(fr[0] == 1);
    CHECK(fr[1] == (p > 1 ? 1 : 0));
    CHECK(fr[2] == 0);

    for (int root = 0; root < p; ++root) {
      double sum = -1.0;
      comm.reduce_sum(&d[0], &sum, 1, root);
      if (me == root) CHECK(sum == p * (p - 1) / 2.0);
      int isum = -1;
      comm.reduce_sum_int(&i[2], &isum, 1, root);
      if (me == root) CHECK(isum == p);
    }

    const int one[2] = {me + 1, 1};
    int inclusive[2] = {}, exclusive[2] = {-1, -1};
    comm.scan_sum_int(one, inclusive, 2);
    CHECK(inclusive[0] == (me + 1) * (me + 2) / 2);
    CHECK(inclusive[1] == me + 1);
    comm.exscan_sum_int(one, exclusive, 2);
    if (me > 0) {  // rank 0's exscan result is undefined upstream (MPI_Exscan); ours is 0
      CHECK(exclusive[0] == me * (me + 1) / 2);
      CHECK(exclusive[1] == me);
    }
    const long lone = me + 1L;
    long lscan = 0, lex = 0;
    comm.scan_sum_long(&lone, &lscan, 1);
    comm.exscan_sum_long(&lone, &lex, 1);
    CHECK(lscan == (me + 1L) * (me + 2L) / 2);
    if (me > 0) CHECK(lex == me * (me + 1L) / 2);
    const double dhalf = 0.5;
    double dscan = 0, dex = 0;
    comm.scan_sum(&dhalf, &dscan, 1);
    comm.exscan_sum(&dhalf, &dex, 1);
    CHECK(dscan == 0.5 * (me + 1));
    if (me > 0) CHECK(dex == 0.5 * me);
  }

  TEST_CASE("gatherv, scatterv, allgatherv, alltoallv: int counts in elements of elem_size") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank();
    const auto n = static_cast<std::size_t>(p);
    auto count_of = [](int r) { return r + 1; };  // rank r sends r + 1 elements
    std::vector<int> counts(n), displs(n);
    for (int r = 0; r < p; ++r) counts[static_cast<std::size_t>(r)] = count_of(r);
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    const auto total = static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0));
    std::vector<double> mine(static_cast<std::size_t>(count_of(me)));
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = contribution(me, i);

    std::vector<double> expected(total);
    for (int r = 0; r < p; ++r)
      for (int i = 0; i < count_of(r); ++i)
        expected[static_cast<std::size_t>(displs[static_cast<std::size_t>(r)] + i)] =
            contribution(r, static_cast<std::size_t>(i));

    for (int root = 0; root < p; ++root) {
      std::vector<double> at_root(total, -1.0);
      comm.gatherv(mine.data(), mine.size(), at_root.data(), counts.data(), displs.data(), sizeof(double), root);
      if (me == root) CHECK(at_root == expected);
      std::vector<double> back(mine.size(), -1.0);
      comm.scatterv(expected.data(), counts.data(), displs.data(), back.data(), back.size(), sizeof(double), root);
      CHECK(back == mine);
    }
    std::vector<double> everyone(total, -1.0);
    comm.allgatherv(mine.data(), mine.size(), everyone.data(), counts.data(), displs.data(), sizeof(double));
    CHECK(everyone == expected);

    // alltoallv: rank a sends rank b (a + b) % 3 elements, valued a * 100 + b * 10 + i.
    std::vector<int> sc(n), sd(n), rc(n), rd(n);
    for (int r = 0; r < p; ++r) {
      sc[static_cast<std::size_t>(r)] = (me + r) % 3;
      rc[static_cast<std::size_t>(r)] = (r + me) % 3;
    }
    std::exclusive_scan(sc.begin(), sc.end(), sd.begin(), 0);
    std::exclusive_scan(rc.begin(), rc.end(), rd.begin(), 0);
    std::vector<std::int16_t> out(static_cast<std::size_t>(std::accumulate(sc.begin(), sc.end(), 0)));
    std::vector<std::int16_t> in(static_cast<std::size_t>(std::accumulate(rc.begin(), rc.end(), 0)), -1),
        want(in.size());
    for (int r = 0; r < p; ++r)
      for (int i = 0; i < sc[static_cast<std::size_t>(r)]; ++i) {
        out[static_cast<std::size_t>(sd[static_cast<std::size_t>(r)] + i)] =
            static_cast<std::int16_t>(me * 100 + r * 10 + i);
        want[static_cast<std::size_t>(rd[static_cast<std::size_t>(r)] + i)] =
            static_cast<std::int16_t>(r * 100 + me * 10 + i);
      }
    comm.alltoallv(out.data(), sc.data(), sd.data(), in.data(), rc.data(), rd.data(), sizeof(std::int16_t));
    CHECK(in == want);
  }

  TEST_CASE("v-forms: a negative int count or displacement is invalid_argument on every rank") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank(), root = p - 1;
    const auto n = static_cast<std::size_t>(p);
    std::vector<int> ones(n, 1), displs(n);
    std::iota(displs.begin(), displs.end(), 0);
    const std::vector<double> mine(1, me * 0.5);
    std::vector<double> all(n, -1.0);
    auto nothing_received = [&] { CHECK(std::count(all.begin(), all.end(), -1.0) == static_cast<std::ptrdiff_t>(n)); };

    // gatherv: the root's recv_counts[0] is -1 (it used to become SIZE_MAX bytes).
    std::vector<int> minus_one = ones;
    minus_one[0] = -1;
    const int* root_counts = me == root ? minus_one.data() : ones.data();
    refused_on_every_rank(comm, thrown_by([&] {
                            comm.gatherv(mine.data(), 1, all.data(), root_counts, displs.data(), sizeof(double), root);
                          }),
                          1, {"recv_counts[0] is -1"});
    nothing_received();

    // allgatherv: every rank's last displacement is -3.
    std::vector<int> minus_three = displs;
    minus_three[n - 1] = -3;
    refused_on_every_rank(comm, thrown_by([&] {
                            comm.allgatherv(mine.data(), 1, all.data(), ones.data(), minus_three.data(),
                                            sizeof(double));
                          }),
                          p, {"displs[" + std::to_string(n - 1) + "] is -3"});
    nothing_received();

    // scatterv: the root's last send count is INT_MIN.
    std::vector<int> int_min = ones;
    int_min[n - 1] = INT_MIN;
    double got = -1.0;
    refused_on_every_rank(comm, thrown_by([&] {
                            comm.scatterv(all.data(), me == root ? int_min.data() : ones.data(), displs.data(), &got, 1,
                                          sizeof(double), root);
                          }),
                          1, {"send_counts[" + std::to_string(n - 1) + "] is -2147483648"});
    CHECK(got == -1.0);

    // alltoallv: rank 0 sends INT_MIN elements to the last rank, which expects -7 from rank 0: neither is
    // a count (they used to agree, as SIZE_MAX each).
    std::vector<int> sc = ones, rc = ones;
    if (me == 0) sc[n - 1] = INT_MIN;
    if (me == root) rc[0] = -7;
    const std::vector<std::int16_t> out(n + 1, static_cast<std::int16_t>(me));
    std::vector<std::int16_t> in(n, -1);
    refused_on_every_rank(comm, thrown_by([&] {
                            comm.alltoallv(out.data(), sc.data(), displs.data(), in.data(), rc.data(), displs.data(),
                                           sizeof(std::int16_t));
                          }),
                          std::min(p, 2), {"is -2147483648"});
    CHECK(std::count(in.begin(), in.end(), std::int16_t{-1}) == static_cast<std::ptrdiff_t>(n));
    comm.barrier();  // the communicator still works
  }

  TEST_CASE("v-forms: a count whose bytes pass size_t is out_of_range on every rank") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank(), root = p - 1;
    const auto n = static_cast<std::size_t>(p);
    std::vector<int> ones(n, 1), displs(n);
    std::iota(displs.begin(), displs.end(), 0);
    // 2^61 + 1 elements of 8 bytes: the product wraps to 8 bytes, one element, which the root's counts expect.
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 8 + 2;
    const std::vector<double> mine(1, me * 0.5);
    std::vector<double> all(n, -1.0);
    same_on_every_rank(comm, thrown_by([&] {
                         comm.gatherv(mine.data(), huge, all.data(), ones.data(), displs.data(), sizeof(double), root);
                       }),
                       dtl::status_code::out_of_range);
    CHECK(std::count(all.begin(), all.end(), -1.0) == static_cast<std::ptrdiff_t>(n));
    double got = -1.0;
    same_on_every_rank(comm, thrown_by([&] {
                         comm.scatterv(all.data(), ones.data(), displs.data(), &got, huge, sizeof(double), root);
                       }),
                       dtl::status_code::out_of_range);
    CHECK(got == -1.0);
  }

  TEST_CASE("point-to-point: a ring in odd/even order, a halo exchange, sendrecv_replace (bytes)") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank();
    const dtl::rank_t next = (me + 1) % p, prev = (me + p - 1) % p;

    if (p > 1) {
      const int send_val = me * 100;
      int recv_val = -1;
      if (me % 2 == 0) {
        comm.send(&send_val, sizeof(int), next, 0);
        comm.recv(&recv_val, sizeof(int), prev, 0);
      } else {
        comm.recv(&recv_val, sizeof(int), prev, 0);
        comm.send(&send_val, sizeof(int), next, 0);
      }
      CHECK(recv_val == prev * 100);
      CHECK(comm.allreduce_land_value(recv_val == prev * 100));

      // The halo exchange of upstream's Jacobi solver: right boundary to the right, then left to the left.
      double u[3] = {-1.0, me + 0.5, -1.0};  // [left halo | interior | right halo]
      if (me < p - 1) comm.send(&u[1], sizeof(double), me + 1, 10);
      if (me > 0) comm.recv(&u[0], sizeof(double), me - 1, 10);
      if (me > 0) comm.ssend(&u[1], sizeof(double), me - 1, 11);
      if (me < p - 1) comm.recv(&u[2], sizeof(double), me + 1, 11);
      CHECK(u[0] == (me > 0 ? me - 0.5 : -1.0));
      CHECK(u[2] == (me < p - 1 ? me + 1.5 : -1.0));
    }

    std::int64_t block[4];
    for (std::size_t i = 0; i < 4; ++i) block[i] = me * 10 + static_cast<std::int64_t>(i);
    comm.sendrecv_replace(block, sizeof(block), next, 5, prev, 5);
    for (std::size_t i = 0; i < 4; ++i) CHECK(block[i] == prev * 10 + static_cast<std::int64_t>(i));
  }

  TEST_CASE("requests: isend/irecv with wait, test and waitany") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank();
    const dtl::rank_t next = (me + 1) % p, prev = (me + p - 1) % p;

    std::vector<float> out(100), in(100, -1.0f);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(me) + 0.25f * static_cast<float>(i);
    std::vector<dtl::request_handle> requests;
    requests.push_back(comm.irecv(in.data(), in.size() * sizeof(float), prev, 3));
    requests.push_back(comm.isend(out.data(), out.size() * sizeof(float), next, 3));
    for (auto& r : requests) CHECK(r.valid());
    for (auto& r : requests) comm.wait(r);
    for (auto& r : requests) CHECK_FALSE(r.valid());
    for (std::size_t i = 0; i < in.size(); ++i)
      CHECK(in[i] == static_cast<float>(prev) + 0.25f * static_cast<float>(i));

    // test() until complete; an invalid handle counts as complete.
    int a = me, b = -1;
    dtl::request_handle rr = comm.irecv(&b, sizeof(int), prev, 4);
    dtl::request_handle rs = comm.issend(&a, sizeof(int), next, 4);
    bool recv_done = false, send_done = false;
    while (!(recv_done && send_done)) {
      recv_done = recv_done || comm.test(rr);
      send_done = send_done || comm.test(rs);
    }
    CHECK(b == prev);
    CHECK_FALSE(rr.valid());
    CHECK(comm.test(rr));

    // waitany: each index comes back once, and every payload arrives.
    int from_prev[2] = {-1, -1};
    const int to_next[2] = {me * 3, me * 3 + 1};
    dtl::request_handle set[4] = {
        comm.irecv(&from_prev[0], sizeof(int), prev, 6), comm.irecv(&from_prev[1], sizeof(int), prev, 7),
        comm.irsend(&to_next[1], sizeof(int), next, 7), comm.isend(&to_next[0], sizeof(int), next, 6)};
    std::vector<int> seen(4, 0);
    for (int k = 0; k < 4; ++k) ++seen[comm.waitany(set, 4)];
    CHECK(seen == std::vector<int>(4, 1));
    CHECK(from_prev[0] == prev * 3);
    CHECK(from_prev[1] == prev * 3 + 1);
  }

  TEST_CASE("communication_error where upstream throws, on every rank for a collective") {
    auto ctx = test_support::world();
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size();

    // A root outside the communicator: every rank throws (upstream: MPI's error, thrown by the adapter).
    int v = 1;
    same_on_every_rank(comm, thrown_by([&] { comm.broadcast(&v, sizeof(v), p); }), dtl::status_code::invalid_rank);
    // A null receive buffer with data to gather on the root: the root's failure reaches every rank (as
    // collective_failure, naming the root and why).
    int mine = 1;
    const dtl::status at_root = thrown_by([&] { comm.gather(&mine, nullptr, sizeof(int), 0); });
    same_on_every_rank(comm, at_root,
                       p == 1 ? dtl::status_code::invalid_argument : dtl::status_code::collective_failure);
    CHECK(std::string(at_root.message()).find("gather: ") != std::string::npos);
    comm.barrier();  // the communicator still works
    CHECK(comm.allreduce_sum_value<int>(1) == p);

    // Requests: waiting on an invalid handle, or on no valid handle, throws (locally, as upstream).
    dtl::request_handle none;
    CHECK(thrown_by([&] { comm.wait(none); }).code() == dtl::status_code::invalid_argument);
    CHECK(thrown_by([&] { (void)comm.waitany(&none, 0); }).code() == dtl::status_code::invalid_argument);
    dtl::request_handle nones[2];
    CHECK(thrown_by([&] { (void)comm.waitany(nones, 2); }).code() == dtl::status_code::invalid_argument);
    // A peer outside the communicator.
    CHECK(thrown_by([&] { comm.send(&v, sizeof(v), p, 0); }).code() == dtl::status_code::invalid_rank);
    // The error is a status_error carrying the status, and upstream's dtl::mpi::communication_error.
    try {
      comm.barrier();
      comm.broadcast(&v, sizeof(v), -7);
      FAIL("broadcast from rank -7 did not throw");
    } catch (const dtl::mpi::communication_error& e) {
      CHECK(e.code() == dtl::status_code::invalid_rank);
      CHECK(std::string(e.what()).find("root -7") != std::string::npos);  // what() is the status's text
    }
  }

  TEST_CASE("on_device / with_hip: a context over the same ranks, on a device or none") {
    auto ctx = test_support::world();
    auto none = ctx.on_device(dtl::no_device);
    REQUIRE(none.has_value());
    CHECK(none->rank() == ctx.rank());
    CHECK(none->size() == ctx.size());
    CHECK_FALSE(none->has_device());
    CHECK_FALSE(none->same_as(ctx));
    auto& none_comm = none->get<dtl::mpi_domain>().communicator();
    CHECK(none_comm.allreduce_sum_value<int>(ctx.rank()) == ctx.size() * (ctx.size() - 1) / 2);
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    // A negative id other than no_device is no device anywhere: invalid_argument on every rank (without
    // HIP: backend_not_available, as for any device).
    const auto bad = ctx.on_device(-5);
    REQUIRE_FALSE(bad.has_value());
    same_on_every_rank(
        comm, bad.error(),
        DTL_CONTAINERS_HAS_HIP ? dtl::status_code::invalid_argument : dtl::status_code::backend_not_available);
#if DTL_CONTAINERS_HAS_HIP
    auto& hip = ctx.get<dtl::hip_domain>();
    CHECK(hip.device_id() == ctx.device());
    CHECK(hip.valid() == ctx.has_device());
    if (!ctx.has_device()) CHECK(hip.stream() == nullptr);
#else
    // Without HIP there is no device 0: with_hip throws on every rank.
    dtl::status why;
    try {
      (void)ctx.with_cuda(0);
    } catch (const dtl::status_error& e) {
      why = e.error();
    }
    same_on_every_rank(comm, why, dtl::status_code::backend_not_available);
#endif
  }

  TEST_CASE("split: a communicator per color") {
    auto ctx = test_support::world();
    auto& mpi = ctx.get<dtl::mpi_domain>();
    const int me = mpi.rank();
    auto halves = mpi.split(me % 2);
    REQUIRE(halves.has_value());
    CHECK(halves->rank() == me / 2);
    CHECK(halves->size() == (mpi.size() + 1 - me % 2) / 2);
    int same_color_sum = 0;  // the serial reference: the ranks of my parity
    for (int r = me % 2; r < mpi.size(); r += 2) same_color_sum += r;
    CHECK(halves->communicator().allreduce_sum_value<int>(me) == same_color_sum);
    auto sub = mpi.communicator().split(0, -me);  // one color, reversed order
    CHECK(sub.rank() == mpi.size() - 1 - me);
  }
}
