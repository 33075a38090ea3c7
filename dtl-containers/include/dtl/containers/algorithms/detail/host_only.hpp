// SPDX-License-Identifier: MIT
#pragma once
// The device body of an algorithm that runs on host placements only: not_supported, saying so (under
// async a failed future). Not for users.

#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/core/result.hpp>

#include <string>

namespace dtl::detail {

template <class Pol, class R>
auto host_only_outcome(const char* name) {
  return failed_outcome<Pol, R>(
      status(status_code::not_supported, std::string(name) +
                                             ": not on device placements yet; copy the elements to a host placement "
                                             "(dtl::copy into a dtl::host_only vector), call it there, and copy back"));
}

}  // namespace dtl::detail
