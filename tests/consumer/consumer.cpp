// SPDX-License-Identifier: MIT
#include <dtl/core/format.hpp>
#include <dtl/core/host_memory_space.hpp>

int main() {
  dtl::host_memory_space space;
  auto p = space.allocate(64);
  if (!p.has_value()) return 1;
  space.deallocate(p.value(), 64);
  const auto bad = space.allocate(0);
  fmt::print("consumer: {}\n", bad.error().name());
  return bad.error() == dtl::status_code::invalid_argument ? 0 : 1;
}
