// SPDX-License-Identifier: MIT
// One process, one environment (MPI cannot start twice in a process, so each case that ends an
// environment is a test suite of its own, run as its own process by Meson).
#include "doctest.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/device.hpp>
#endif

#include <stdexcept>
#include <string>

TEST_SUITE("environment") {
  TEST_CASE("one process is rank 0 of 1, and only one environment lives at a time") {
    CHECK_FALSE(dtl::environment::is_initialized());
    dtl::environment env;
    CHECK(dtl::environment::is_initialized());
    CHECK_FALSE(env.has_shmem());
#if DTL_CONTAINERS_HAS_HIP
    CHECK(env.has_cuda() == (std::string(dtl::hip::platform_name()) == "nvidia"));
#else
    CHECK_FALSE(env.has_cuda());
#endif
    CHECK(env.rank() == 0);
    CHECK(env.rank_count() == 1);
    CHECK(env.local_rank() == 0);
    const auto ctx = env.make_world_context();
    CHECK(ctx.size() == 1);
    CHECK(ctx.device() == env.device());
    auto second = dtl::environment::create();
    CHECK(second.error() == dtl::status_code::invalid_state);
    dtl::distributed_vector<int> v(10, 1, ctx);
    CHECK(dtl::reduce(v, 0) == 10);
  }
}

TEST_SUITE("environment_end") {
  TEST_CASE("a context used after its environment ended gives invalid_state") {
    std::optional<dtl::context> kept;
    std::optional<dtl::distributed_vector<double>> vec;
    {
      dtl::environment env;
      kept = env.make_world_context();
      vec.emplace(100, 1.0, *kept);
      CHECK(kept->valid());
    }
    CHECK_FALSE(kept->valid());
    CHECK(kept->check() == dtl::status_code::invalid_state);
    CHECK(kept->barrier().error() == dtl::status_code::invalid_state);
    CHECK(kept->allreduce_value(1, dtl::reduce_op::sum).error() == dtl::status_code::invalid_state);
    CHECK(dtl::distributed_vector<int>::create(10, *kept).error() == dtl::status_code::invalid_state);
    CHECK_THROWS_AS(dtl::distributed_vector<int>(10, *kept), dtl::status_error);
    CHECK(dtl::fill(*vec, 2.0).error() == dtl::status_code::invalid_state);
    CHECK(dtl::try_reduce(*vec, 0.0).error() == dtl::status_code::invalid_state);
    CHECK_THROWS_AS(static_cast<void>(dtl::reduce(*vec, 0.0)), dtl::status_error);
    CHECK(vec->local_view()[0] == 1.0);  // the data itself stays readable until the vector goes
  }
}

TEST_SUITE("environment_device") {
  TEST_CASE("DTL_DEVICE must name a device") {
    // Set by the test's environment in meson.build: DTL_DEVICE=not-a-number.
    auto env = dtl::environment::create();
    if (dtl::build::has_hip) {
      CHECK(env.error() == dtl::status_code::invalid_argument);
    } else {
      CHECK(env.has_value());  // without HIP there is no GPU to choose; DTL_DEVICE is not read
    }
  }
}

TEST_SUITE("environment_thread_level") {
  TEST_CASE("the thread level asked for reaches MPI_Init_thread") {
    dtl::environment_options options;
    options.thread_level = dtl::mpi_threads::serialized;
    dtl::environment env(options);
    if (dtl::build::has_mpi) {
      // MPI gives at most what was asked for (MPI_THREAD_SERIALIZED is 2 in Open MPI and MPICH).
      CHECK(env.mpi_thread_level() <= 2);
      if (env.mpi_thread_level() == 2) {
        CHECK(std::string(env.mpi_thread_level_name()) == "MPI_THREAD_SERIALIZED");
        CHECK(env.thread_level_name() == "serialized");
      }
    } else {
      CHECK(env.mpi_thread_level() == 3);  // one process: any thread may call
    }
    const auto ctx = env.make_world_context();
    CHECK(ctx.allreduce_value(2, dtl::reduce_op::sum).value() == 2);
  }
}

TEST_SUITE("environment_thread_level_env") {
  TEST_CASE("DTL_MPI_THREAD_LEVEL must name a level") {
    // Set by the test's environment in meson.build: DTL_MPI_THREAD_LEVEL=sometimes.
    const auto env = dtl::environment::create();
    REQUIRE_FALSE(env.has_value());
    CHECK(env.error() == dtl::status_code::invalid_argument);
    CHECK(env.error().message().find("DTL_MPI_THREAD_LEVEL") != std::string_view::npos);
  }
}

TEST_SUITE("environment_device_range") {
  TEST_CASE("DTL_DEVICE past the devices this process sees: the status names the variable") {
    // Set by the test's environment in meson.build: DTL_DEVICE=999.
    auto env = dtl::environment::create();
    if (dtl::build::has_hip) {
      REQUIRE_FALSE(env.has_value());
      CHECK(env.error().message().find("DTL_DEVICE=999, but this process sees ") != std::string_view::npos);
    } else {
      CHECK(env.has_value());  // without HIP, DTL_DEVICE is not read
    }
  }
}

TEST_SUITE("environment_abort_env") {
  TEST_CASE("DTL_ABORT_ON_EXCEPTION must be 0 or 1; an option overrides it") {
    // Set by the test's environment in meson.build: DTL_ABORT_ON_EXCEPTION=sometimes.
    const auto env = dtl::environment::create();
    REQUIRE_FALSE(env.has_value());
    CHECK(env.error() == dtl::status_code::invalid_argument);
    CHECK(env.error().message().find("DTL_ABORT_ON_EXCEPTION") != std::string_view::npos);
    dtl::environment_options options;
    options.abort_on_exception = false;
    CHECK(dtl::environment::create(options).has_value());
  }
}

TEST_SUITE("environment_exception") {
  TEST_CASE("one rank: an environment destroyed by an exception finalises (no other rank waits)") {
    bool ended = false;
    try {
      dtl::environment env;
      REQUIRE(env.rank_count() == 1);
      throw std::runtime_error("thrown inside the environment's scope");
    } catch (const std::runtime_error&) {
      ended = true;
    }
    CHECK(ended);
    // The environment ended normally: a new one can start (MPI itself cannot be initialised twice).
    const auto next = dtl::environment::create();
    CHECK(next.has_value() != dtl::build::has_mpi);
  }
}

TEST_SUITE("communicator_before_mpi") {
  TEST_CASE("upstream's default communicator before MPI starts: no ranks, and every call refused") {
    dtl::mpi::mpi_comm_adapter comm;  // no environment lives and MPI has not started in this process
    CHECK(comm.rank() == dtl::no_rank);
    CHECK(comm.size() == 0);
    int value = 1;
    CHECK_THROWS_AS(comm.send(&value, sizeof value, 0, 0), dtl::communication_error);
    CHECK_THROWS_AS(comm.barrier(), dtl::communication_error);
    // Once an environment lives, a default communicator is its world.
    dtl::environment env;
    dtl::mpi::mpi_comm_adapter world;
    CHECK(world.rank() == 0);
    CHECK(world.size() == env.make_world_context().size());
  }
}
