// SPDX-License-Identifier: MIT
// Choosing a pool's backing: names, parsing, and the order of precedence (see hip_pool_memory_space.hpp).
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <fmt/format.h>

namespace dtl::hip {

std::string_view pool_backing_name(pool_backing backing) noexcept {
  switch (backing) {
    case pool_backing::automatic: return "automatic";
    case pool_backing::runtime: return "runtime";
    case pool_backing::caching: return "caching";
    case pool_backing::direct: return "direct";
  }
  return "unknown_pool_backing";
}

result<pool_backing> parse_pool_backing(std::string_view text) {
  for (const pool_backing b :
       {pool_backing::automatic, pool_backing::runtime, pool_backing::caching, pool_backing::direct}) {
    if (text == pool_backing_name(b)) return b;
  }
  if (text == "auto") return pool_backing::automatic;
  return status(status_code::invalid_argument,
                fmt::format("'{}' is not a pool backing (automatic, runtime, caching or direct)", text));
}

result<pool_backing> select_pool_backing(pool_backing requested, std::string_view environment,
                                         bool runtime_pools_supported, bool platform_prefers_runtime) {
  pool_backing chosen = requested;
  if (chosen == pool_backing::automatic && !environment.empty()) {
    result<pool_backing> from_environment = parse_pool_backing(environment);
    if (!from_environment.has_value())
      return status(status_code::invalid_argument,
                    fmt::format("{}: {}", pool_backing_environment, from_environment.error().message()));
    chosen = *from_environment;
  }
  switch (chosen) {
    case pool_backing::automatic:
      return runtime_pools_supported && platform_prefers_runtime ? pool_backing::runtime : pool_backing::caching;
    case pool_backing::runtime:
      if (!runtime_pools_supported)
        return status(status_code::not_supported,
                      "the runtime pool backing was asked for, but the device has no stream-ordered memory pools "
                      "(hipDeviceAttributeMemoryPoolsSupported = 0); use caching or direct");
      return chosen;
    case pool_backing::caching:
    case pool_backing::direct: return chosen;
  }
  return status(status_code::invalid_argument, fmt::format("unknown pool_backing {}", static_cast<int>(requested)));
}

}  // namespace dtl::hip
