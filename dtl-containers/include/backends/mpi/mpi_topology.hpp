// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's node-awareness names at its include path (dtl::mpi::mpi_topology and its tables),
// over a context's node_layout (<dtl/topology/node.hpp>): nodes are what MPI_Comm_split_type's shared
// split groups. Where upstream takes an MPI_Comm, ours takes a context (mpi_topology::discover); its
// node communicator is ctx.node_local(). Installed under include/dtl-hip/, as mpi_comm_adapter.hpp.
//
//   auto topo = dtl::mpi::mpi_topology::discover(ctx).value();   // collective over ctx
//   if (topo.can_use_shared_memory(ctx.rank(), peer)) { ... }

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/core/types.hpp>
#include <dtl/topology/node.hpp>

#include <string>
#include <utility>
#include <vector>

namespace dtl::mpi {

/// One node: its index, its host name, its ranks (ascending).
struct node_info {
  size_type node_id = 0;
  std::string node_name;
  std::vector<rank_t> local_ranks;
  [[nodiscard]] rank_t num_local_ranks() const noexcept { return static_cast<rank_t>(local_ranks.size()); }
};

/// Every rank's node and local rank (indexed by rank), and every node's ranks.
struct topology_info {
  rank_t world_size = 0;
  size_type num_nodes = 0;
  std::vector<node_info> nodes;
  std::vector<size_type> rank_to_node;
  std::vector<rank_t> rank_to_local;
};

class mpi_topology {
 public:
  /// No ranks (world_size() 0).
  mpi_topology() = default;
  explicit mpi_topology(const topology::node_layout& layout) {
    info_.world_size = layout.rank_count();
    info_.num_nodes = static_cast<size_type>(layout.node_count());
    for (int n = 0; n < layout.node_count(); ++n) {
      const std::vector<int> ranks = layout.ranks_on_node(n);
      info_.nodes.push_back({static_cast<size_type>(n), layout.place(ranks.front()).hostname, ranks});
    }
    for (int r = 0; r < layout.rank_count(); ++r) {
      info_.rank_to_node.push_back(static_cast<size_type>(layout.node_of(r)));
      info_.rank_to_local.push_back(layout.local_rank_of(r));
    }
  }
  /// The topology of `ctx`'s ranks (collective over ctx: topology::node_layout::of).
  [[nodiscard]] static result<mpi_topology> discover(const context& ctx) {
    DTL_ASSIGN_OR_RETURN(const topology::node_layout layout, topology::node_layout::of(ctx));
    return mpi_topology(layout);
  }

  [[nodiscard]] const topology_info& info() const noexcept { return info_; }
  [[nodiscard]] size_type num_nodes() const noexcept { return info_.num_nodes; }
  [[nodiscard]] rank_t world_size() const noexcept { return info_.world_size; }
  /// Rank r's node, or 0 for a rank outside the topology (upstream's answer).
  [[nodiscard]] size_type node_of(rank_t r) const noexcept { return in_range(r) ? info_.rank_to_node[index(r)] : 0; }
  /// Rank r's local rank, or 0 for a rank outside the topology.
  [[nodiscard]] rank_t local_rank_of(rank_t r) const noexcept {
    return in_range(r) ? info_.rank_to_local[index(r)] : 0;
  }
  [[nodiscard]] bool same_node(rank_t a, rank_t b) const noexcept { return node_of(a) == node_of(b); }
  /// Node n's ranks; empty for a node that does not exist.
  [[nodiscard]] const std::vector<rank_t>& ranks_on_node(size_type n) const { return get_node_info(n).local_ranks; }
  [[nodiscard]] const node_info& get_node_info(size_type n) const {
    static const node_info none;
    return n < info_.nodes.size() ? info_.nodes[n] : none;
  }
  /// Ranks of one node may share memory.
  [[nodiscard]] bool can_use_shared_memory(rank_t a, rank_t b) const noexcept { return same_node(a, b); }
  /// A relative cost: 1 within a node, 10 between nodes.
  [[nodiscard]] double comm_cost_estimate(rank_t a, rank_t b) const noexcept { return same_node(a, b) ? 1.0 : 10.0; }

 private:
  [[nodiscard]] bool in_range(rank_t r) const noexcept { return r >= 0 && r < info_.world_size; }
  [[nodiscard]] static size_type index(rank_t r) noexcept { return static_cast<size_type>(r); }
  topology_info info_;
};

/// A placement order for the ranks: position i holds rank ordering[i]. The ranks of each node stay
/// together, nodes in order, each node's ranks by local rank; for the usual block placement this is the
/// identity. The communication pattern is not consulted (upstream's order is the identity too).
[[nodiscard]] inline std::vector<rank_t> optimize_rank_ordering(const mpi_topology& topo,
                                                                const std::vector<std::pair<rank_t, rank_t>>&) {
  std::vector<rank_t> ordering;
  for (const node_info& node : topo.info().nodes)
    ordering.insert(ordering.end(), node.local_ranks.begin(), node.local_ranks.end());
  return ordering;
}

/// num_nodes() x num_nodes() relative costs: 1 within a node, 10 between nodes.
[[nodiscard]] inline std::vector<std::vector<double>> comm_volume_matrix(const mpi_topology& topo) {
  std::vector<std::vector<double>> cost(topo.num_nodes(), std::vector<double>(topo.num_nodes(), 10.0));
  for (size_type n = 0; n < topo.num_nodes(); ++n) cost[n][n] = 1.0;
  return cost;
}

}  // namespace dtl::mpi
