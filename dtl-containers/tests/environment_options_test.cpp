// SPDX-License-Identifier: MIT
// Upstream's environment options (backend ownership) and MPI lifecycle helpers. Each suite is a process
// of its own: MPI starts at most once in a process.
#include "doctest.hpp"

#include <backends/mpi/mpi_lifecycle.hpp>
#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/runtime/runtime_registry.hpp>
#include <dtl/containers/distributed_vector.hpp>

TEST_SUITE("environment_options") {
  TEST_CASE("options this build cannot honour are refused before MPI starts") {
    dtl::environment_options custom;
    int comm = 0;
    custom.mpi.custom_comm = &comm;
    CHECK(dtl::environment::create(custom).error() == dtl::status_code::not_supported);
    dtl::environment_options shmem;
    shmem.shmem.ownership = dtl::backend_ownership::dtl_owns;
    CHECK(dtl::environment::create(shmem).error() == dtl::status_code::backend_not_available);
    dtl::environment_options level;
    level.mpi.thread_level = 7;
    CHECK(dtl::environment::create(level).error() == dtl::status_code::invalid_argument);
    if (!dtl::build::has_cuda) {
      dtl::environment_options cuda;
      cuda.cuda.ownership = dtl::backend_ownership::dtl_owns;
      CHECK(dtl::environment::create(cuda).error() == dtl::status_code::backend_not_available);
    }
    // Adopting MPI needs it running: nobody initialised it in this process.
    const auto adopted = dtl::environment::create(dtl::environment_options::adopt_mpi());
    CHECK(adopted.error() ==
          (dtl::build::has_mpi ? dtl::status_code::invalid_state : dtl::status_code::backend_not_available));
    CHECK_FALSE(dtl::mpi::is_initialized());
    if (dtl::build::has_mpi) CHECK_THROWS_AS(dtl::mpi_domain(), dtl::status_error);  // no environment, no MPI
  }

  TEST_CASE("minimal(): one process that leaves MPI alone") {
    auto& registry = dtl::runtime::runtime_registry::instance();
    CHECK_FALSE(registry.is_initialized());
    CHECK(registry.thread_level() == dtl::thread_support_level::single);
    {
      dtl::environment env(dtl::environment_options::minimal());
      CHECK(registry.ref_count() == 1);
      CHECK_FALSE(registry.has_mpi());
      CHECK(registry.mpi_thread_level() == -1);
      CHECK(std::string_view(registry.mpi_thread_level_name()) == "unknown");
      CHECK(registry.thread_level() == dtl::thread_support_level::multiple);                 // one process
      CHECK(registry.thread_level_for_backend("mpi") == dtl::thread_support_level::single);  // not in use
      CHECK_FALSE(env.has_mpi());
      CHECK_FALSE(env.owns_mpi());
      CHECK(env.rank_count() == 1);
      const auto ctx = env.make_world_context();
      CHECK(ctx.size() == 1);
      dtl::distributed_vector<int> v(10, 2, ctx);
      CHECK(dtl::reduce(v, 0) == 20);
    }
    CHECK(dtl::mpi::get_state() == dtl::mpi::mpi_state::not_initialized);
  }
}

TEST_SUITE("mpi_lifecycle") {
  TEST_CASE("MPI brought up and down by the program, adopted by an environment in between") {
    if (!dtl::build::has_mpi) {
      CHECK(dtl::mpi::initialize(dtl::mpi::thread_levels::funneled, true).error() == dtl::status_code::not_supported);
      CHECK(dtl::mpi::finalize_mpi().error() == dtl::status_code::not_supported);
      return;
    }
    CHECK(dtl::mpi::get_state() == dtl::mpi::mpi_state::not_initialized);
    CHECK(dtl::mpi::query_thread_level().error() == dtl::status_code::invalid_state);
    CHECK(dtl::mpi::verify_initialized().error() == dtl::status_code::invalid_state);
    CHECK(dtl::mpi::finalize_mpi().error() == dtl::status_code::invalid_state);
    CHECK(dtl::mpi::initialize(9, true).error() == dtl::status_code::invalid_argument);

    const auto granted = dtl::mpi::initialize(dtl::mpi::thread_levels::serialized, true);
    REQUIRE(granted.has_value());
    CHECK(dtl::mpi::query_thread_level().value() == *granted);
    CHECK(dtl::mpi::initialize(dtl::mpi::thread_levels::single, false).value() == *granted);  // already running
    CHECK(dtl::mpi::verify_initialized().has_value());
    {
      dtl::environment env(dtl::environment_options::adopt_mpi());
      CHECK_FALSE(env.owns_mpi());
      CHECK(env.mpi_thread_level() == *granted);
      const auto& registry = dtl::runtime::runtime_registry::instance();
      CHECK(registry.has_mpi());
      CHECK(registry.mpi_thread_level() == *granted);
      CHECK(registry.thread_level_for_backend("mpi") == dtl::from_mpi_thread_level(*granted));
      CHECK(registry.thread_level_for_backend("shmem") == dtl::thread_support_level::single);
      CHECK(dtl::mpi::finalize_mpi().error() == dtl::status_code::invalid_state);  // the environment uses it
      const auto ctx = env.make_world_context();
      CHECK(ctx.allreduce_value(1, dtl::reduce_op::sum).value() == ctx.size());
    }
    CHECK(dtl::mpi::get_state() == dtl::mpi::mpi_state::initialized);  // adopted, so left running
    {
      // Upstream's default domain: no environment lives, so it adopts the running MPI for its lifetime.
      dtl::mpi_domain world;
      CHECK(world.valid());
      CHECK(world.rank() < world.size());
      CHECK(dtl::environment::is_initialized());
      dtl::mpi_domain copy = world;
      CHECK(copy.communicator().dtl_context().allreduce_value(1, dtl::reduce_op::sum).value() == world.size());
    }
    CHECK_FALSE(dtl::environment::is_initialized());
    CHECK(dtl::mpi::finalize_mpi().has_value());
    CHECK(dtl::mpi::get_state() == dtl::mpi::mpi_state::finalized);
    CHECK(dtl::mpi::is_initialized());
    CHECK(dtl::mpi::initialize(dtl::mpi::thread_levels::single, true).error() == dtl::status_code::invalid_state);
  }
}
