// SPDX-License-Identifier: MIT
// dtl-info: what this dtl build is and what it finds on this machine. The first thing to run on a new
// node, and what a bug report should include.
//
//   dtl-info               the build, the HIP runtime, every device and peer access between devices
//   dtl-info --bandwidth   also a quick host-to-device, device-to-host and device-to-device measurement
//   dtl-info --json        the same as one JSON object, for scripts
//   dtl-info --topology    the nodes, their CPUs, NUMA nodes and GPUs (PCI bus ids, peers), and each rank's
//                          node, local rank, GPU and CPUs; under mpiexec for a job's ranks (topology_report.hpp)
//
// Exit status: 0 when the report was made (also when there is no device: the report says why, and
// --bandwidth says that there was nothing to measure), 2 for a bad argument, 1 when --topology fails.
#include "dtl-info-config.hpp"
#include "info.hpp"
#include "topology_report.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

using dtl_info::report;

struct build_info {
  std::string_view version = DTL_INFO_VERSION;
  std::string_view platform = DTL_INFO_PLATFORM;          // "amd", "nvidia" or "none"
  std::string_view kernel_archs = DTL_INFO_KERNEL_ARCHS;  // "gfx90a,gfx940", "sm_90"; empty without HIP
  std::string_view build_type = DTL_INFO_BUILD_TYPE;
  std::string_view compiler = DTL_INFO_COMPILER;
  std::string_view mpi = DTL_INFO_MPI;    // as dtl-containers reports it
  std::string_view nccl = DTL_INFO_NCCL;  // likewise (RCCL on AMD)
};

std::string gib(std::size_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1u << 30)); }
const char* yes_no(bool b) { return b ? "yes" : "no"; }

std::string bandwidth_text(const dtl_info::bandwidth& b) {
  return b.error.ok() ? fmt::format("{:.1f} GB/s", b.gbps) : "failed: " + b.error.to_string();
}

void print_text(const build_info& build, const report& r, bool bandwidth) {
  fmt::print("dtl-info {}\n\nBuild\n", build.version);
  if (build.platform == "none")
    fmt::print("  HIP               not built: {}\n", DTL_INFO_WITHOUT_HIP);
  else
    fmt::print("  HIP platform      {} (kernels for {})\n", build.platform, build.kernel_archs);
  fmt::print("  build type        {}\n  compiler          {}\n  MPI               {}\n  RCCL/NCCL         {}\n",
             build.build_type, build.compiler, build.mpi, build.nccl);
  if (r.runtime) {
    fmt::print("\nRuntime\n  {:<17} {}\n  driver            {}\n", r.runtime->name, r.runtime->runtime_version,
               r.runtime->driver_version != 0 ? std::to_string(r.runtime->driver_version) : std::string("none"));
  }
  if (r.devices.empty()) {
    fmt::print("\nDevices: none\n  why               {}\n", r.no_device_reason);
    for (const std::string& hint : r.no_device_hints) fmt::print("  check             {}\n", hint);
    if (bandwidth) fmt::print("\nbandwidth: no GPU visible to this process ({})\n", r.no_device_reason);
    return;
  }
  for (const dtl_info::device_info& d : r.devices) {
    if (!d.error.ok()) {
      fmt::print("\nDevice {}: cannot be queried: {}\n", d.id, d.error.to_string());
      continue;
    }
    fmt::print("\nDevice {}: {}\n", d.id, d.name);
    fmt::print("  architecture      {} ({} compute units)\n", d.arch, d.multiprocessors);
    fmt::print("  wavefront size    {}\n", d.wavefront_size);
    fmt::print("  memory            {} total, {} free\n", gib(d.total_memory), gib(d.free_memory));
    fmt::print("  managed memory    {}; concurrent access {}; pageable memory access {}\n", yes_no(d.managed_memory),
               yes_no(d.concurrent_managed_access), yes_no(d.pageable_memory_access));
    if (d.copies) {
      fmt::print("  bandwidth         host->device {}, device->host {}, device->device {}\n",
                 bandwidth_text(d.copies->host_to_device), bandwidth_text(d.copies->device_to_host),
                 bandwidth_text(d.copies->device_to_device));
      fmt::print("                    ({} MiB per copy, pinned host memory, best of {})\n", d.copies->bytes >> 20,
                 d.copies->repeats);
    }
  }
  if (r.devices.size() > 1) {
    fmt::print("\nPeer access (row device can access column device's memory)\n      ");
    for (std::size_t j = 0; j < r.devices.size(); ++j) fmt::print("{:>4}", j);
    fmt::print("\n");
    for (std::size_t i = 0; i < r.peer.size(); ++i) {
      fmt::print("  {:>4}", i);
      for (std::size_t j = 0; j < r.peer[i].size(); ++j) fmt::print("{:>4}", i == j ? "-" : yes_no(r.peer[i][j]));
      fmt::print("\n");
    }
  }
}

/// A JSON string literal.
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        else
          out += c;
    }
  }
  return out + "\"";
}

