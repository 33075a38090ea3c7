#!/usr/bin/env python3
"""Checks the exit codes of a test program built on the shared test main (test_main.cpp): 77, Meson's
SKIP, when the machine lacks what --requires names or when no test case ran; 1 for an unknown
requirement; doctest's own result otherwise. Usage: check_test_main.py PROGRAM (with an 'error' suite)."""
import subprocess
import sys


def run(program, *args):
    done = subprocess.run([program, *args, "--no-version"], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main(program):
    cases = [
        (["--requires=devices:1024", "--test-suite=error"], 77, "a requirement the machine lacks is a skip"),
        (["--requires=any", "--test-case=no such test case"], 77, "a run in which no test case ran is a skip"),
        (["--requires=any", "--test-suite=error"], 0, "a run that passes is a pass"),
        (["--test-suite=error"], 0, "no --requires means any"),
        (["--requires=bogus", "--test-suite=error"], 1, "an unknown requirement is an error"),
        (["--requires=devices:0", "--test-suite=error"], 1, "devices:0 is an unknown requirement"),
    ]
    failures = 0
    for args, want, what in cases:
        got, output = run(program, *args)
        ok = got == want
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {' '.join(args)} -> {got} (want {want})")
        if not ok:
            print(output)
    # Every machine either has a device or has none: exactly one of the two runs is a skip.
    no_device, _ = run(program, "--requires=no-device", "--test-suite=error")
    one_device, _ = run(program, "--requires=devices:1", "--test-suite=error")
    ok = sorted([no_device, one_device]) == [0, 77]
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} no-device and devices:1 exclude each other -> {no_device}, {one_device}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
