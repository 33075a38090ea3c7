// SPDX-License-Identifier: MIT
#pragma once
// Ranks by host name (upstream DTL's <dtl/topology/network.hpp> names): which ranks share a host, and a
// rank proximity matrix from that. A host name is what gethostname() says; two ranks on one node whose
// processes see different names (containers) count as two hosts here. The node as MPI sees it (shared
// memory), with local ranks and GPUs: <dtl/topology/node.hpp>.
//
//   auto hosts = dtl::topology::gather_hostnames(ctx).value();   // collective over ctx
//   if (hosts.same_node(ctx.rank(), peer)) { ... }

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/types.hpp>
#include <dtl/topology/proximity.hpp>

#include <string>
#include <unordered_map>
#include <vector>

namespace dtl::topology {

/// This process's host name; "unknown" when the OS does not say.
[[nodiscard]] DTL_CONTAINERS_API std::string get_hostname();

/// The host of each rank (ranks 0..size()-1).
class DTL_CONTAINERS_API rank_host_map {
 public:
  rank_host_map() = default;
  /// hostnames[r]: rank r's host.
  explicit rank_host_map(std::vector<std::string> hostnames);

  [[nodiscard]] size_type size() const noexcept { return hosts_.size(); }
  /// Rank r's host, or "" for a rank outside the map.
  [[nodiscard]] std::string hostname_for_rank(rank_t r) const;
  /// Both ranks are in the map and on one host.
  [[nodiscard]] bool same_node(rank_t a, rank_t b) const;
  /// The ranks on r's host (r included), ascending; {r} for a rank outside the map.
  [[nodiscard]] std::vector<rank_t> ranks_on_same_node(rank_t r) const;
  /// Every rank: r's host first, then the others, each part ascending.
  [[nodiscard]] std::vector<rank_t> ranks_by_proximity(rank_t r) const;
  /// The distinct hosts, in the order of their lowest rank.
  [[nodiscard]] std::vector<std::string> unique_hosts() const;
  [[nodiscard]] size_type num_hosts() const noexcept { return ranks_of_host_.size(); }

 private:
  std::vector<std::string> hosts_;
  std::unordered_map<std::string, std::vector<rank_t>> ranks_of_host_;
};

/// adjacent_distance between ranks of one host, network_distance between hosts.
[[nodiscard]] DTL_CONTAINERS_API proximity_matrix build_rank_proximity(const rank_host_map& host_map);

/// Every rank's host name, from every rank of `ctx` (collective; one allgather).
[[nodiscard]] DTL_CONTAINERS_API result<rank_host_map> gather_hostnames(const context& ctx);

/// Hosts and how many ranks each has.
struct topology_summary {
  size_type num_hosts = 0;
  size_type num_ranks = 0;
  size_type ranks_per_host_min = 0;
  size_type ranks_per_host_max = 0;
  std::vector<std::string> host_names;  // unique_hosts()' order
  std::vector<size_type> ranks_per_host;
};
[[nodiscard]] DTL_CONTAINERS_API topology_summary analyze_topology(const rank_host_map& host_map);

inline bool ranks_colocated(const rank_host_map& host_map, rank_t a, rank_t b) { return host_map.same_node(a, b); }
/// The ranks on r's host (r included).
inline std::vector<rank_t> local_ranks(const rank_host_map& host_map, rank_t r) {
  return host_map.ranks_on_same_node(r);
}
/// The ranks on other hosts than r's.
[[nodiscard]] DTL_CONTAINERS_API std::vector<rank_t> remote_ranks(const rank_host_map& host_map, rank_t r);

}  // namespace dtl::topology
