#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""run_fault.py: runs one case of fault_cases under mpiexec and checks how the job ended.

  run_fault.py --mpiexec MPIEXEC [--mpi-arg=ARG]... --ranks N --program PROG --case CASE
               [--timeout SECONDS] [--exit nonzero|N] [--expect TEXT]... [--absent TEXT]... [--env NAME=VALUE]...

Runs `MPIEXEC ARG... -n N PROG CASE` in a process group of its own. A job still running after --timeout
seconds (default 60) hangs: the whole group is killed and the test fails. Otherwise the job's exit status
must be --exit ('nonzero': the job ended in failure; a number: exactly that), and its output (stdout and
stderr together) must contain every --expect and no --absent text. Exit status 0 when all hold, 1 when not.
"""
import argparse
import os
import signal
import subprocess
import sys


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already


def run_job(command, env, timeout):
    """(exit status or None when it hung, output)."""
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        kill_group(p.pid)
        out, _ = p.communicate()
        code = None
    kill_group(p.pid)  # a rank left behind by mpiexec must not outlive the test
    return code, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--mpi-arg", action="append", default=[], help="an argument for mpiexec (use --mpi-arg=--x)")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--exit", default="nonzero", help="'nonzero' or an exit status")
    ap.add_argument("--expect", action="append", default=[], help="text the output must contain")
    ap.add_argument("--absent", action="append", default=[], help="text the output must not contain")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the job's environment")
    args = ap.parse_args()

    env = dict(os.environ)
    for item in args.env:
        name, sep, value = item.partition("=")
        if not sep:
            sys.exit(f"--env {item}: expected NAME=VALUE")
        env[name] = value
    command = [args.mpiexec, *args.mpi_arg, "-n", str(args.ranks), args.program, args.case]
    print("running:", " ".join(command), flush=True)
    code, out = run_job(command, env, args.timeout)
    print(out, end="")

    failures = []
    if code is None:
        failures.append(f"the job hung: still running after {args.timeout:g} s (killed)")
    elif args.exit == "nonzero":
        if code == 0:
            failures.append("the job exited 0; expected it to end in failure")
    elif code != int(args.exit):
        failures.append(f"the job exited {code}; expected {args.exit}")
    for text in args.expect:
        if text not in out:
            failures.append(f"the output lacks {text!r}")
    for text in args.absent:
        if text in out:
            failures.append(f"the output has {text!r}")
    print(f"--- case {args.case} on {args.ranks} ranks: " + ("hung" if code is None else f"exit status {code}"))
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
