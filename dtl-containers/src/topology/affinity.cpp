// SPDX-License-Identifier: MIT
#include "topology/discovery.hpp"

#include <dtl/topology/affinity.hpp>

#include <string>
#include <utility>

namespace dtl::topology {

result<cpu_set> get_affinity() { return detail::thread_affinity(); }

result<void> set_affinity(const cpu_set& cpus) {
  if (cpus.empty()) return status(status_code::invalid_argument, "set_affinity: the CPU set is empty");
  return detail::set_thread_affinity(cpus);
}

result<void> bind_to_numa_node(std::uint32_t node) {
  const std::vector<std::uint32_t> cpus = cpus_on_numa_node(node);
  if (cpus.empty())
    return status(status_code::invalid_argument,
                  "bind_to_numa_node: NUMA node " + std::to_string(node) + " does not exist or has no CPU");
  return set_affinity(cpu_set(cpus));
}

result<void> bind_to_cpu(std::uint32_t cpu) { return set_affinity(cpu_set(cpu)); }

scoped_affinity::scoped_affinity(const cpu_set& cpus) {
  if (result<cpu_set> now = get_affinity()) {
    original_ = std::move(*now);
    saved_ = true;
  }
  static_cast<void>(set_affinity(cpus));  // a refusal leaves the affinity as it was (see the header)
}

scoped_affinity::scoped_affinity(scoped_affinity&& other) noexcept
    : original_(other.original_), saved_(std::exchange(other.saved_, false)) {}

scoped_affinity& scoped_affinity::operator=(scoped_affinity&& other) noexcept {
  if (this != &other) {
    restore();
    original_ = other.original_;
    saved_ = std::exchange(other.saved_, false);
  }
  return *this;
}

scoped_affinity::~scoped_affinity() { restore(); }

void scoped_affinity::restore() noexcept {
  if (saved_) static_cast<void>(set_affinity(original_));
  saved_ = false;
}

}  // namespace dtl::topology
