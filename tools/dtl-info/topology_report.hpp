// SPDX-License-Identifier: MIT
#pragma once
// dtl-info --topology (topology_report.cpp): the nodes of the job, each node's hardware (CPUs, NUMA
// nodes, GPUs with their PCI bus ids and peer access), and each rank's place: node, local rank, GPU and
// CPU affinity. Run it under mpiexec to see the job's ranks; alone, it is one rank.

#include <dtl/core/status.hpp>

namespace dtl_info {

/// Starts a dtl::environment, gathers every rank's place, and prints the report on rank 0.
dtl::status print_topology(int& argc, char**& argv);

}  // namespace dtl_info
