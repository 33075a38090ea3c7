// SPDX-License-Identifier: MIT
#include "topology_report.hpp"

#include <dtl/containers/communication/environment.hpp>
#include <dtl/core/try.hpp>
#include <dtl/topology/topology.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

namespace dtl_info {

namespace {

namespace topo = dtl::topology;

/// "0-3,8,10-11" for ascending ids; "none" for no id.
std::string id_ranges(const std::vector<std::uint32_t>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += fmt::format("{}{}", out.empty() ? "" : ",", ids[i]);
    if (j > i) out += fmt::format("-{}", ids[j]);
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1u << 30)); }

/// This node's hardware, as the report prints it for each node.
std::string node_hardware(int node, const std::vector<int>& ranks) {
  const topo::hardware_topology& hw = topo::local_topology();
  std::string out = fmt::format("\nNode {} ({}): rank{} {}\n", node, hw.hostname, ranks.size() == 1 ? "" : "s",
                                fmt::join(ranks, ", "));
  out += fmt::format("  CPUs              {} logical, {} cores, {} socket{}\n", hw.total_cpus, hw.total_cores,
                     hw.sockets.size(), hw.sockets.size() == 1 ? "" : "s");
  for (const topo::numa_node& n : hw.numa_nodes) {
    out += fmt::format("  NUMA node {:<7} CPUs {}, memory {}, GPUs {}\n", n.id, id_ranges(n.cpu_ids),
                       n.memory_bytes != 0 ? gib(n.memory_bytes) : "unknown", id_ranges(n.gpu_ids));
  }
  if (hw.numa_distances.size() > 1)
    for (std::size_t i = 0; i < hw.numa_distances.size(); ++i)
      out += fmt::format("  {:<17} {}\n", i == 0 ? "NUMA distances" : "", fmt::join(hw.numa_distances[i], " "));
  if (hw.gpus.empty()) out += "  GPUs              none\n";
  for (const topo::gpu_device& g : hw.gpus)
    out += fmt::format("  GPU {:<13} {}, PCI {}, NUMA node {}, {}\n", g.id, g.name, g.pci_bus_id,
                       g.numa_node ? std::to_string(*g.numa_node) : "unknown", gib(g.memory_bytes));
  if (hw.gpus.size() > 1) {
    out += "  peer access       (row GPU can access column GPU's memory)\n                   ";
    for (std::size_t j = 0; j < hw.gpus.size(); ++j) out += fmt::format("{:>4}", j);
    out += "\n";
    for (std::size_t i = 0; i < hw.gpu_peers.size(); ++i) {
      out += fmt::format("                   {:>2}", i);
      for (std::size_t j = 0; j < hw.gpu_peers[i].size(); ++j)
        out += fmt::format("{:>4}", i == j ? "-" : hw.gpu_peers[i][j] ? "yes" : "no");
      out += "\n";
    }
  }
  return out;
}

/// Rank 0 gets every rank's `text`, in rank order (one allgather of the lengths, one gatherv).
dtl::result<std::vector<std::string>> gather_text(const dtl::context& ctx, const std::string& text) {
  const auto ranks = static_cast<std::size_t>(ctx.size());
  std::vector<std::size_t> lengths(ranks);
  const std::size_t mine = text.size();
  DTL_TRY(ctx.allgather(&mine, lengths.data(), 1));
  std::vector<std::size_t> displs(ranks, 0);
  for (std::size_t r = 1; r < ranks; ++r) displs[r] = displs[r - 1] + lengths[r - 1];
  std::string all(displs.back() + lengths.back(), '\0');
  DTL_TRY(ctx.gatherv(text.data(), text.size(), all.data(), lengths, displs, 0));
  std::vector<std::string> texts;
  for (std::size_t r = 0; r < ranks; ++r) texts.push_back(all.substr(displs[r], lengths[r]));
  return texts;
}

dtl::status report(const dtl::environment& env) {
  DTL_ASSIGN_OR_RETURN(const dtl::context world, env.try_make_world_context());
  DTL_ASSIGN_OR_RETURN(const topo::node_layout layout, topo::node_layout::of(world));
  // Each node's lowest rank describes its node's hardware; every rank its affinity.
  const std::string hardware =
      layout.local_rank() == 0 ? node_hardware(layout.node(), layout.ranks_on_node(layout.node())) : "";
  const dtl::result<topo::cpu_set> affinity = topo::get_affinity();
  const std::string cpus = affinity ? id_ranges(affinity->to_vector()) : "unknown";
  DTL_ASSIGN_OR_RETURN(const std::vector<std::string> hardware_of, gather_text(world, hardware));
  DTL_ASSIGN_OR_RETURN(const std::vector<std::string> cpus_of, gather_text(world, cpus));
  if (world.rank() != 0) return {};

  fmt::print("dtl-info topology: {} rank{} on {} node{}\n", world.size(), world.size() == 1 ? "" : "s",
             layout.node_count(), layout.node_count() == 1 ? "" : "s");
  for (const std::string& text : hardware_of) fmt::print("{}", text);
  fmt::print("\nRanks\n  {:>4} {:>5} {:>6}  {:<16} {:>6}  {:<13} {}\n", "rank", "node", "local", "host", "GPU",
             "PCI bus id", "CPUs");
  for (int r = 0; r < layout.rank_count(); ++r) {
    const topo::rank_place& p = layout.place(r);
    const std::vector<int> sharing = layout.ranks_sharing_gpu(r);
    std::string gpu = p.device == dtl::no_device ? "none" : std::to_string(p.device);
    fmt::print("  {:>4} {:>5} {:>6}  {:<16} {:>6}  {:<13} {}{}\n", r, p.node, p.local_rank, p.hostname, gpu,
               p.pci_bus_id.empty() ? "-" : p.pci_bus_id, cpus_of[static_cast<std::size_t>(r)],
               sharing.size() > 1 ? fmt::format("  (GPU shared with ranks {})", fmt::join(sharing, ", ")) : "");
  }
  return {};
}

}  // namespace

dtl::status print_topology(int& argc, char**& argv) {
  DTL_ASSIGN_OR_RETURN(const dtl::environment env, dtl::environment::create(argc, argv));
  return report(env);
}

}  // namespace dtl_info
