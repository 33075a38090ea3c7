// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/runtime_device_context.hpp>
#include <dtl/core/placement.hpp>

#include <limits>
#include <vector>

TEST_SUITE("context") {
  TEST_CASE("upstream's device helpers: a context without a device has none, nor does its communicator") {
    const dtl::context ctx = dtl::make_cpu_context();
    CHECK_FALSE(dtl::detail::ctx_gpu_device_id(ctx).has_value());
    CHECK_FALSE(dtl::detail::ctx_has_gpu_domain(dtl::mpi::mpi_comm_adapter(ctx)));
    CHECK(dtl::detail::ctx_try_gpu_device_id(ctx).error() == dtl::status_code::invalid_argument);
    CHECK_THROWS_AS(static_cast<void>(dtl::detail::ctx_require_gpu_device_id(ctx)), dtl::status_error);
    static_assert(dtl::detail::ContextMayHaveGpuDomain<dtl::mpi::mpi_comm_adapter>);
    static_assert(!dtl::detail::ContextMayHaveGpuDomain<int>);
  }

  TEST_CASE("a cpu context is rank 0 of 1 without a device") {
    const dtl::context ctx = dtl::make_cpu_context();
    CHECK(ctx.rank() == 0);
    CHECK(ctx.size() == 1);
    CHECK(ctx.is_root());
    CHECK(ctx.device() == dtl::no_device);
    CHECK_FALSE(ctx.has_device());
    CHECK(ctx.valid());
    CHECK(ctx.barrier().has_value());
    CHECK(ctx.device_collective_path() == dtl::collective_path::self);
  }

  TEST_CASE("collectives on one rank copy send to receive") {
    const dtl::context ctx = dtl::make_cpu_context();
    const std::vector<double> send{1.5, -2.0, 3.25};
    std::vector<double> recv(3, 0.0);
    REQUIRE(ctx.allreduce(send.data(), recv.data(), send.size(), dtl::reduce_op::sum).has_value());
    CHECK(recv == send);
    CHECK(ctx.allreduce_value(41, dtl::reduce_op::max).value() == 41);
    std::vector<int> gathered(2, 0);
    const std::vector<int> mine{7, 8};
    REQUIRE(ctx.allgather(mine.data(), gathered.data(), 2).has_value());
    CHECK(gathered == mine);
    int data = 5;
    CHECK(ctx.broadcast(&data, 1, 0).has_value());
    CHECK(data == 5);
  }

  TEST_CASE("bad arguments are statuses") {
    const dtl::context ctx = dtl::make_cpu_context();
    int x = 1;
    CHECK(ctx.broadcast(&x, 1, 1).error() == dtl::status_code::invalid_rank);
    CHECK(ctx.broadcast(&x, 1, -1).error() == dtl::status_code::invalid_rank);
    CHECK(ctx.reduce(&x, &x, 1, dtl::reduce_op::sum, 3).error() == dtl::status_code::invalid_rank);
    CHECK(ctx.allreduce<int>(nullptr, &x, 1, dtl::reduce_op::sum).error() == dtl::status_code::invalid_argument);
    CHECK(ctx.allreduce<int>(&x, nullptr, 1, dtl::reduce_op::sum).error() == dtl::status_code::invalid_argument);
    CHECK(ctx.allreduce<int>(nullptr, nullptr, 0, dtl::reduce_op::sum).has_value());  // nothing to do
    CHECK(ctx.split(-2).error() == dtl::status_code::invalid_argument);
  }

  TEST_CASE("a count whose bytes overflow size_t is invalid_argument, and nothing is written") {
    const dtl::context ctx = dtl::make_cpu_context();
    double send[2] = {1.0, 2.0}, recv[2] = {0.0, 0.0};
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 4;  // * sizeof(double) wraps
    CHECK(ctx.allreduce(send, recv, huge, dtl::reduce_op::sum).error() == dtl::status_code::invalid_argument);
    CHECK(ctx.reduce(send, recv, huge, dtl::reduce_op::sum, 0).error() == dtl::status_code::invalid_argument);
    CHECK(recv[0] == 0.0);
    CHECK(recv[1] == 0.0);
  }

  TEST_CASE("split with undefined_color gives an empty context") {
    const dtl::context ctx = dtl::make_cpu_context();
    const auto out = ctx.split(dtl::undefined_color);
    REQUIRE(out.has_value());
    CHECK(out->rank() == -1);
    CHECK(out->rank_count() == 0);
    CHECK_FALSE(out->valid());
    CHECK(out->check().code() == dtl::status_code::invalid_state);
    int x = 1;
    CHECK(out->allreduce(&x, &x, 1, dtl::reduce_op::sum).error() == dtl::status_code::invalid_state);
    CHECK(out->barrier().error() == dtl::status_code::invalid_state);
  }

  TEST_CASE("a moved-from context is empty: every call gives invalid_state") {
    dtl::context ctx = dtl::make_cpu_context();
    const dtl::context taken = std::move(ctx);
    CHECK(taken.valid());
    // NOLINTBEGIN(bugprone-use-after-move): what a moved-from context does is the point
    CHECK(ctx.check().code() == dtl::status_code::invalid_state);
    CHECK_FALSE(ctx.valid());
    CHECK(ctx.rank() == -1);
    CHECK(ctx.size() == 0);
    CHECK_FALSE(ctx.has_device());
    CHECK(ctx.device_collective_path() == dtl::collective_path::self);
    int x = 1;
    CHECK(ctx.allreduce_value(x, dtl::reduce_op::sum).error() == dtl::status_code::invalid_state);
    CHECK(ctx.broadcast(&x, 1, 0).error() == dtl::status_code::invalid_state);
    CHECK(ctx.allgather(&x, &x, 1).error() == dtl::status_code::invalid_state);
    CHECK(ctx.split(0).error() == dtl::status_code::invalid_state);
    CHECK(ctx.barrier().error() == dtl::status_code::invalid_state);
    // NOLINTEND(bugprone-use-after-move)
  }

  TEST_CASE("split gives a sub-context, and copies are the same context") {
    const dtl::context ctx = dtl::make_cpu_context();
    const dtl::context copy = ctx;
    CHECK(copy.same_as(ctx));
    const auto sub = ctx.split(0);
    REQUIRE(sub.has_value());
    CHECK(sub->size() == 1);
    CHECK(sub->rank() == 0);
    CHECK_FALSE(sub->same_as(ctx));
  }

  TEST_CASE("names") {
    CHECK(dtl::collective_path_name(dtl::collective_path::nccl) == "nccl");
    CHECK(dtl::collective_path_name(dtl::collective_path::mpi_staged) == "mpi_staged");
    CHECK(dtl::reduce_op_name(dtl::reduce_op::product) == "product");
  }
}
