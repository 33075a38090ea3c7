#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the workspace rules that the compiler cannot:

- layering: a component includes headers and depends (Meson dependency()) only on components below it;
  no relative include reaches into another component;
- inside dtl-containers, its parts (CONTAINERS_PARTS): a file includes only its own part's files and
  those of the parts its row names (the communication runtime nothing of the containers, their device
  machinery or the algorithms; the containers nothing of the algorithms);
- every header of dtl-containers is named in its include/meson.build (so it is installed);
- every test source in a component's tests/ folder is built by its tests/meson.build;
- no test case decides at run time, on the device count, to pass without testing: neither
  `if (<device count>) return;` nor `doctest::skip(<device count>)`. Such cases belong to a suite whose
  Meson test states the requirement (--requires, see dtl-core/tests/support/test_main.hpp), so that
  Meson reports them as SKIP where they cannot run;
- platform macros (__HIP_PLATFORM_AMD__/__HIP_PLATFORM_NVIDIA__) appear only in the one platform file;
- subprojects/dtl-* are symlinks to ../dtl-*;
- every source file of the workspace (C++, Python, Meson, scripts) starts with its SPDX licence line
  (after a #! line).
Prints each violation and exits 1 if there is any.
"""
import fnmatch
import os
import re
import sys

LAYERS = ["dtl-core", "dtl-hip-mem", "dtl-hip-exec", "dtl-containers"]
PLATFORM_FILES = {"dtl-hip-mem/src/platform.cpp", "dtl-hip-mem/include/dtl/hip/runtime.hpp"}
SOURCE_EXT = (".hpp", ".cpp", ".hip", ".h")

# dtl-containers' parts: (part, its files as patterns under dtl-containers/, the parts it may include besides
# its own). A file belongs to the first row with a pattern that matches it; "*" spans folders. Files of no
# part (tests, upstream's forwarding paths such as dtl/communication/) are not checked.
CONTAINERS = "dtl-containers"
CONTAINERS_PARTS = [
    ("shared", ["include/dtl/containers/export.hpp", "include/dtl/containers/config.hpp*",
                "include/dtl/containers/host_device.hpp"], []),
    # the GPU machinery: scratch, primitives, kernels, operator adaptors, the CUB / rocPRIM backends
    ("gpu", ["include/dtl/containers/gpu/*"], ["shared"]),
    # contexts, environment, agreement, collectives, point-to-point, the context's lanes (streams); MPI,
    # RCCL/NCCL and self transports
    ("communication", ["src/comm/*", "src/transport/*", "src/gpu_comm/*", "include/dtl/containers/communication/*"],
     ["shared", "gpu"]),
    ("algorithms", ["include/dtl/containers/algorithms.hpp", "include/dtl/containers/algorithms/*"],
     ["shared", "gpu", "communication", "containers"]),
    # distributed_vector and the other containers, their views, halo and detail/
    ("containers", ["src/containers/*", "src/halo/*", "include/dtl/containers/*"],
     ["shared", "gpu", "communication"]),
    # this node's hardware, affinity, distances, and the ranks of a context on their nodes (upstream's
    # dtl/topology/ paths)
    ("topology", ["src/topology/*", "include/dtl/topology/*"], ["shared", "communication"]),
]
# Includes that break a part's rule for now: (file, included file) -> why. One that is no longer there is
# reported too, so the list only shrinks.
CONTAINERS_EXCEPTIONS = {}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
DEPENDENCY_RE = re.compile(r"dependency\(\s*'(dtl-[a-z-]+)'")
DEVICE_COUNT_VAR_RE = re.compile(r"(\w+)\s*=\s*(?:dtl::hip::)?device_count\(\)")
DEVICE_SKIP_RE = re.compile(r"doctest::skip\([^;]*?(device_count|no_device)")
PASSING_RETURN_RE = re.compile(r"\breturn\s*(0\s*)?;")


def balanced(text, start, open_char, close_char):
    """The text from text[start] (== open_char) to its matching close_char, inclusive."""
    depth = 0
    for i in range(start, len(text)):
        depth += {open_char: 1, close_char: -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
    return text[start:]


def device_count_passes(text):
    """`if (...)` statements that test the device count and return without failing: a test that
    passes where it should skip."""
    names = {"device_count()", *DEVICE_COUNT_VAR_RE.findall(text)}
    found = []
    for m in re.finditer(r"\bif\s*\(", text):
        cond = balanced(text, m.end() - 1, "(", ")")
        if not any(re.search(re.escape(n) if n.endswith(")") else rf"\b{re.escape(n)}\b", cond) for n in names):
            continue
        rest = text[m.end() - 1 + len(cond):].lstrip()
        body = balanced(rest, 0, "{", "}") if rest.startswith("{") else rest.split(";", 1)[0] + ";"
        if PASSING_RETURN_RE.search(body):
            found.append(text.count("\n", 0, m.start()) + 1)
    return found


def containers_part(rel):
    """The part of dtl-containers that `rel` (a path under dtl-containers/) belongs to, or None."""
    for part, patterns, _ in CONTAINERS_PARTS:
        if any(fnmatch.fnmatchcase(rel, p) for p in patterns):
            return part
    return None


def containers_part_errors(root):
    """Includes between dtl-containers' parts that CONTAINERS_PARTS does not allow."""
    base = os.path.join(root, CONTAINERS)
    allowed = {part: {part, *may} for part, _, may in CONTAINERS_PARTS}
    errors, used = [], set()
    for path in walk(root, CONTAINERS):
        rel = os.path.relpath(path, base)
        part = containers_part(rel)
        if part is None or not path.endswith(SOURCE_EXT):
            continue
        for kind, target in INCLUDE_RE.findall(open(path, encoding="utf-8").read()):
            if kind == "<":
                included = os.path.join("include", target)
            else:  # private headers: by their path under src/, else beside the file
                under_src = os.path.join("src", target)
                beside = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(path), target)), base)
                included = under_src if os.path.exists(os.path.join(base, under_src)) else beside
            other = containers_part(included)
            if other is None or other in allowed[part]:
                continue
            if (rel, included) in CONTAINERS_EXCEPTIONS:
                used.add((rel, included))
                continue
            errors.append(f"{CONTAINERS}/{rel}: the {part} part includes {target} of the {other} part")
    for rel, included in sorted(set(CONTAINERS_EXCEPTIONS) - used):
        errors.append(f"{CONTAINERS}/{rel}: no longer includes {included}: drop it from CONTAINERS_EXCEPTIONS")
    return errors


