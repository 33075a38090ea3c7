// SPDX-License-Identifier: MIT
#include "topology/discovery.hpp"

#include <dtl/topology/hardware.hpp>

#include <algorithm>

namespace dtl::topology {

namespace {

hardware_topology& kept() {
  static hardware_topology topo = discover_local();
  return topo;
}

const numa_node* find_node(std::uint32_t node) {
  const auto& nodes = local_topology().numa_nodes;
  const auto found = std::find_if(nodes.begin(), nodes.end(), [&](const numa_node& n) { return n.id == node; });
  return found == nodes.end() ? nullptr : &*found;
}

}  // namespace

hardware_topology discover_local() {
  hardware_topology topo;
  detail::discover_cpus(topo);
  detail::discover_gpus(topo);
  for (const gpu_device& gpu : topo.gpus) {
    if (!gpu.numa_node) continue;
    for (numa_node& n : topo.numa_nodes)
      if (n.id == *gpu.numa_node) n.gpu_ids.push_back(gpu.id);
  }
  return topo;
}

const hardware_topology& local_topology() { return kept(); }

const hardware_topology& refresh_local_topology() {
  kept() = discover_local();
  return kept();
}

std::uint32_t cpu_count() { return local_topology().total_cpus; }
std::uint32_t numa_node_count() { return static_cast<std::uint32_t>(local_topology().numa_nodes.size()); }
std::uint32_t gpu_count() { return static_cast<std::uint32_t>(local_topology().gpus.size()); }

std::vector<std::uint32_t> cpus_on_numa_node(std::uint32_t node) {
  const numa_node* n = find_node(node);
  return n != nullptr ? n->cpu_ids : std::vector<std::uint32_t>{};
}

std::uint32_t numa_node_for_cpu(std::uint32_t cpu) {
  for (const numa_node& n : local_topology().numa_nodes)
    if (std::binary_search(n.cpu_ids.begin(), n.cpu_ids.end(), cpu)) return n.id;
  return 0;
}

std::vector<std::uint32_t> gpus_on_numa_node(std::uint32_t node) {
  const numa_node* n = find_node(node);
  return n != nullptr ? n->gpu_ids : std::vector<std::uint32_t>{};
}

}  // namespace dtl::topology
