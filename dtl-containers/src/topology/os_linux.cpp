// SPDX-License-Identifier: MIT
// The hardware as Linux tells it: /sys/devices/system/{cpu,node}, /sys/bus/pci, gethostname and the
// scheduler's affinity calls.
#include "topology/discovery.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

namespace dtl::topology::detail {

namespace {

const std::string sys_cpu = "/sys/devices/system/cpu/";
const std::string sys_node = "/sys/devices/system/node/";

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

std::optional<long long> read_number(const std::string& path) {
  const std::optional<std::string> line = read_line(path);
  if (!line) return std::nullopt;
  try {
    return std::stoll(*line);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// The ids of a sysfs list ("0-3,8,10-11"), ascending; nullopt when unreadable or malformed.
std::optional<std::vector<std::uint32_t>> read_id_list(const std::string& path) {
  const std::optional<std::string> line = read_line(path);
  if (!line) return std::nullopt;
  std::set<std::uint32_t> ids;
  std::stringstream items(*line);
  for (std::string item; std::getline(items, item, ',');) {
    if (item.empty()) continue;
    try {
      const std::size_t dash = item.find('-');
      const unsigned long first = std::stoul(item.substr(0, dash));
      const unsigned long last = dash == std::string::npos ? first : std::stoul(item.substr(dash + 1));
      for (unsigned long id = first; id <= last; ++id) ids.insert(static_cast<std::uint32_t>(id));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::vector<std::uint32_t>(ids.begin(), ids.end());
}

std::vector<std::uint32_t> online_cpus() {
  if (auto cpus = read_id_list(sys_cpu + "online"); cpus && !cpus->empty()) return *cpus;
  std::vector<std::uint32_t> cpus(std::max(1u, std::thread::hardware_concurrency()));
  for (std::uint32_t c = 0; c < cpus.size(); ++c) cpus[c] = c;
  return cpus;
}

using socket_of_cpu = std::map<std::uint32_t, std::uint32_t>;

/// Sockets and physical cores from each CPU's topology/ folder (a CPU without one counts as a core of
/// socket 0); returns each CPU's socket.
socket_of_cpu discover_sockets(hardware_topology& topo, const std::vector<std::uint32_t>& cpus) {
  socket_of_cpu socket_of;
  std::map<std::uint32_t, std::set<long long>> cores_of_socket;
  std::map<std::uint32_t, std::uint32_t> threads_of_socket;
  for (const std::uint32_t cpu : cpus) {
    const std::string dir = sys_cpu + "cpu" + std::to_string(cpu) + "/topology/";
    const long long package = read_number(dir + "physical_package_id").value_or(0);
    const long long core = read_number(dir + "core_id").value_or(cpu);
    const auto socket = static_cast<std::uint32_t>(std::max(0LL, package));
    socket_of[cpu] = socket;
    cores_of_socket[socket].insert(core);
    ++threads_of_socket[socket];
  }
  for (const auto& [id, cores] : cores_of_socket) {
    cpu_socket s;
    s.id = id;
    s.num_cores = static_cast<std::uint32_t>(cores.size());
    s.num_threads = threads_of_socket[id];
    topo.total_cores += s.num_cores;
    topo.sockets.push_back(std::move(s));
  }
  return socket_of;
}

std::uint64_t node_memory(std::uint32_t node) {
  // "Node 0 MemTotal:       32768 kB"
  std::ifstream in(sys_node + "node" + std::to_string(node) + "/meminfo");
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find("MemTotal:");
    if (at == std::string::npos) continue;
    try {
      return std::stoull(line.substr(at + std::strlen("MemTotal:"))) * 1024;
    } catch (const std::exception&) {
      return 0;
    }
  }
  return 0;
}

void discover_numa(hardware_topology& topo, const std::vector<std::uint32_t>& cpus, const socket_of_cpu& socket_of) {
  const std::optional<std::vector<std::uint32_t>> nodes = read_id_list(sys_node + "online");
  if (nodes && !nodes->empty()) {
    for (const std::uint32_t id : *nodes) {
      numa_node n;
      n.id = id;
      n.memory_bytes = node_memory(id);
      n.cpu_ids =
          read_id_list(sys_node + "node" + std::to_string(id) + "/cpulist").value_or(std::vector<std::uint32_t>{});
      topo.numa_nodes.push_back(std::move(n));
    }
    for (const numa_node& n : topo.numa_nodes) {
      std::vector<std::uint32_t> row;
      std::ifstream in(sys_node + "node" + std::to_string(n.id) + "/distance");
      for (std::uint32_t d = 0; in >> d;) row.push_back(d);
      if (row.size() != topo.numa_nodes.size()) {
        topo.numa_distances.clear();  // partial distances are no distances
        break;
      }
      topo.numa_distances.push_back(std::move(row));
    }
  } else {
    numa_node all;  // the OS says nothing of NUMA: one node with every CPU
    all.cpu_ids = cpus;
    topo.numa_nodes.push_back(std::move(all));
  }
  for (cpu_socket& s : topo.sockets) {
    for (const numa_node& n : topo.numa_nodes) {
      const bool shares = std::any_of(n.cpu_ids.begin(), n.cpu_ids.end(), [&](std::uint32_t cpu) {
        const auto found = socket_of.find(cpu);
        return found != socket_of.end() && found->second == s.id;
      });
      if (shares) s.numa_nodes.push_back(n.id);
    }
  }
}

}  // namespace

std::string hostname() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

void discover_cpus(hardware_topology& topo) {
  topo.hostname = hostname();
  const std::vector<std::uint32_t> cpus = online_cpus();
  topo.total_cpus = static_cast<std::uint32_t>(cpus.size());
  const socket_of_cpu socket_of = discover_sockets(topo, cpus);
  discover_numa(topo, cpus, socket_of);
}

std::optional<std::uint32_t> numa_node_of_pci(const std::string& pci_bus_id) {
  if (pci_bus_id.empty()) return std::nullopt;
  const std::optional<long long> node = read_number("/sys/bus/pci/devices/" + pci_bus_id + "/numa_node");
  if (!node || *node < 0) return std::nullopt;  // -1: the platform does not say
  return static_cast<std::uint32_t>(*node);
}

result<cpu_set> thread_affinity() {
  cpu_set_t native;
  CPU_ZERO(&native);
  if (sched_getaffinity(0, sizeof native, &native) != 0)
    return status(status_code::backend_error, std::string("sched_getaffinity failed: ") + std::strerror(errno));
  cpu_set cpus;
  for (std::uint32_t c = 0; c < cpu_set::max_cpus && c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &native)) cpus.add(c);
  return cpus;
}

status set_thread_affinity(const cpu_set& cpus) {
  cpu_set_t native;
  CPU_ZERO(&native);
  for (const std::uint32_t c : cpus.to_vector())
    if (c < CPU_SETSIZE) CPU_SET(c, &native);
  if (sched_setaffinity(0, sizeof native, &native) != 0)
    return status(status_code::backend_error, std::string("sched_setaffinity failed: ") + std::strerror(errno));
  return {};
}

}  // namespace dtl::topology::detail
