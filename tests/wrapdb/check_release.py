#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_release.py SOURCE_ROOT WORK_DIR FIXTURE [meson setup options...]

Makes the release (packaging/wrapdb/release.py: meson dist of git HEAD, then dtl.wrap with the
tarball's hash; both checked against WrapDB's rules) and builds one consumer fixture from
fixtures/FIXTURE: a separate Meson project that holds only subprojects/dtl.wrap and the tarball in
subprojects/packagecache/, configured with --wrap-mode=nodownload, so nothing is downloaded.

  core-only       dependency('dtl-core') on a machine without a HIP toolchain (hipcc and nvcc are
                  hidden from PATH): nothing HIP may be configured; the program runs.
  hip-mem         dependency('dtl-hip-mem') with -Ddtl:hip=enabled (pass the platform options): the
                  consumer's own kernel is compiled with the wrap's dtl-hip-kc; built, not run.
  containers-mpi  dependency('dtl-containers') with -Ddtl:mpi=enabled; the program runs on 2 ranks.
  wrapdb-ci       what WrapDB's CI checks on a machine without HIP: setup clean with
                  --fatal-meson-warnings, and type_name() == 'internal' for every provided name that
                  ci_config.json does not skip.
Exits 77 (SKIP) when SOURCE_ROOT is not a git checkout, or has uncommitted changes to tracked files
(meson dist packs git HEAD, which would then not be the tree under test).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, log, env=None, cwd=None):
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd).returncode
    if rc != 0:
        with open(log, encoding="utf-8") as f:
            print(f.read()[-6000:])
        sys.exit(f"failed: {' '.join(cmd)} (full log: {log})")


def without_hip_toolchain(work):
    """An environment whose PATH holds only the build tools, so that hipcc and nvcc cannot be found."""
    bindir = os.path.join(work, "bin-without-hip")
    os.makedirs(bindir, exist_ok=True)
    for tool in ("meson", "ninja", "c++", "g++", "gcc", "cc", "cpp", "as", "ld", "ld.bfd", "ar", "ranlib", "nm",
                 "strip", "objcopy", "readelf", "pkg-config", "pkgconf", "cmake", "python3", "git", "sh"):
        path = shutil.which(tool)
        if path:
            os.symlink(path, os.path.join(bindir, tool))
    for hip_tool in ("hipcc", "nvcc"):
        if shutil.which(hip_tool, path=bindir):
            sys.exit(f"{hip_tool} is still on the restricted PATH")
    return dict(os.environ, PATH=bindir)


def main(source_root, work, fixture, *setup_options):
    if not os.path.exists(os.path.join(source_root, ".git")):
        print(f"{source_root} is not a git checkout: meson dist needs one")
        return 77
    sys.path.insert(0, os.path.join(source_root, "packaging", "wrapdb"))
    import release  # packaging/wrapdb/release.py

    # meson dist packs git HEAD: with tracked files changed, the release would not be the tree under test.
    if release.uncommitted_changes(source_root) is not False:
        print(f"{source_root} has uncommitted changes (or git cannot read it): the release would be git HEAD, "
              "not this tree; commit first")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    tarball, wrap = release.make_release(os.path.join(work, "release"), release.OFFLINE_URL_BASE)

    project = os.path.join(work, fixture)
    shutil.copytree(os.path.join(HERE, "fixtures", fixture), project)
    os.makedirs(os.path.join(project, "subprojects", "packagecache"))
    shutil.copy(wrap, os.path.join(project, "subprojects"))
    shutil.copy(tarball, os.path.join(project, "subprojects", "packagecache"))
    build = os.path.join(project, "build")
    log = os.path.join(work, fixture + ".log")
    setup = ["meson", "setup", build, project, "--wrap-mode=nodownload", *setup_options]

    if fixture == "core-only":
        env = without_hip_toolchain(work)
        run(setup, log, env=env)
        # Nothing HIP: no kernel compiler was made, and no build command names a HIP compiler or runtime.
        made = [os.path.join(d, f) for d, _, files in os.walk(build) for f in files if f == "dtl-hip-kc"]
        with open(os.path.join(build, "build.ninja"), encoding="utf-8") as f:
            ninja = f.read()
        hip_words = [w for w in ("hipcc", "nvcc", "amdhip64", "cudart", "__HIP_PLATFORM") if w in ninja]
        if made or hip_words:
            sys.exit(f"HIP was configured without a HIP toolchain: {made} {hip_words}")
        run(["meson", "compile", "-C", build], log, env=env)
        run([os.path.join(build, "consumer")], log)
    elif fixture == "hip-mem":
        run(setup + ["-Ddtl:hip=enabled"], log)
        # The platform asked for reached dtl-hip-mem inside the wrap (the consumer prints it).
        asked = [o.split("=", 1)[1] for o in setup_options if o.startswith("-Ddtl:hip_platform=")]
        with open(log, encoding="utf-8") as f:
            if asked and f"dtl-hip-mem platform: {asked[-1]}" not in f.read():
                sys.exit(f"dtl-hip-mem was not configured for {asked[-1]}")
        run(["meson", "compile", "-C", build, "consumer"], log)
    elif fixture == "containers-mpi":
        run(setup + ["-Ddtl:mpi=enabled", "-Ddtl:hip=disabled"], log)
        run(["meson", "compile", "-C", build, "consumer"], log)
        mpi_env = dict(os.environ, OMPI_MCA_plm="isolated", OMPI_MCA_btl="self,vader")
        run(["mpiexec", "--allow-run-as-root", "--oversubscribe", "-n", "2", os.path.join(build, "consumer")], log,
            env=mpi_env)
    elif fixture == "wrapdb-ci":
        with open(os.path.join(source_root, "packaging", "wrapdb", "releases.json"), encoding="utf-8") as f:
            provided = json.load(f)["dtl"]
        with open(os.path.join(source_root, "packaging", "wrapdb", "ci_config.json"), encoding="utf-8") as f:
            ci = json.load(f)["dtl"]
        deps = [d for d in provided["dependency_names"] if d not in ci.get("skip_dependency_check", [])]
        progs = [p for p in provided.get("program_names", []) if p not in ci.get("skip_program_check", [])]
        options = ["-D" + o for o in ci.get("build_options", [])]
        run(setup + ["--fatal-meson-warnings", "-Ddepnames=" + ",".join(deps), "-Dprognames=" + ",".join(progs),
                     *options], log, env=without_hip_toolchain(work))
    else:
        sys.exit(f"unknown fixture {fixture}")
    with open(log, encoding="utf-8") as f:
        print(f.read()[-3000:])
    print(f"fixture {fixture}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
