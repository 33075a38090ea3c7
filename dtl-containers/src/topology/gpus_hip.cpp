// SPDX-License-Identifier: MIT
// The GPUs this process sees, from the HIP runtime (dtl-hip-mem's device layer), asking nothing that
// needs a context on a device: every rank reads every GPU of its node.
#include "topology/discovery.hpp"

#include <dtl/hip/device.hpp>

namespace dtl::topology::detail {

void discover_gpus(hardware_topology& topo) {
  const int count = hip::device_count();
  for (int id = 0; id < count; ++id) {
    const result<hip::device_properties> props = hip::get_static_device_properties(id);
    if (!props) continue;  // a device that cannot be queried is left out, as the OS's unknowns are
    gpu_device gpu;
    gpu.id = static_cast<std::uint32_t>(id);
    gpu.name = props->name;
    gpu.memory_bytes = props->total_memory;
    gpu.compute_capability_major = static_cast<std::uint32_t>(props->compute_major);
    gpu.compute_capability_minor = static_cast<std::uint32_t>(props->compute_minor);
    gpu.pci_bus_id = props->pci_bus_id;
    gpu.numa_node = numa_node_of_pci(gpu.pci_bus_id);
    topo.gpus.push_back(std::move(gpu));
  }
  const std::size_t n = topo.gpus.size();
  topo.gpu_peers.assign(n, std::vector<bool>(n, false));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const result<bool> can =
          hip::can_access_peer(static_cast<int>(topo.gpus[i].id), static_cast<int>(topo.gpus[j].id));
      topo.gpu_peers[i][j] = can && *can;
    }
}

}  // namespace dtl::topology::detail
