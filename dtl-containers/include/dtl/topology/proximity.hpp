// SPDX-License-Identifier: MIT
#pragma once
// Distances between CPUs, NUMA nodes, GPUs or ranks (upstream DTL's <dtl/topology/proximity.hpp> names):
// a symmetric matrix, lower is closer, and builders from a hardware_topology.
//
//   auto prox = dtl::topology::build_numa_proximity(dtl::topology::local_topology());
//   auto closest = prox.k_nearest(0, 2);   // the two NUMA nodes nearest node 0

#include <dtl/containers/export.hpp>
#include <dtl/core/types.hpp>
#include <dtl/topology/hardware.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace dtl::topology {

using distance_t = std::uint32_t;

inline constexpr distance_t local_distance = 0;      // an element and itself
inline constexpr distance_t adjacent_distance = 10;  // the same NUMA node, the same host
inline constexpr distance_t remote_distance = 20;    // another NUMA node of the same host
inline constexpr distance_t network_distance = 100;  // another host
inline constexpr distance_t max_distance = std::numeric_limits<distance_t>::max();  // unknown, unreachable

/// n x n distances, local_distance on the diagonal and max_distance elsewhere until set. Indices past
/// the size read max_distance and are ignored by set_distance.
class DTL_CONTAINERS_API proximity_matrix {
 public:
  proximity_matrix() = default;
  explicit proximity_matrix(size_type n);

  [[nodiscard]] size_type size() const noexcept { return n_; }
  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  [[nodiscard]] distance_t distance(size_type i, size_type j) const noexcept {
    return i < n_ && j < n_ ? d_[i * n_ + j] : max_distance;
  }
  /// Sets the distance between i and j, both ways.
  void set_distance(size_type i, size_type j, distance_t d) noexcept;

  /// The element nearest i other than i (the lowest index among equals); i itself when it has no other.
  [[nodiscard]] size_type nearest(size_type i) const noexcept;
  /// Up to k elements other than i, nearest first (ties by index); empty for an i past the size.
  [[nodiscard]] std::vector<size_type> k_nearest(size_type i, size_type k) const;
  /// Every element (i included) at most `threshold` from i, by index.
  [[nodiscard]] std::vector<size_type> within_distance(size_type i, distance_t threshold) const;

 private:
  size_type n_ = 0;
  std::vector<distance_t> d_;
};

/// CPUs (total_cpus of them): adjacent_distance within a NUMA node, remote_distance across nodes.
[[nodiscard]] DTL_CONTAINERS_API proximity_matrix build_cpu_proximity(const hardware_topology& topo);
/// GPUs: adjacent_distance on one NUMA node, remote_distance otherwise (or where a node is unknown).
[[nodiscard]] DTL_CONTAINERS_API proximity_matrix build_gpu_proximity(const hardware_topology& topo);
/// NUMA nodes, by index in topo.numa_nodes: the OS's distances when it gives them, else remote_distance.
[[nodiscard]] DTL_CONTAINERS_API proximity_matrix build_numa_proximity(const hardware_topology& topo);

}  // namespace dtl::topology
