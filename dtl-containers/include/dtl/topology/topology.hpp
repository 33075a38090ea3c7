// SPDX-License-Identifier: MIT
#pragma once
// Every part of the topology support (upstream DTL's <dtl/topology/topology.hpp>): this node's hardware,
// distances, CPU affinity, ranks by host, and the ranks of a context on their nodes and GPUs.

#include <dtl/topology/affinity.hpp>
#include <dtl/topology/hardware.hpp>
#include <dtl/topology/network.hpp>
#include <dtl/topology/node.hpp>
#include <dtl/topology/proximity.hpp>
