#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_smpi_refusal.py SOURCE_ROOT WORK_DIR MESON: the simulation build (-Dmpi_impl=smpi) refuses to
configure, with a message that says why, when SimGrid's SMPI is not what it would build against:
  - smpicxx absent (a native file names a program that is on no PATH);
  - an smpicxx whose flags find an mpi.h that is not SMPI's (a stand-in wrapper and mpi.h, as a
    machine's Open MPI would be found);
  - shared DTL libraries, whose globals smpirun would not give each rank a copy of.
Each case configures the workspace (no tests, examples or tools) and must fail with its message."""
import os
import stat
import subprocess
import sys
import textwrap

CASES = {
    "smpicxx-absent": ("smpicxx was not found", []),
    "mpi-h-not-smpi": ("is not SimGrid's SMPI", []),
    "shared-libraries": ("needs static DTL libraries", ["-Ddefault_library=shared"]),
}


def write_native_file(case_dir, case):
    """The native file that gives the case its smpicxx."""
    if case == "mpi-h-not-smpi":
        include = os.path.join(case_dir, "other-mpi", "include")
        os.makedirs(include, exist_ok=True)
        with open(os.path.join(include, "mpi.h"), "w", encoding="utf-8") as header:
            header.write("#define MPI_VERSION 3\ntypedef int MPI_Comm;\n")
        smpicxx = os.path.join(case_dir, "other-mpi", "smpicxx")
        with open(smpicxx, "w", encoding="utf-8") as wrapper:
            wrapper.write(f"#!/bin/sh\necho c++ -I{include} -lm\n")
        os.chmod(smpicxx, os.stat(smpicxx).st_mode | stat.S_IXUSR)
    else:  # a name that no PATH holds: not found, as on a machine without SimGrid
        smpicxx = "dtl-check-smpi-refusal-no-such-smpicxx"
    native = os.path.join(case_dir, "native.ini")
    with open(native, "w", encoding="utf-8") as out:
        out.write(textwrap.dedent(f"""\
            [binaries]
            smpicxx = '{smpicxx}'
            """))
    return native


def main():
    source_root, work_dir, meson = sys.argv[1:4]
    runs = {}
    for case, (_, options) in CASES.items():
        case_dir = os.path.join(work_dir, case)
        subprocess.run(["rm", "-rf", case_dir], check=True)
        os.makedirs(case_dir)
        command = [meson, "setup", os.path.join(case_dir, "build"), source_root, "-Dmpi_impl=smpi",
                   "-Ddefault_library=static", "-Dhip=disabled", "-Dtests=disabled", "-Dexamples=disabled",
                   "-Dbenchmarks=disabled", "-Dtools=disabled", "--wrap-mode=nodownload",
                   "--native-file", write_native_file(case_dir, case)] + options
        runs[case] = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    failures = 0
    for case, run in runs.items():
        output, _ = run.communicate(timeout=300)
        expected = CASES[case][0]
        errors = [line for line in output.splitlines() if "ERROR:" in line]
        if run.returncode == 0:
            print(f"{case}: configure succeeded; it should have refused ({expected})")
            failures += 1
        elif not any(expected in line for line in errors):
            print(f"{case}: configure failed, but not with '{expected}':\n" + "\n".join(errors or output.splitlines()[-10:]))
            failures += 1
        else:
            print(f"{case}: refused: {errors[0].split('ERROR: ', 1)[-1]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
