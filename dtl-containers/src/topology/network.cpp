// SPDX-License-Identifier: MIT
#include "topology/discovery.hpp"

#include <dtl/core/try.hpp>
#include <dtl/topology/network.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace dtl::topology {

std::string get_hostname() { return detail::hostname(); }

rank_host_map::rank_host_map(std::vector<std::string> hostnames) : hosts_(std::move(hostnames)) {
  for (std::size_t r = 0; r < hosts_.size(); ++r) ranks_of_host_[hosts_[r]].push_back(static_cast<rank_t>(r));
}

std::string rank_host_map::hostname_for_rank(rank_t r) const {
  return r >= 0 && static_cast<std::size_t>(r) < hosts_.size() ? hosts_[static_cast<std::size_t>(r)] : std::string();
}

bool rank_host_map::same_node(rank_t a, rank_t b) const {
  const std::string host = hostname_for_rank(a);
  return !host.empty() && host == hostname_for_rank(b);
}

std::vector<rank_t> rank_host_map::ranks_on_same_node(rank_t r) const {
  const auto found = ranks_of_host_.find(hostname_for_rank(r));
  return found != ranks_of_host_.end() ? found->second : std::vector<rank_t>{r};
}

std::vector<rank_t> rank_host_map::ranks_by_proximity(rank_t r) const {
  std::vector<rank_t> order = ranks_on_same_node(r);
  for (std::size_t other = 0; other < hosts_.size(); ++other)
    if (!same_node(r, static_cast<rank_t>(other))) order.push_back(static_cast<rank_t>(other));
  return order;
}

std::vector<std::string> rank_host_map::unique_hosts() const {
  std::vector<std::string> hosts;
  for (const std::string& host : hosts_)
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  return hosts;
}

proximity_matrix build_rank_proximity(const rank_host_map& host_map) {
  proximity_matrix prox(host_map.size());
  for (std::size_t a = 0; a < host_map.size(); ++a)
    for (std::size_t b = a + 1; b < host_map.size(); ++b)
      prox.set_distance(
          a, b,
          host_map.same_node(static_cast<rank_t>(a), static_cast<rank_t>(b)) ? adjacent_distance : network_distance);
  return prox;
}

result<rank_host_map> gather_hostnames(const context& ctx) {
  using name_block = std::array<char, 256>;  // gethostname's longest name, with its terminator
  name_block mine{};
  const std::string host = get_hostname();
  std::memcpy(mine.data(), host.data(), std::min(host.size(), mine.size() - 1));
  std::vector<name_block> all(static_cast<std::size_t>(std::max(ctx.size(), 0)));
  DTL_TRY(ctx.allgather(&mine, all.data(), 1));
  std::vector<std::string> names;
  for (const name_block& block : all) names.emplace_back(block.data());
  return rank_host_map(std::move(names));
}

topology_summary analyze_topology(const rank_host_map& host_map) {
  topology_summary summary;
  summary.num_ranks = host_map.size();
  summary.host_names = host_map.unique_hosts();
  summary.num_hosts = summary.host_names.size();
  for (const std::string& host : summary.host_names) {
    std::size_t count = 0;
    for (std::size_t r = 0; r < host_map.size(); ++r)
      count += host_map.hostname_for_rank(static_cast<rank_t>(r)) == host;
    summary.ranks_per_host.push_back(count);
  }
  if (!summary.ranks_per_host.empty()) {
    const auto [least, most] = std::minmax_element(summary.ranks_per_host.begin(), summary.ranks_per_host.end());
    summary.ranks_per_host_min = *least;
    summary.ranks_per_host_max = *most;
  }
  return summary;
}

std::vector<rank_t> remote_ranks(const rank_host_map& host_map, rank_t r) {
  std::vector<rank_t> others;
  for (std::size_t other = 0; other < host_map.size(); ++other)
    if (!host_map.same_node(r, static_cast<rank_t>(other))) others.push_back(static_cast<rank_t>(other));
  return others;
}

}  // namespace dtl::topology
