// SPDX-License-Identifier: MIT
// Builds without HIP: no GPU is visible.
#include "topology/discovery.hpp"

namespace dtl::topology::detail {

void discover_gpus(hardware_topology& topo) {
  topo.gpus.clear();
  topo.gpu_peers.clear();
}

}  // namespace dtl::topology::detail
