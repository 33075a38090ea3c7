#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_info.py DTL_INFO MODE: runs dtl-info and checks its report.

text       `dtl-info` exits 0 and prints the build, then every device or why there is none.
json       `dtl-info --json` prints one JSON object with every field; without a device it says why.
bandwidth  `dtl-info --bandwidth --json` measures every device (exit 77, SKIP, without a device).
bandwidth-text  `dtl-info --bandwidth` exits 0 and prints a measurement per device, or that there is none.
topology   `dtl-info --topology` (one rank) prints one node with its CPUs, NUMA nodes and GPUs (each with a
           PCI bus id), and one rank's row; with --json it is a bad argument (exit 2).
"""
import json
import re
import subprocess
import sys


def run(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=100)
    print(p.stdout, end="")
    print(p.stderr, end="", file=sys.stderr)
    if p.returncode != 0:
        sys.exit(f"{exe} {' '.join(args)} exited with {p.returncode}")
    return p.stdout


def check(condition, what):
    if not condition:
        sys.exit(f"check failed: {what}")


def check_report(r):
    for key in ("dtl_version", "build", "runtime", "devices", "peer_access", "no_device"):
        check(key in r, f"key '{key}' present")
    build = r["build"]
    for key in ("platform", "build_type", "compiler", "mpi", "nccl"):
        check(isinstance(build.get(key), str) and build[key] != "", f"build.{key} set")
    check(build["hip"] == (build["platform"] in ("amd", "nvidia")), "build.hip matches build.platform")
    if build["hip"]:
        check(bool(build["kernel_archs"]) and r["runtime"] is not None, "a HIP build names its kernel targets and runtime")
    else:
        check(bool(build["without_hip_reason"]) and r["runtime"] is None, "a build without HIP says why")
    if not r["devices"]:
        check(bool(r["no_device"] and r["no_device"]["reason"]), "no device: the reason is given")
        return
    check(r["no_device"] is None, "devices found: no no_device entry")
    n = len(r["devices"])
    check(len(r["peer_access"]) == n and all(len(row) == n for row in r["peer_access"]), "peer matrix is n x n")
    for d in r["devices"]:
        check(d["error"] is None, f"device {d['id']} queried: {d['error']}")
        check(d["name"] and d["arch"] and d["wavefront_size"] in (32, 64), f"device {d['id']} described")
        check(0 < d["free_memory"] <= d["total_memory"], f"device {d['id']} memory")


def main(exe, mode):
    if mode == "text":
        out = run(exe)
        check(out.startswith("dtl-info ") and "\nBuild\n" in out, "text report starts with the build")
        check("Device 0:" in out or ("Devices: none" in out and "why " in out), "devices, or why there are none")
    elif mode == "json":
        check_report(json.loads(run(exe, "--json")))
    elif mode == "bandwidth-text":
        out = run(exe, "--bandwidth")
        if "Devices: none" in out:
            check("\nbandwidth: no GPU visible to this process (" in out, "no device: --bandwidth says so")
        else:
            queried = out.count("\nDevice ") - out.count(": cannot be queried:")
            check(out.count("  bandwidth         host->device") == queried, "a measurement per device")
    elif mode == "bandwidth":
        r = json.loads(run(exe, "--bandwidth", "--json"))
        check_report(r)
        if not r["devices"]:
            print("no device: nothing to measure (SKIP)")
            sys.exit(77)
        for d in r["devices"]:
            bw = d["bandwidth"]
            for way in ("host_to_device", "device_to_host", "device_to_device"):
                check(bw[way]["error"] is None and bw[way]["gbps"] > 0, f"device {d['id']} {way} measured")
    elif mode == "topology":
        out = run(exe, "--topology")
        check(out.startswith("dtl-info topology: 1 rank on 1 node\n"), "one rank on one node")
        check("\nNode 0 (" in out and "): rank 0\n" in out, "node 0 holds rank 0")
        check(re.search(r"\n  CPUs +[1-9]\d* logical, [1-9]\d* cores", out), "the node's CPUs")
        check(re.search(r"\n  NUMA node 0 +CPUs \d", out), "NUMA node 0 and its CPUs")
        gpus = re.findall(r"\n  GPU \d+ +.*, PCI ([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]),", out)
        check(gpus or "\n  GPUs              none\n" in out, "GPUs with their PCI bus ids, or none")
        check(re.search(r"\nRanks\n.*\n +0 +0 +0  \S+ +(none|\d+)  ", out), "rank 0's row: node 0, local rank 0")
        check(subprocess.run([exe, "--topology", "--json"], capture_output=True).returncode == 2,
              "--topology --json is a bad argument")
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
