// SPDX-License-Identifier: MIT
#pragma once
// The ranks of a context on their nodes: which node each rank runs on, its rank among the context's
// ranks there, and the GPU it uses, by PCI bus id, so that ranks sharing one GPU are known.
//
//   auto layout = dtl::topology::node_layout::of(ctx).value();   // collective over ctx
//   layout.node_count(), layout.local_rank(), layout.same_gpu(ctx.rank(), peer)
//
// A node is what MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups: the ranks that can share memory
// (ctx.node_local() is this rank's node as a context). Nodes are numbered 0.. in the order of their
// lowest rank; local ranks 0.. in rank order. Without MPI there is one rank on one node.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/result.hpp>

#include <string>
#include <vector>

namespace dtl::topology {

/// Where one rank of a context runs.
struct rank_place {
  int node = 0;
  int local_rank = 0;
  int device = no_device;  // the rank's context's device, in that process's numbering
  std::string pci_bus_id;  // that GPU's ("0000:c1:00.0"), or "" without one
  std::string hostname;
};

class DTL_CONTAINERS_API node_layout {
 public:
  /// The layout of `ctx`'s ranks (collective over ctx: makes ctx.node_local() on its first call, then one
  /// allgather).
  [[nodiscard]] static result<node_layout> of(const context& ctx);

  [[nodiscard]] int rank_count() const noexcept { return static_cast<int>(places_.size()); }
  [[nodiscard]] int node_count() const noexcept { return static_cast<int>(node_ranks_.size()); }
  /// The calling rank's node, its local rank, and how many of the context's ranks share its node.
  [[nodiscard]] int node() const noexcept { return node_of(rank_); }
  [[nodiscard]] int local_rank() const noexcept { return local_rank_of(rank_); }
  [[nodiscard]] int local_rank_count() const noexcept { return ranks_per_node(node()); }

  /// Rank r's place; r must be in [0, rank_count()).
  [[nodiscard]] const rank_place& place(int r) const { return places_.at(static_cast<std::size_t>(r)); }
  /// -1 for a rank outside the context.
  [[nodiscard]] int node_of(int r) const noexcept;
  [[nodiscard]] int local_rank_of(int r) const noexcept;
  /// The ranks on node n, ascending (empty for a node that does not exist).
  [[nodiscard]] std::vector<int> ranks_on_node(int n) const;
  [[nodiscard]] int ranks_per_node(int n) const noexcept;
  [[nodiscard]] bool same_node(int a, int b) const noexcept;
  /// Both ranks use one GPU: the same node and the same PCI bus id.
  [[nodiscard]] bool same_gpu(int a, int b) const noexcept;
  /// The ranks that use r's GPU (r included), ascending; empty when r has none.
  [[nodiscard]] std::vector<int> ranks_sharing_gpu(int r) const;

 private:
  int rank_ = 0;
  std::vector<rank_place> places_;            // by rank
  std::vector<std::vector<int>> node_ranks_;  // by node
};

}  // namespace dtl::topology
