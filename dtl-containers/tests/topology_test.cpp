// SPDX-License-Identifier: MIT
// The topology support (include/dtl/topology/): this node's hardware against what Linux's sysfs and the
// scheduler say, CPU sets and affinity, distances, ranks by host (suite topology, one process); the ranks
// of a context on their nodes and the node-local context (suite mpi.topology, 1 to 3 ranks); the GPUs
// with their PCI bus ids, peers and the ranks that share one (suite gpu.topology, needs a GPU).
#include "test_environment.hpp"

#include <backends/mpi/mpi_topology.hpp>
#include <dtl/topology/topology.hpp>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace {

namespace topo = dtl::topology;

/// The GPUs this process sees, as the device layer counts them (0 without HIP).
int visible_devices() {
#if DTL_CONTAINERS_HAS_HIP
  return dtl::hip::device_count();
#else
  return 0;
#endif
}

/// Every check that holds for any context's layout: each node's local ranks are 0..n-1 in rank order,
/// the nodes hold every rank once, and the calling rank's own view agrees with its node-local context.
void check_layout(const dtl::context& ctx) {
  const topo::node_layout layout = topo::node_layout::of(ctx).value();
  REQUIRE(layout.rank_count() == ctx.size());
  REQUIRE(layout.node_count() >= 1);
  int total = 0;
  for (int n = 0; n < layout.node_count(); ++n) {
    const std::vector<int> ranks = layout.ranks_on_node(n);
    REQUIRE(static_cast<int>(ranks.size()) == layout.ranks_per_node(n));
    CHECK(std::is_sorted(ranks.begin(), ranks.end()));
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      CHECK(layout.node_of(ranks[i]) == n);
      CHECK(layout.local_rank_of(ranks[i]) == static_cast<int>(i));
    }
    total += layout.ranks_per_node(n);
  }
  CHECK(total == ctx.size());
  // Nodes are numbered by their lowest rank: rank 0 is on node 0.
  CHECK(layout.node_of(0) == 0);
  CHECK(layout.node_of(ctx.size()) == -1);
  CHECK(layout.ranks_on_node(layout.node_count()).empty());

  const dtl::context node = ctx.node_local().value();
  CHECK(node.size() == layout.local_rank_count());
  CHECK(node.rank() == layout.local_rank());
  CHECK(node.device() == ctx.device());
  CHECK(ctx.node_local().value().same_as(node));  // made once
  // The node-local context communicates: the sum of its local ranks is 0 + 1 + ... + (n - 1).
  const int n = node.size();
  CHECK(node.allreduce_value(node.rank(), dtl::reduce_op::sum).value() == n * (n - 1) / 2);
  // Every rank of the node sees the same node index.
  const int mine = layout.node();
  CHECK(node.allreduce_value(mine, dtl::reduce_op::min).value() == mine);
  CHECK(node.allreduce_value(mine, dtl::reduce_op::max).value() == mine);
}

}  // namespace

