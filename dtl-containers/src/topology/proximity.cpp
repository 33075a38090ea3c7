// SPDX-License-Identifier: MIT
#include <dtl/topology/proximity.hpp>

#include <algorithm>
#include <utility>

namespace dtl::topology {

proximity_matrix::proximity_matrix(size_type n) : n_(n), d_(n * n, max_distance) {
  for (size_type i = 0; i < n; ++i) d_[i * n + i] = local_distance;
}

void proximity_matrix::set_distance(size_type i, size_type j, distance_t d) noexcept {
  if (i >= n_ || j >= n_) return;
  d_[i * n_ + j] = d;
  d_[j * n_ + i] = d;
}

size_type proximity_matrix::nearest(size_type i) const noexcept {
  size_type best = i;
  for (size_type j = 0; j < n_; ++j)
    if (j != i && (best == i || distance(i, j) < distance(i, best))) best = j;
  return best;
}

std::vector<size_type> proximity_matrix::k_nearest(size_type i, size_type k) const {
  if (i >= n_) return {};
  std::vector<std::pair<distance_t, size_type>> others;
  for (size_type j = 0; j < n_; ++j)
    if (j != i) others.emplace_back(distance(i, j), j);
  std::sort(others.begin(), others.end());  // by distance, then index
  std::vector<size_type> out;
  for (size_type m = 0; m < std::min(k, others.size()); ++m) out.push_back(others[m].second);
  return out;
}

std::vector<size_type> proximity_matrix::within_distance(size_type i, distance_t threshold) const {
  std::vector<size_type> out;
  for (size_type j = 0; j < n_; ++j)
    if (distance(i, j) <= threshold) out.push_back(j);
  return out;
}

proximity_matrix build_cpu_proximity(const hardware_topology& topo) {
  proximity_matrix prox(topo.total_cpus);
  for (const numa_node& a : topo.numa_nodes)
    for (const numa_node& b : topo.numa_nodes)
      for (const std::uint32_t i : a.cpu_ids)
        for (const std::uint32_t j : b.cpu_ids)
          if (i != j) prox.set_distance(i, j, a.id == b.id ? adjacent_distance : remote_distance);
  return prox;
}

proximity_matrix build_gpu_proximity(const hardware_topology& topo) {
  proximity_matrix prox(topo.gpus.size());
  for (size_type i = 0; i < topo.gpus.size(); ++i)
    for (size_type j = i + 1; j < topo.gpus.size(); ++j) {
      const auto& a = topo.gpus[i].numa_node;
      const auto& b = topo.gpus[j].numa_node;
      prox.set_distance(i, j, a && b && *a == *b ? adjacent_distance : remote_distance);
    }
  return prox;
}

proximity_matrix build_numa_proximity(const hardware_topology& topo) {
  const size_type n = topo.numa_nodes.size();
  proximity_matrix prox(n);
  const bool from_os = topo.numa_distances.size() == n;
  for (size_type i = 0; i < n; ++i)
    for (size_type j = i + 1; j < n; ++j)
      prox.set_distance(i, j,
                        from_os && topo.numa_distances[i].size() == n ? topo.numa_distances[i][j] : remote_distance);
  return prox;
}

}  // namespace dtl::topology
