#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the exit codes of a test program built on the shared test main (test_main.cpp): 77, Meson's
SKIP, when the machine lacks what --requires names or when no test case ran; 1 for an unknown or
malformed requirement; doctest's own result otherwise. LAYERS says whose requirements the program
registered (core, hip, containers), which must be exactly the ones it knows.
Usage: check_test_main.py PROGRAM SUITE LAYERS   (SUITE: a doctest suite that passes everywhere,
LAYERS: comma-separated, e.g. core,hip)"""
import re
import subprocess
import sys

KNOWN = {"core": ["any"], "hip": ["gpu", "devices:N", "no-device", "pool"], "containers": ["ranks:N", "mpi"]}


def run(program, *args):
    done = subprocess.run([program, *args, "--no-version"], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


class checker:
    def __init__(self, program, suite):
        self.program, self.suite, self.failures = program, suite, 0

    def report(self, ok, what, output=""):
        self.failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        if not ok and output:
            print(output)

    def expect(self, requires, want, what):
        args = ([] if requires is None else [requires]) + [f"--test-suite={self.suite}"]
        got, output = run(self.program, *args)
        if want is None:  # the machine decides: the caller compares
            return got
        ok = got == want and (want != 77 or "SKIP: " in output) and (want != 1 or "requirement" in output)
        self.report(ok, f"{what}: {' '.join(args)} -> {got} (want {want})", output)
        return got


def main(program, suite, layers):
    c = checker(program, suite)
    # The known requirements are listed in the message for an unknown one.
    _, output = run(program, "--requires=bogus", f"--test-suite={suite}")
    listed = re.search(r"known: ([^;)]*)", output)
    want = sorted(r for layer in layers for r in KNOWN[layer])
    got = sorted(listed.group(1).split(", ")) if listed else []
    c.report(got == want, f"the known requirements are {want} (got {got})", output)

    c.expect(None, 0, "no --requires means any")
    c.expect("--requires=any", 0, "a run that passes is a pass")
    c.expect("--requires=any,any", 0, "a list of requirements that all hold is a pass")
    got, _ = run(program, "--requires=any", "--test-case=no such test case")
    c.report(got == 77, f"a run in which no test case ran is a skip -> {got} (want 77)")
    for bad in ["bogus", "", "any,", ",any", "any,bogus", "any:1", "ANY", " any"]:
        c.expect(f"--requires={bad}", 1, "an unknown requirement is a failure")

    if "hip" in layers:
        for bad in ["devices:0", "devices:-1", "devices:x", "devices:", "devices", "devices:1:2", "gpu:1",
                    "no-device:1", "pool:2", "devices:1000001"]:
            c.expect(f"--requires={bad}", 1, "a malformed requirement is a failure")
        c.expect("--requires=devices:1024", 77, "a requirement the machine lacks is a skip")
        c.expect("--requires=any,devices:1024", 77, "one unmet requirement in a list is a skip")
        c.expect("--requires=devices:1024,bogus", 1, "an unknown requirement fails even next to an unmet one")
        # Every machine either has a device or has none: exactly one of the two runs is a skip.
        no_device = c.expect("--requires=no-device", None, "no-device runs where no device is")
        one_device = c.expect("--requires=devices:1", None, "devices:1 runs where a device is")
        c.report(sorted([no_device, one_device]) == [0, 77],
                 f"no-device and devices:1 exclude each other -> {no_device}, {one_device}")
        gpu = c.expect("--requires=gpu", None, "gpu")
        c.report(gpu == one_device, f"gpu is devices:1 -> {gpu}, {one_device}")
        c.expect("--requires=gpu,no-device", 77, "gpu and no-device never hold together")
        # pool needs a device (and the pool backing DTL_HIP_POOL_BACKING names): without one it is a skip.
        pool = c.expect("--requires=pool", None, "pool")
        c.report(pool in (0, 77) and (one_device != 77 or pool == 77), f"pool skips where devices:1 does -> {pool}")

    if "containers" in layers:
        for bad in ["ranks:0", "ranks", "mpi:2"]:
            c.expect(f"--requires={bad}", 1, "a malformed requirement is a failure")
        # Run alone, the program is one rank.
        c.expect("--requires=ranks:1", 0, "ranks:1 holds on one rank")
        c.expect("--requires=ranks:2", 77, "ranks:2 is a skip on one rank")
        c.expect("--requires=any,ranks:2", 77, "ranks:2 in a list is a skip on one rank")
        mpi = c.expect("--requires=mpi", None, "mpi")
        c.report(mpi in (0, 77), f"mpi passes or skips -> {mpi}")
        got, _ = run(program, "--requires=ranks:1", "--test-case=no such test case")
        c.report(got == 77, f"a session in which no test case ran is a skip -> {got} (want 77)")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3].split(",")))
