// SPDX-License-Identifier: MIT
#pragma once
// The world that upstream's default-constructed communicators and domains (mpi_comm_adapter{},
// world_comm(), mpi_domain()) stand for, one rule for all of them:
// - the live environment's world, when an environment lives;
// - else, where the program runs MPI itself, an environment made here that adopts MPI
//   (environment_options::adopt_mpi(); a build without MPI: one process), kept alive by its holders;
// - else (before MPI starts) nothing: try_make_implicit_world() fails, and the communicators hold an
//   empty context instead (rank no_rank, size 0, every transfer invalid_state), as upstream's give
//   sentinel values before MPI_Init.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <memory>
#include <utility>

namespace dtl::detail {

/// A context of every rank of the live environment, on its device (collective); invalid_state without one.
[[nodiscard]] DTL_CONTAINERS_API result<context> try_make_current_world_context();
/// A context with no ranks (rank -1, size 0; its calls fail with invalid_state).
[[nodiscard]] DTL_CONTAINERS_API context make_empty_context() noexcept;

/// The ranks of the world with what keeps them usable: `environment` is null when the live
/// environment's world was taken, else the environment made here.
struct implicit_world {
  std::shared_ptr<dtl::environment> environment;
  context world;
};

[[nodiscard]] inline result<implicit_world> try_make_implicit_world() {
  if (result<context> live = try_make_current_world_context(); live) return implicit_world{nullptr, std::move(*live)};
  const environment_options options = build::has_mpi ? environment_options::adopt_mpi() : environment_options{};
  result<dtl::environment> made = dtl::environment::create(options);
  if (!made) return std::move(made).error().with_context("no dtl::environment is alive, and MPI is not running");
  auto owner = std::make_shared<dtl::environment>(std::move(made).value());
  result<context> world = owner->try_make_world_context();
  if (!world) return std::move(world).error();
  return implicit_world{std::move(owner), std::move(world).value()};
}

/// try_make_implicit_world(), or an empty world where neither an environment nor MPI runs yet.
[[nodiscard]] inline result<implicit_world> make_implicit_world_or_empty(bool mpi_started) {
  result<implicit_world> world = try_make_implicit_world();
  if (world || mpi_started) return world;
  return implicit_world{nullptr, make_empty_context()};
}

}  // namespace dtl::detail
