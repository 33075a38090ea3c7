# SPDX-License-Identifier: MIT
"""What scripts/check-upstream-examples and scripts/check-upstream-tests share: the compiler flags that a
Meson build gives upstream-style programs, MPI's flags, and the one-line form of a compiler's error."""
import json
import os
import re
import shlex
import subprocess
import sys

# The build's own upstream-style test: its compile command carries every include path an upstream program needs.
UPSTREAM_STYLE_SOURCE = "dtl-containers/tests/upstream_program_test.cpp"


def include_flags(build):
    """(directory the compiler runs in, the -I/-D/-isystem flags) of BUILD's upstream-style test."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    entry = next((c for c in commands if c["file"].endswith(UPSTREAM_STYLE_SOURCE)), None)
    if entry is None:
        sys.exit(f"{build}: no compile command for {UPSTREAM_STYLE_SOURCE}")
    args = entry.get("arguments") or shlex.split(entry["command"])
    flags = []
    for i, arg in enumerate(args):
        if arg.startswith(("-I", "-D", "-isystem")):
            flags.append(arg)
            if arg in ("-I", "-D", "-isystem"):
                flags.append(args[i + 1])
    # The paths are relative to the build directory, where the compiler runs.
    return entry["directory"], flags


def mpi_flags(which):
    """MPI's compile or link flags, as the MPI compiler wrapper gives them (which: "compile" or "link")."""
    return shlex.split(subprocess.run(["mpicxx", f"--showme:{which}"], capture_output=True, text=True,
                                      check=True).stdout)


# A compiler's or linker's error line (not a path that happens to hold the word "error").
ERROR_LINE = re.compile(r"(\berror:|undefined reference to)")


def first_error(text):
    for line in text.splitlines():
        if ERROR_LINE.search(line):
            return line.strip()
    return text.strip().splitlines()[0] if text.strip() else ""