TEST_SUITE("topology") {
  TEST_CASE("the hardware is what Linux says") {
    const topo::hardware_topology& hw = topo::local_topology();
    CHECK(&hw == &topo::local_topology());
    REQUIRE_FALSE(hw.empty());
    CHECK(hw.hostname == topo::get_hostname());
    CHECK(hw.total_cpus >= topo::get_affinity().value().count());
    CHECK(hw.total_cores >= 1);
    CHECK(hw.total_cores <= hw.total_cpus);
    std::uint32_t threads = 0;
    for (const topo::cpu_socket& s : hw.sockets) threads += s.num_threads;
    CHECK(threads == hw.total_cpus);
    // Each online CPU is on exactly one NUMA node.
    std::multiset<std::uint32_t> listed;
    for (const topo::numa_node& n : hw.numa_nodes) {
      CHECK(std::is_sorted(n.cpu_ids.begin(), n.cpu_ids.end()));
      listed.insert(n.cpu_ids.begin(), n.cpu_ids.end());
      for (const std::uint32_t cpu : n.cpu_ids) CHECK(topo::numa_node_for_cpu(cpu) == n.id);
      CHECK(topo::cpus_on_numa_node(n.id) == n.cpu_ids);
    }
    CHECK(listed.size() == hw.total_cpus);
    CHECK(std::set<std::uint32_t>(listed.begin(), listed.end()).size() == listed.size());
    CHECK(topo::numa_node_count() == hw.numa_nodes.size());
    if (std::ifstream("/sys/devices/system/node/online")) {
      CHECK(hw.numa_distances.size() == hw.numa_nodes.size());
      CHECK(hw.numa_nodes[0].memory_bytes > 0);
    }
    CHECK(topo::cpus_on_numa_node(100000).empty());
    CHECK(topo::gpus_on_numa_node(100000).empty());
  }

  TEST_CASE("the GPUs are the device layer's: none without a device") {
    const topo::hardware_topology& hw = topo::local_topology();
    CHECK(static_cast<int>(topo::gpu_count()) == visible_devices());
    CHECK(hw.gpus.size() == topo::gpu_count());
    CHECK(hw.gpu_peers.size() == hw.gpus.size());
    CHECK(hw.has_gpus() == (topo::gpu_count() > 0));
    if (visible_devices() == 0) CHECK(hw.gpus.empty());
  }

  TEST_CASE("refresh reads the same hardware into the kept topology") {
    const topo::hardware_topology& kept = topo::local_topology();
    const std::uint32_t cpus = kept.total_cpus;
    CHECK(&topo::refresh_local_topology() == &kept);
    CHECK(kept.total_cpus == cpus);
  }

  TEST_CASE("cpu sets") {
    const topo::cpu_set range(2, 5), one(3), some(std::vector<std::uint32_t>{1, 9, 4});
    CHECK(range.count() == 4);
    CHECK(range.to_vector() == std::vector<std::uint32_t>{2, 3, 4, 5});
    CHECK(some.to_vector() == std::vector<std::uint32_t>{1, 4, 9});
    CHECK((range & some).to_vector() == std::vector<std::uint32_t>{4});
    CHECK((range | one) == range);
    CHECK((range - one).to_vector() == std::vector<std::uint32_t>{2, 4, 5});
    CHECK(some.first() == 1);
    CHECK(topo::cpu_set().first() == topo::cpu_set::max_cpus);
    CHECK_FALSE(topo::cpu_set(5000).contains(5000));  // past max_cpus: not kept
    CHECK(topo::cpu_set(5000).empty());
    topo::cpu_set edit(0, 2);
    edit.remove(1);
    edit.add(7);
    CHECK(edit.to_vector() == std::vector<std::uint32_t>{0, 2, 7});
    edit.clear();
    CHECK(edit.empty());
  }

  TEST_CASE("affinity: set, read back, restored by the guard") {
    const topo::cpu_set before = topo::get_affinity().value();
    REQUIRE_FALSE(before.empty());
    const std::uint32_t cpu = before.first();
    {
      topo::scoped_affinity pin(cpu);
      CHECK(pin.original() == before);
      CHECK(topo::get_affinity().value() == topo::cpu_set(cpu));
    }
    CHECK(topo::get_affinity().value() == before);
    const auto empty = topo::set_affinity(topo::cpu_set());
    REQUIRE_FALSE(empty.has_value());
    CHECK(empty.error().code() == dtl::status_code::invalid_argument);
    CHECK(topo::bind_to_numa_node(100000).error().code() == dtl::status_code::invalid_argument);
    CHECK(topo::get_affinity().value() == before);
  }

  TEST_CASE("proximity matrices") {
    topo::proximity_matrix m(4);
    CHECK(m.distance(2, 2) == topo::local_distance);
    CHECK(m.distance(0, 3) == topo::max_distance);
    m.set_distance(0, 1, 30);
    m.set_distance(0, 2, 10);
    m.set_distance(3, 0, 10);
    CHECK(m.distance(1, 0) == 30);
    CHECK(m.nearest(0) == 2);  // 2 and 3 tie: the lower index
    CHECK(m.k_nearest(0, 2) == std::vector<std::size_t>{2, 3});
    CHECK(m.k_nearest(0, 9).size() == 3);
    CHECK(m.within_distance(0, 10) == std::vector<std::size_t>{0, 2, 3});
    m.set_distance(9, 0, 1);  // ignored
    CHECK(m.distance(9, 0) == topo::max_distance);

    const topo::hardware_topology& hw = topo::local_topology();
    const topo::proximity_matrix cpus = topo::build_cpu_proximity(hw);
    REQUIRE(cpus.size() == hw.total_cpus);
    for (const topo::numa_node& n : hw.numa_nodes)
      if (n.cpu_ids.size() > 1) CHECK(cpus.distance(n.cpu_ids[0], n.cpu_ids[1]) == topo::adjacent_distance);
    const topo::proximity_matrix numa = topo::build_numa_proximity(hw);
    CHECK(numa.size() == hw.numa_nodes.size());
    CHECK(topo::build_gpu_proximity(hw).size() == hw.gpus.size());
  }

  TEST_CASE("ranks by host") {
    const topo::rank_host_map hosts({"a", "b", "a", "c", "b"});
    CHECK(hosts.num_hosts() == 3);
    CHECK(hosts.unique_hosts() == std::vector<std::string>{"a", "b", "c"});
    CHECK(hosts.same_node(0, 2));
    CHECK_FALSE(hosts.same_node(0, 1));
    CHECK_FALSE(hosts.same_node(0, 7));
    CHECK(hosts.hostname_for_rank(-1).empty());
    CHECK(hosts.ranks_on_same_node(1) == std::vector<int>{1, 4});
    CHECK(hosts.ranks_by_proximity(1) == std::vector<int>{1, 4, 0, 2, 3});
    CHECK(topo::remote_ranks(hosts, 0) == std::vector<int>{1, 3, 4});
    const topo::proximity_matrix prox = topo::build_rank_proximity(hosts);
    CHECK(prox.distance(0, 2) == topo::adjacent_distance);
    CHECK(prox.distance(0, 3) == topo::network_distance);
    const topo::topology_summary summary = topo::analyze_topology(hosts);
    CHECK(summary.num_hosts == 3);
    CHECK(summary.ranks_per_host == std::vector<std::size_t>{2, 2, 1});
    CHECK(summary.ranks_per_host_min == 1);
    CHECK(summary.ranks_per_host_max == 2);
  }

  TEST_CASE("a cpu context is one rank on one node") {
    const dtl::context ctx = dtl::make_cpu_context();
    check_layout(ctx);
    const topo::node_layout layout = topo::node_layout::of(ctx).value();
    CHECK(layout.node_count() == 1);
    CHECK(layout.place(0).device == dtl::no_device);
    CHECK(layout.place(0).pci_bus_id.empty());
    CHECK(layout.ranks_sharing_gpu(0).empty());
    CHECK(layout.place(0).hostname == topo::get_hostname());
  }

  TEST_CASE("an empty context has no node") {
    const dtl::context none = dtl::make_cpu_context().split(dtl::undefined_color).value();
    CHECK(none.node_local().error().code() == dtl::status_code::invalid_state);
    CHECK(topo::node_layout::of(none).error().code() == dtl::status_code::invalid_state);
  }
}

