// SPDX-License-Identifier: MIT
#pragma once
// Private: where the hardware topology comes from. os_linux.cpp reads Linux's sysfs and scheduler;
// gpus_hip.cpp asks the HIP runtime (dtl-hip-mem), gpus_none.cpp (builds without HIP) finds no GPU.

#include <dtl/core/result.hpp>
#include <dtl/topology/affinity.hpp>
#include <dtl/topology/hardware.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dtl::topology::detail {

/// Fills hostname, total_cpus, total_cores, sockets, numa_nodes (without gpu_ids) and numa_distances.
void discover_cpus(hardware_topology& topo);
/// The NUMA node of the PCI device `pci_bus_id` ("0000:c1:00.0"), when the OS tells it.
std::optional<std::uint32_t> numa_node_of_pci(const std::string& pci_bus_id);
/// The GPUs this process sees, and which may access which (gpus and gpu_peers).
void discover_gpus(hardware_topology& topo);

std::string hostname();
result<cpu_set> thread_affinity();
status set_thread_affinity(const cpu_set& cpus);

}  // namespace dtl::topology::detail