def containers_header_errors(root):
    """dtl-containers' headers that its include/meson.build (the one list the install and the header tests are
    made from) does not name: an installed header that includes one would not compile."""
    inc = os.path.join(root, CONTAINERS, "include")
    lists = "".join(open(os.path.join(d, "meson.build"), encoding="utf-8").read()
                    for d in (inc, os.path.join(inc, "dtl", "containers"))
                    if os.path.exists(os.path.join(d, "meson.build")))
    return [f"{CONTAINERS}/include/{rel}: not named in {CONTAINERS}/include/meson.build (never installed)"
            for rel in sorted(os.path.relpath(p, inc) for p in walk(root, os.path.join(CONTAINERS, "include"))
                              if p.endswith(".hpp"))
            if f"'{rel}'" not in lists]


def walk(root, top):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs[:] = [x for x in dirs if x != "subprojects" and not x.startswith(("build", "."))]
        for f in files:
            yield os.path.join(d, f)


SPDX_RE = re.compile(r"^(#![^\n]*\n)?(//|#) SPDX-License-Identifier: MIT\n")
LICENSED_NAMES = ("meson.build", "meson_options.txt")
LICENSED_FOLDERS = ("scripts", ".ci")


def licence_errors(root):
    """Source files without the SPDX line at their top."""
    errors = []
    for top in sorted(os.listdir(root)):
        if top.startswith(("build", ".")) and top != ".ci" or top == "subprojects":
            continue
        paths = walk(root, top) if os.path.isdir(os.path.join(root, top)) else [os.path.join(root, top)]
        for path in paths:
            rel = os.path.relpath(path, root)
            name = os.path.basename(path)
            licensed = (path.endswith(SOURCE_EXT + (".py", ".hpp.in", ".cpp.in")) or name in LICENSED_NAMES or
                        rel.split(os.sep)[0] in LICENSED_FOLDERS)
            if not licensed or "__pycache__" in rel:
                continue
            with open(path, encoding="utf-8") as f:
                if not SPDX_RE.match(f.read(400)):
                    errors.append(f"{rel}: does not start with '// SPDX-License-Identifier: MIT' (or '# ...')")
    return errors


