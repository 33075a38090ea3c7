#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""release.py [--out DIR] [--url-base URL]

Makes a release of the workspace as WrapDB takes it: `meson dist` (git HEAD, with the symlinked
members) gives DIR/dtl-<version>.tar.xz, and dtl.wrap.in becomes DIR/dtl.wrap with that tarball's
sha256 and its download address, URL-BASE/v<version>/dtl-<version>.tar.xz. Both are then checked
with check_wrap.py. For a real release: tag v<version>, run this with the address where the tag's
release files live, upload the tarball there, and submit dtl.wrap and the entries of releases.json
and ci_config.json to WrapDB. Needs git and meson; downloads nothing.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
# Where tests point the wrap: a reserved name that never resolves, so a download attempt fails at once.
OFFLINE_URL_BASE = "https://dtl.invalid/releases/download"

sys.path.insert(0, HERE)
import check_wrap  # noqa: E402


def run(cmd, log):
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        if subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode != 0:
            sys.exit(f"release: failed: {' '.join(cmd)} (log: {log})")


def uncommitted_changes(root=SOURCE_ROOT):
    """Whether tracked files differ from git HEAD, which is what meson dist packs; None if git cannot tell."""
    status = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                            capture_output=True, text=True)
    return None if status.returncode != 0 else bool(status.stdout.strip())


def make_release(out, url_base):
    os.makedirs(out, exist_ok=True)
    build = os.path.join(out, "dist-build")
    log = os.path.join(out, "release.log")
    shutil.rmtree(build, ignore_errors=True)
    # A minimal configuration: meson dist only needs a configured build folder of the workspace.
    run(["meson", "setup", build, SOURCE_ROOT, "--wrap-mode=nodownload", "-Dhip=disabled", "-Dmpi=disabled",
         "-Dtests=disabled", "-Dexamples=disabled", "-Dbenchmarks=disabled", "-Dtools=disabled"], log)
    if uncommitted_changes():
        print("release: note: uncommitted changes are not in the tarball (meson dist packs git HEAD)")
    run(["meson", "dist", "-C", build, "--no-tests", "--formats", "xztar", "--allow-dirty"], log)
    info = json.loads(subprocess.run(["meson", "introspect", "--projectinfo", build], check=True,
                                     capture_output=True, text=True).stdout)
    version = info["version"]
    filename = f"dtl-{version}.tar.xz"
    tarball = os.path.join(out, filename)
    shutil.copyfile(os.path.join(build, "meson-dist", filename), tarball)
    with open(tarball, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(HERE, "dtl.wrap.in"), encoding="utf-8") as f:
        wrap = f.read()
    wrap = wrap.replace("@VERSION@", version).replace("@URL_BASE@", url_base.rstrip("/")).replace("@SHA256@", digest)
    wrap_path = os.path.join(out, "dtl.wrap")
    with open(wrap_path, "w", encoding="utf-8") as f:
        f.write(wrap)
    problems = check_wrap.check(wrap_path, tarball)
    for p in problems:
        print("wrapdb:", p)
    if problems:
        sys.exit(f"release: {len(problems)} WrapDB problem(s)")
    print(f"release: {tarball} (sha256 {digest})\nrelease: {wrap_path}")
    return tarball, wrap_path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(SOURCE_ROOT, "build-release"))
    parser.add_argument("--url-base", default=OFFLINE_URL_BASE,
                        help="where the release files are published (default: an address that never resolves)")
    args = parser.parse_args()
    if args.url_base == OFFLINE_URL_BASE:
        print(f"release: note: source_url points to {OFFLINE_URL_BASE}; give --url-base for a real release")
    make_release(os.path.abspath(args.out), args.url_base)


if __name__ == "__main__":
    main()
