# SPDX-License-Identifier: MIT
"""What scripts/check-upstream-examples and scripts/check-upstream-tests share: the compiler flags that a
Meson build gives upstream-style programs, the libraries they link with, MPI's flags, and the one-line form
of a compiler's error."""
import glob
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


def build_libraries(build):
    """The link flags of BUILD's DTL libraries (each member's shared or static library), then the libraries
    outside BUILD that its upstream-style test links with (fmt; on HIP's NVIDIA platform the CUDA runtime,
    which a program that calls cudaMemcpy itself must name)."""
    libs = sorted(p for pattern in ("lib*.so", "lib*.a")
                  for p in glob.glob(os.path.join(build, "subprojects", "*", "**", pattern), recursive=True)
                  if ".p/" not in p)
    if not libs:
        sys.exit(f"{build}: no DTL library under {build}/subprojects/*/")
    dirs = sorted({os.path.dirname(p) for p in libs})
    outside = external_libraries(build)
    dirs += sorted({os.path.dirname(p) for p in outside})
    return ([f"-L{d}" for d in dirs] + [f"-Wl,-rpath,{d}" for d in dirs] + ["-Wl,--start-group"] + libs +
            ["-Wl,--end-group"] + outside)


def external_libraries(build):
    """The shared libraries outside BUILD on the link line of its upstream-style test (Meson's introspection)."""
    with open(os.path.join(build, "meson-info", "intro-targets.json"), encoding="utf-8") as f:
        targets = json.load(f)
    for target in targets:
        sources = target.get("target_sources", [])
        if any(src.endswith(UPSTREAM_STYLE_SOURCE) for s in sources for src in s.get("sources", [])):
            return [arg for s in sources if "linker" in s for arg in s.get("parameters", [])
                    if os.path.isabs(arg) and ".so" in os.path.basename(arg)
                    and not os.path.realpath(arg).startswith(os.path.realpath(build) + os.sep)]
    return []


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