TEST_SUITE("mpi.topology") {
  TEST_CASE("every rank has a place on a node, and its node-local context") {
    const dtl::context world = test_support::world();
    check_layout(world);
    const topo::node_layout layout = topo::node_layout::of(world).value();
    CHECK(layout.local_rank() == test_support::environment()->local_rank());
    CHECK(layout.local_rank_count() == test_support::environment()->local_rank_count());
    // The host names: every rank of a node runs on one host.
    const topo::rank_host_map hosts = topo::gather_hostnames(world).value();
    REQUIRE(static_cast<int>(hosts.size()) == world.size());
    for (int r = 0; r < world.size(); ++r) {
      CHECK(hosts.hostname_for_rank(r) == layout.place(r).hostname);
      if (layout.same_node(world.rank(), r)) CHECK(hosts.same_node(world.rank(), r));
    }
    if (visible_devices() == 0)
      for (int r = 0; r < world.size(); ++r) CHECK(layout.ranks_sharing_gpu(r).empty());
  }

  TEST_CASE("upstream's mpi_topology tells the same nodes") {
    const dtl::context world = test_support::world();
    const topo::node_layout layout = topo::node_layout::of(world).value();
    const dtl::mpi::mpi_topology up = dtl::mpi::mpi_topology::discover(world).value();
    REQUIRE(up.world_size() == world.size());
    CHECK(static_cast<int>(up.num_nodes()) == layout.node_count());
    for (int r = 0; r < world.size(); ++r) {
      CHECK(static_cast<int>(up.node_of(r)) == layout.node_of(r));
      CHECK(up.local_rank_of(r) == layout.local_rank_of(r));
      CHECK(up.can_use_shared_memory(world.rank(), r) == layout.same_node(world.rank(), r));
    }
    CHECK(up.ranks_on_node(up.num_nodes()).empty());
    // A permutation of the ranks that keeps each node's ranks together.
    std::vector<int> order = dtl::mpi::optimize_rank_ordering(up, {});
    REQUIRE(static_cast<int>(order.size()) == world.size());
    for (std::size_t i = 1; i < order.size(); ++i) CHECK(up.node_of(order[i - 1]) <= up.node_of(order[i]));
    std::sort(order.begin(), order.end());
    std::vector<int> all(order.size());
    std::iota(all.begin(), all.end(), 0);
    CHECK(order == all);
    CHECK(dtl::mpi::comm_volume_matrix(up).size() == up.num_nodes());
  }

  TEST_CASE("a sub-context has its own layout and node-local context") {
    const dtl::context world = test_support::world();
    // Odd and even ranks: the layout counts only the sub-context's ranks.
    const dtl::context half = world.split(world.rank() % 2).value();
    check_layout(half);
    const topo::node_layout whole = topo::node_layout::of(world).value();
    int expected = 0;
    for (const int r : whole.ranks_on_node(whole.node()))
      if (r % 2 == world.rank() % 2) ++expected;
    CHECK(half.node_local().value().size() == expected);
  }
}

