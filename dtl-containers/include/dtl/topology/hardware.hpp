// SPDX-License-Identifier: MIT
#pragma once
// The hardware of this node, as this process sees it (upstream DTL's <dtl/topology/hardware.hpp> names):
// its CPUs, NUMA nodes and GPUs, read once and kept (local_topology()).
//
//   const auto& topo = dtl::topology::local_topology();
//   topo.total_cpus, topo.num_numa_nodes(), topo.gpus[0].pci_bus_id
//
// Where it comes from: Linux's /sys/devices/system/{cpu,node} (CPUs, cores, sockets, NUMA nodes, their
// memory and distances), the HIP runtime through dtl-hip-mem (the GPUs this process sees, with their PCI
// bus ids and which may access which), and sysfs again for each GPU's NUMA node. What the OS does not
// tell is left out: a machine without /sys/devices/system/node has one NUMA node with every CPU. A
// build without HIP, or a process that sees no GPU, has no GPUs. The ranks of a context on the nodes:
// <dtl/topology/node.hpp>.

#include <dtl/containers/export.hpp>
#include <dtl/core/types.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dtl::topology {

/// A physical package (/sys/devices/system/cpu/cpuN/topology/physical_package_id).
struct cpu_socket {
  std::uint32_t id = 0;
  std::uint32_t num_cores = 0;    // physical cores
  std::uint32_t num_threads = 0;  // logical CPUs (hardware threads)
  std::vector<std::uint32_t> numa_nodes;
};

struct numa_node {
  std::uint32_t id = 0;
  std::uint64_t memory_bytes = 0;      // MemTotal of the node's meminfo; 0 when unknown
  std::vector<std::uint32_t> cpu_ids;  // ascending
  std::vector<std::uint32_t> gpu_ids;  // the GPUs whose PCI device sits on this node
};

struct gpu_device {
  std::uint32_t id = 0;  // the HIP device id in this process
  std::string name;
  std::uint64_t memory_bytes = 0;
  std::optional<std::uint32_t> numa_node;  // when sysfs tells it
  std::uint32_t compute_capability_major = 0;
  std::uint32_t compute_capability_minor = 0;
  std::string pci_bus_id;  // "0000:c1:00.0": the same GPU has the same id in every process of the node
};

struct hardware_topology {
  std::string hostname;
  std::uint32_t total_cpus = 0;   // logical CPUs online
  std::uint32_t total_cores = 0;  // physical cores
  std::vector<cpu_socket> sockets;
  std::vector<numa_node> numa_nodes;
  std::vector<gpu_device> gpus;
  /// numa_distances[i][j]: the distance (Linux's SLIT units, 10 = local) from NUMA node i to node j;
  /// empty when unknown.
  std::vector<std::vector<std::uint32_t>> numa_distances;
  /// gpu_peers[i][j]: GPU i can access GPU j's memory directly (hipDeviceCanAccessPeer); true on the
  /// diagonal. gpus.size() rows of gpus.size() entries.
  std::vector<std::vector<bool>> gpu_peers;

  /// Nothing discovered (a default-constructed topology).
  [[nodiscard]] bool empty() const noexcept { return total_cpus == 0; }
  [[nodiscard]] size_type num_numa_nodes() const noexcept { return numa_nodes.size(); }
  [[nodiscard]] size_type num_gpus() const noexcept { return gpus.size(); }
  [[nodiscard]] bool has_numa() const noexcept { return numa_nodes.size() > 1; }
  [[nodiscard]] bool has_gpus() const noexcept { return !gpus.empty(); }
};

/// Reads this node's hardware now (see the top of this file). Never fails: what cannot be read is left out.
[[nodiscard]] DTL_CONTAINERS_API hardware_topology discover_local();
/// discover_local()'s result, read on the first call and kept for the process.
[[nodiscard]] DTL_CONTAINERS_API const hardware_topology& local_topology();
/// Reads the hardware again into what local_topology() returns (one thread at a time: references to it
/// see the new values).
DTL_CONTAINERS_API const hardware_topology& refresh_local_topology();

// Shortcuts over local_topology().
[[nodiscard]] DTL_CONTAINERS_API std::uint32_t cpu_count();
[[nodiscard]] DTL_CONTAINERS_API std::uint32_t numa_node_count();
[[nodiscard]] DTL_CONTAINERS_API std::uint32_t gpu_count();
/// The CPUs of NUMA node `node`; empty for a node that does not exist.
[[nodiscard]] DTL_CONTAINERS_API std::vector<std::uint32_t> cpus_on_numa_node(std::uint32_t node);
/// The NUMA node of `cpu`; 0 for a CPU no node lists.
[[nodiscard]] DTL_CONTAINERS_API std::uint32_t numa_node_for_cpu(std::uint32_t cpu);
/// The GPUs on NUMA node `node`; empty for a node that does not exist.
[[nodiscard]] DTL_CONTAINERS_API std::vector<std::uint32_t> gpus_on_numa_node(std::uint32_t node);

}  // namespace dtl::topology