def main(root):
    errors = []
    owner = {}  # public header path ("dtl/hip/x.hpp") -> component
    for comp in LAYERS:
        inc = os.path.join(root, comp, "include")
        for path in walk(root, os.path.join(comp, "include")):
            owner[os.path.relpath(path, inc)] = comp

    for level, comp in enumerate(LAYERS):
        for path in walk(root, comp):
            rel = os.path.relpath(path, root)
            if path.endswith(SOURCE_EXT):
                text = open(path, encoding="utf-8").read()
                for kind, target in INCLUDE_RE.findall(text):
                    if kind == "<" and target in owner and LAYERS.index(owner[target]) > level:
                        errors.append(f"{rel}: includes <{target}> from {owner[target]}, a layer above {comp}")
                    if kind == '"' and ".." in target:
                        resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
                        if not resolved.startswith(os.path.join(root, comp) + os.sep):
                            errors.append(f'{rel}: relative include "{target}" leaves {comp}')
                if ("__HIP_PLATFORM_AMD__" in text or "__HIP_PLATFORM_NVIDIA__" in text) and rel not in PLATFORM_FILES:
                    errors.append(f"{rel}: platform macro outside the platform files {sorted(PLATFORM_FILES)}")
            if os.path.basename(path) == "meson.build":
                for dep in DEPENDENCY_RE.findall(open(path, encoding="utf-8").read()):
                    if dep in LAYERS and LAYERS.index(dep) >= level and dep != comp:
                        errors.append(f"{rel}: depends on {dep}, which is not below {comp}")

        tests = os.path.join(root, comp, "tests")
        for path in walk(root, os.path.join(comp, "tests")):
            if not path.endswith((".cpp", ".hip", ".hpp")):
                continue
            text = open(path, encoding="utf-8").read()
            rel = os.path.relpath(path, root)
            for line in device_count_passes(text):
                errors.append(f"{rel}:{line}: returns (passes) on the device count; give the case a suite "
                              "whose Meson test states --requires")
            for m in DEVICE_SKIP_RE.finditer(text):
                errors.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: doctest::skip on the device count "
                              "passes where it should skip; give the case a suite whose Meson test states --requires")
        if os.path.isdir(tests):
            build = open(os.path.join(tests, "meson.build"), encoding="utf-8").read()
            for f in sorted(os.listdir(tests)):
                if f.endswith((".cpp", ".hip")) and f"'{f}'" not in build:
                    errors.append(f"{comp}/tests/{f}: not built by {comp}/tests/meson.build")

        link = os.path.join(root, "subprojects", comp)
        if not os.path.islink(link) or os.readlink(link) != f"../{comp}":
            errors.append(f"subprojects/{comp}: must be a symlink to ../{comp}")

    errors += containers_part_errors(root)
    errors += containers_header_errors(root)
    errors += licence_errors(root)
    for e in errors:
        print("layout:", e)
    print(f"layout: {len(LAYERS)} components checked, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")))
