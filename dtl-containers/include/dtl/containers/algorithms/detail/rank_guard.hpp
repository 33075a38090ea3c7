// SPDX-License-Identifier: MIT
#pragma once
// The guard of an algorithm that has only a rank-local body: it may run on a container of one rank, and
// on one spread over several only when the caller passes a communicator (then the algorithm's
// distributed form runs, not this body). Upstream DTL's name and behaviour: require_... throws; ours
// also has check_..., which returns the status instead. The answer depends on container.num_ranks()
// alone, which every rank of a container agrees on: every rank gets the same outcome, and none waits.

#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>

#include <string>
#include <utility>

namespace dtl::detail {

/// ok for a container on one rank; precondition_failed (naming `api_name`) for one on several.
template <class Container>
[[nodiscard]] status check_collective_comm_or_single_rank(const Container& container, const char* api_name) {
  if (container.num_ranks() <= 1) return {};
  return status{status_code::precondition_failed,
                std::string(api_name) + " requires an explicit communicator when num_ranks() > 1 (" +
                    std::to_string(container.num_ranks()) +
                    " here): pass one (the overload taking Comm&), or call the local_* form for rank-local "
                    "semantics"};
}

/// check_collective_comm_or_single_rank, throwing its error as dtl::status_error (a std::runtime_error).
template <class Container>
void require_collective_comm_or_single_rank(const Container& container, const char* api_name) {
  if (status s = check_collective_comm_or_single_rank(container, api_name); !s.ok()) throw status_error(std::move(s));
}

}  // namespace dtl::detail
