// SPDX-License-Identifier: MIT
#pragma once
// Which CPUs the calling thread may run on (upstream DTL's <dtl/topology/affinity.hpp> names): a CPU set,
// reading and setting the affinity (Linux's sched_getaffinity / sched_setaffinity), and a guard that
// puts it back.
//
//   dtl::topology::scoped_affinity pin(dtl::topology::cpu_set(0, 3));  // CPUs 0-3 until the scope ends
//   auto mine = dtl::topology::get_affinity();                          // result<cpu_set>

#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>
#include <dtl/topology/hardware.hpp>

#include <bitset>
#include <cstdint>
#include <vector>

namespace dtl::topology {

/// A set of CPU ids in [0, max_cpus); ids past it are ignored (add) or absent (contains).
class cpu_set {
 public:
  static constexpr size_type max_cpus = 1024;

  cpu_set() = default;
  explicit cpu_set(std::uint32_t cpu) { add(cpu); }
  /// CPUs first..last, both included.
  cpu_set(std::uint32_t first, std::uint32_t last) {
    for (std::uint64_t c = first; c <= last && c < max_cpus; ++c) add(static_cast<std::uint32_t>(c));
  }
  explicit cpu_set(const std::vector<std::uint32_t>& cpus) {
    for (const std::uint32_t c : cpus) add(c);
  }

  void add(std::uint32_t cpu) {
    if (cpu < max_cpus) bits_.set(cpu);
  }
  void remove(std::uint32_t cpu) {
    if (cpu < max_cpus) bits_.reset(cpu);
  }
  void clear() noexcept { bits_.reset(); }
  [[nodiscard]] bool contains(std::uint32_t cpu) const noexcept { return cpu < max_cpus && bits_.test(cpu); }
  [[nodiscard]] bool empty() const noexcept { return bits_.none(); }
  [[nodiscard]] size_type count() const noexcept { return bits_.count(); }
  /// The lowest CPU in the set, or max_cpus when it is empty.
  [[nodiscard]] std::uint32_t first() const noexcept {
    for (std::uint32_t c = 0; c < max_cpus; ++c)
      if (bits_.test(c)) return c;
    return static_cast<std::uint32_t>(max_cpus);
  }
  /// The CPUs in ascending order.
  [[nodiscard]] std::vector<std::uint32_t> to_vector() const {
    std::vector<std::uint32_t> cpus;
    for (std::uint32_t c = 0; c < max_cpus; ++c)
      if (bits_.test(c)) cpus.push_back(c);
    return cpus;
  }

  friend cpu_set operator|(const cpu_set& a, const cpu_set& b) noexcept { return cpu_set(a.bits_ | b.bits_); }
  friend cpu_set operator&(const cpu_set& a, const cpu_set& b) noexcept { return cpu_set(a.bits_ & b.bits_); }
  /// The CPUs of `a` that are not in `b`.
  friend cpu_set operator-(const cpu_set& a, const cpu_set& b) noexcept { return cpu_set(a.bits_ & ~b.bits_); }
  friend bool operator==(const cpu_set& a, const cpu_set& b) noexcept { return a.bits_ == b.bits_; }

 private:
  explicit cpu_set(const std::bitset<max_cpus>& bits) noexcept : bits_(bits) {}
  std::bitset<max_cpus> bits_;
};

/// The CPUs the calling thread may run on; backend_error when the OS does not say.
[[nodiscard]] DTL_CONTAINERS_API result<cpu_set> get_affinity();
/// Restricts the calling thread to `cpus`: invalid_argument for an empty set, backend_error when the OS
/// refuses (a CPU outside the process's cpuset, say).
DTL_CONTAINERS_API result<void> set_affinity(const cpu_set& cpus);
/// set_affinity() to the CPUs of NUMA node `node` (invalid_argument for a node that does not exist).
DTL_CONTAINERS_API result<void> bind_to_numa_node(std::uint32_t node);
DTL_CONTAINERS_API result<void> bind_to_cpu(std::uint32_t cpu);

/// Sets the calling thread's affinity and restores the one it had when destroyed. Failures of either
/// step leave the affinity as it was (they are not reported: use set_affinity() to see them). Belongs
/// to the thread that made it.
class DTL_CONTAINERS_API scoped_affinity {
 public:
  explicit scoped_affinity(const cpu_set& cpus);
  explicit scoped_affinity(std::uint32_t cpu) : scoped_affinity(cpu_set(cpu)) {}
  scoped_affinity(const scoped_affinity&) = delete;
  scoped_affinity& operator=(const scoped_affinity&) = delete;
  scoped_affinity(scoped_affinity&& other) noexcept;
  scoped_affinity& operator=(scoped_affinity&& other) noexcept;
  ~scoped_affinity();

  /// The affinity to restore (empty when it could not be read: then nothing is restored).
  [[nodiscard]] const cpu_set& original() const noexcept { return original_; }

 private:
  void restore() noexcept;
  cpu_set original_;
  bool saved_ = false;
};

}  // namespace dtl::topology