std::string json_status(const dtl::status& s) { return s.ok() ? "null" : quoted(s.to_string()); }

std::string json_bandwidth(const dtl_info::bandwidth& b) {
  return fmt::format("{{\"gbps\": {}, \"error\": {}}}", b.error.ok() ? fmt::format("{:.3f}", b.gbps) : "null",
                     json_status(b.error));
}

void print_json(const build_info& build, const report& r) {
  std::string out = "{\n";
  out += fmt::format("  \"dtl_version\": {},\n", quoted(build.version));
  out += fmt::format(
      "  \"build\": {{\"hip\": {}, \"platform\": {}, \"kernel_archs\": {}, \"without_hip_reason\": {}, "
      "\"build_type\": {}, \"compiler\": {}, \"mpi\": {}, \"nccl\": {}}},\n",
      build.platform != "none", quoted(build.platform), quoted(build.kernel_archs),
      build.platform == "none" ? quoted(DTL_INFO_WITHOUT_HIP) : "null", quoted(build.build_type),
      quoted(build.compiler), quoted(build.mpi), quoted(build.nccl));
  if (r.runtime)
    out += fmt::format("  \"runtime\": {{\"name\": {}, \"version\": {}, \"driver_version\": {}}},\n",
                       quoted(r.runtime->name), r.runtime->runtime_version, r.runtime->driver_version);
  else
    out += "  \"runtime\": null,\n";
  out += "  \"devices\": [";
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const dtl_info::device_info& d = r.devices[i];
    out += fmt::format(
        "{}\n    {{\"id\": {}, \"name\": {}, \"arch\": {}, \"wavefront_size\": {}, \"compute_units\": {}, "
        "\"total_memory\": {}, \"free_memory\": {}, \"managed_memory\": {}, \"concurrent_managed_access\": {}, "
        "\"pageable_memory_access\": {}, \"error\": {}",
        i == 0 ? "" : ",", d.id, quoted(d.name), quoted(d.arch), d.wavefront_size, d.multiprocessors, d.total_memory,
        d.free_memory, d.managed_memory, d.concurrent_managed_access, d.pageable_memory_access, json_status(d.error));
    if (d.copies)
      out += fmt::format(
          ", \"bandwidth\": {{\"bytes\": {}, \"repeats\": {}, \"host_to_device\": {}, \"device_to_host\": {}, "
          "\"device_to_device\": {}}}",
          d.copies->bytes, d.copies->repeats, json_bandwidth(d.copies->host_to_device),
          json_bandwidth(d.copies->device_to_host), json_bandwidth(d.copies->device_to_device));
    out += "}";
  }
  out += r.devices.empty() ? "],\n" : "\n  ],\n";
  out += "  \"peer_access\": [";
  for (std::size_t i = 0; i < r.peer.size(); ++i) {
    out += i == 0 ? "[" : ", [";
    for (std::size_t j = 0; j < r.peer[i].size(); ++j) out += fmt::format("{}{}", j == 0 ? "" : ", ", r.peer[i][j]);
    out += "]";
  }
  out += "],\n";
  if (r.devices.empty()) {
    out += fmt::format("  \"no_device\": {{\"reason\": {}, \"hints\": [", quoted(r.no_device_reason));
    for (std::size_t i = 0; i < r.no_device_hints.size(); ++i)
      out += (i == 0 ? "" : ", ") + quoted(r.no_device_hints[i]);
    out += "]}\n";
  } else {
    out += "  \"no_device\": null\n";
  }
  out += "}\n";
  std::fputs(out.c_str(), stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  bool bandwidth = false;
  bool topology = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--bandwidth") {
      bandwidth = true;
    } else if (arg == "--topology") {
      topology = true;
    } else if (arg == "--version") {
      fmt::print("dtl-info {}\n", DTL_INFO_VERSION);
      return 0;
    } else if (arg == "--help" || arg == "-h") {
      fmt::print(
          "usage: dtl-info [--bandwidth] [--json] [--version] | --topology\n"
          "Prints how dtl was built and the HIP devices of this machine.\n"
          "  --bandwidth  also measure host<->device and device<->device copies\n"
          "  --json       one JSON object instead of text\n"
          "  --topology   the nodes' CPUs, NUMA nodes and GPUs, and each rank's place (under mpiexec: every rank)\n");
      return 0;
    } else {
      fmt::print(stderr, "dtl-info: unknown argument '{}' (try --help)\n", arg);
      return 2;
    }
  }
  if (topology) {
    if (json || bandwidth) {
      fmt::print(stderr, "dtl-info: --topology is a report of its own (text), without --json or --bandwidth\n");
      return 2;
    }
    if (const dtl::status s = dtl_info::print_topology(argc, argv); !s.ok()) {
      fmt::print(stderr, "dtl-info --topology: {}\n", s.to_string());
      return 1;
    }
    return 0;
  }
  const build_info build;
  const report r = dtl_info::probe(bandwidth);
  if (json)
    print_json(build, r);
  else
    print_text(build, r, bandwidth);
  return 0;
}
