// SPDX-License-Identifier: MIT
// dtl::null_communicator: upstream's one-rank communicator, through upstream's include paths.
#include "doctest.hpp"

#include <dtl/communication/collective_ops.hpp>
#include <dtl/communication/communicator_base.hpp>
#include <dtl/communication/point_to_point.hpp>
#include <dtl/communication/reduction_ops.hpp>

#include <array>
#include <limits>
#include <span>
#include <vector>

TEST_SUITE("null_communicator") {
  TEST_CASE("one rank, the root") {
    dtl::null_communicator comm;
    CHECK(comm.rank() == 0);
    CHECK(comm.size() == 1);
    CHECK(comm.is_root());
    static_assert(dtl::null_communicator::size() == 1);
    comm.barrier();
  }

  TEST_CASE("collectives copy the send data to the receive data") {
    dtl::null_communicator comm;
    const std::vector<int> send = {10, 20, 30};
    std::vector<int> recv(3, -1);
    REQUIRE(dtl::allgather(comm, std::span<const int>(send), std::span<int>(recv)).has_value());
    CHECK(recv == send);
    recv.assign(3, -1);
    REQUIRE(dtl::gather(comm, std::span<const int>(send), std::span<int>(recv), 0).has_value());
    CHECK(recv == send);
    recv.assign(3, -1);
    REQUIRE(dtl::alltoall(comm, std::span<const int>(send), std::span<int>(recv)).has_value());
    CHECK(recv == send);

    std::vector<double> sums(2, 0.0);
    const std::vector<double> values = {1.5, -2.0};
    REQUIRE(dtl::allreduce(comm, std::span<const double>(values), std::span<double>(sums), dtl::reduce_sum<double>{})
                .has_value());
    CHECK(sums == values);
    CHECK(dtl::allreduce(comm, 7, dtl::reduce_max<int>{}).value() == 7);
    int value = 42;
    REQUIRE(dtl::broadcast(comm, value, 0).has_value());
    CHECK(value == 42);
  }

  TEST_CASE("the raw reductions and scans of one rank") {
    dtl::null_communicator comm;
    CHECK(comm.allreduce_sum_value<int>(42) == 42);
    CHECK(comm.allreduce_min_value<long>(-5L) == -5L);
    CHECK(comm.allreduce_max_value<double>(2.5) == 2.5);
    const std::array<int, 2> send = {5, 3};
    std::array<int, 2> recv = {-1, -1};
    REQUIRE(dtl::exscan(comm, std::span<const int>(send), std::span<int>(recv), dtl::reduce_min<int>{}).has_value());
    CHECK(recv[0] == std::numeric_limits<int>::max());  // nothing before rank 0: min's identity
    REQUIRE(dtl::scan(comm, std::span<const int>(send), std::span<int>(recv), dtl::reduce_sum<int>{}).has_value());
    CHECK(recv == send);
  }

  TEST_CASE("point to point has no peer: nothing moves, requests are complete") {
    dtl::null_communicator comm;
    std::vector<int> data = {1, 2, 3, 4, 5};
    const std::vector<int> original = data;
    comm.sendrecv_replace(data.data(), data.size() * sizeof(int), 0, 100, 0, 200);
    CHECK(data == original);
    std::array<dtl::request_handle, 3> requests{};
    CHECK(comm.waitany(requests.data(), requests.size()) == 0);
    CHECK(comm.waitany(nullptr, 0) == 0);
    dtl::request_handle r = comm.isend(data.data(), sizeof(int), 0, 1);
    CHECK(comm.test(r));
    comm.wait(r);
    const dtl::message_status from_self = comm.probe(0, 0);
    CHECK(from_self.source == 0);
    CHECK(from_self.count == 0);
    CHECK_FALSE(comm.iprobe(0, 0).first);
  }

  TEST_CASE("receives take any_source and any_tag as rank 0 and tag 0") {
    dtl::null_communicator comm;
    std::vector<int> data(3, 7);
    dtl::result<dtl::message_status> got = dtl::recv(comm, std::span<int>(data), dtl::any_source, dtl::any_tag);
    REQUIRE(got.has_value());
    CHECK(got->source == 0);
    CHECK(got->tag == 0);
    CHECK(got->count == 3);
    CHECK(data == std::vector<int>(3, 7));  // nothing moved
    int one = 0;
    CHECK(dtl::recv(comm, one, 0, 5)->tag == 5);
  }

  TEST_CASE("the logical and bitwise reductions of one rank") {
    dtl::null_communicator comm;
    std::vector<int> flags = {0, 3, -1};
    REQUIRE(dtl::allreduce_inplace(comm, std::span<int>(flags), dtl::reduce_land<int>{}).has_value());
    CHECK(flags == std::vector<int>{0, 3, -1});  // one rank's values as they are, as MPI's
    std::vector<unsigned> bits = {0xF0u, 0x0Fu};
    REQUIRE(dtl::allreduce_inplace(comm, std::span<unsigned>(bits), dtl::reduce_bxor<unsigned>{}).has_value());
    CHECK(bits == std::vector<unsigned>{0xF0u, 0x0Fu});
    static_assert(dtl::reduce_band<unsigned char>::identity() == 0xFF);
    static_assert(dtl::reduce_bor<int>{}(4, 1) == 5 && dtl::reduce_lor<int>{}(0, 9) == 1);
  }
}