TEST_SUITE("gpu.topology") {
  TEST_CASE("the GPUs have PCI bus ids and a peer matrix") {
    const topo::hardware_topology& hw = topo::local_topology();
    REQUIRE(static_cast<int>(hw.gpus.size()) == visible_devices());
    REQUIRE(hw.gpu_peers.size() == hw.gpus.size());
    std::set<std::string> ids;
    for (std::size_t i = 0; i < hw.gpus.size(); ++i) {
      const topo::gpu_device& gpu = hw.gpus[i];
      CAPTURE(gpu.pci_bus_id);
      CHECK(gpu.id == i);
      CHECK_FALSE(gpu.name.empty());
      CHECK(gpu.memory_bytes > 0);
      // "dddd:bb:dd.f", as sysfs names the device
      REQUIRE(gpu.pci_bus_id.size() == 12);
      CHECK(gpu.pci_bus_id[4] == ':');
      CHECK(gpu.pci_bus_id[10] == '.');
      ids.insert(gpu.pci_bus_id);
      REQUIRE(hw.gpu_peers[i].size() == hw.gpus.size());
      CHECK(hw.gpu_peers[i][i]);
      for (std::size_t j = 0; j < i; ++j) CHECK(hw.gpu_peers[i][j] == hw.gpu_peers[j][i]);
    }
    CHECK(ids.size() == hw.gpus.size());  // one id per GPU
  }

  TEST_CASE("ranks that use one GPU are known") {
    const dtl::context world = test_support::world();
    REQUIRE(world.has_device());
    const topo::node_layout layout = topo::node_layout::of(world).value();
    const topo::rank_place& mine = layout.place(world.rank());
    CHECK(mine.device == world.device());
    CHECK(mine.pci_bus_id == topo::local_topology().gpus.at(static_cast<std::size_t>(world.device())).pci_bus_id);
    const std::vector<int> sharing = layout.ranks_sharing_gpu(world.rank());
    CHECK(std::find(sharing.begin(), sharing.end(), world.rank()) != sharing.end());
    for (const int r : sharing) CHECK(layout.place(r).pci_bus_id == mine.pci_bus_id);
    // More ranks on the node than GPUs: some GPU is shared.
    if (layout.local_rank_count() > visible_devices()) {
      bool shared = false;
      for (const int r : layout.ranks_on_node(layout.node())) shared = shared || layout.ranks_sharing_gpu(r).size() > 1;
      CHECK(shared);
    }
  }
}
