// SPDX-License-Identifier: MIT
#pragma once
// What the containers' test cases reach of the session that --requires=ranks:N (or mpi) starts
// (environment_session.cpp): the dtl::environment of the run, kept for the whole run.

#include "doctest.hpp"
#include "under_sanitizer.hpp"

#include <dtl/containers/config.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/environment.hpp>
#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/device.hpp>  // the gpu tests' device queries
#endif

#include <optional>

namespace test_support {

/// The environment of this run (valid inside test cases; a case may end it early).
inline std::optional<dtl::environment>& environment() {
  static std::optional<dtl::environment> env;
  return env;
}

/// A context of every rank, on this rank's device (if any).
inline dtl::context world() { return environment()->make_world_context(); }

using dtl_test::under_sanitizer;

}  // namespace test_support
