#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_install.py MODE BUILD_DIR WORK_DIR PLATFORM KERNEL_ARCHS COMPILER CXX

Installs the build into WORK_DIR/stage (meson install --destdir) and builds consumer.hip against the
installed dtl-hip-exec through pkg-config only, as a user would:
  - with the platform's own compiler (hipcc on AMD, nvcc on NVIDIA, which compiles and then the C++
    compiler links, as with any nvcc object), flags from `pkg-config --cflags --libs dtl-hip-exec`;
  - with the installed dtl-hip-kc (the README's recipe for your own kernels), then the C++ compiler.
MODE build: install and build, checking what pkg-config gives. MODE run: run both programs (building
them first if needed); 77 (SKIP) when they find no device.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sh(cmd, **kw):
    print("+", " ".join(shlex.quote(c) for c in cmd), flush=True)
    return subprocess.run(cmd, check=True, text=True, **kw)


def pkg_config(env, *args):
    return subprocess.run(["pkg-config", *args], check=True, text=True, capture_output=True, env=env).stdout.split()


def build(build_dir, work, platform, archs, compiler, cxx):
    shutil.rmtree(work, ignore_errors=True)
    stage = os.path.join(work, "stage")
    sh(["meson", "install", "-C", build_dir, "--destdir", stage, "--no-rebuild", "--quiet"])
    intro = subprocess.run(["meson", "introspect", "--buildoptions", build_dir], check=True, text=True,
                           capture_output=True).stdout
    opts = {o["name"]: o["value"] for o in json.loads(intro) if o["section"] == "directory"}
    prefix = stage + opts["prefix"]
    libdir = stage + os.path.join(opts["prefix"], opts["libdir"])  # libdir may be absolute
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    define = [f"--define-variable=prefix={prefix}"]
    cflags = pkg_config(env, *define, "--cflags", "dtl-hip-exec")
    libs = pkg_config(env, *define, "--libs", "dtl-hip-exec")
    print("cflags:", " ".join(cflags), "\nlibs:  ", " ".join(libs))

    # What a consumer needs must all be there.
    includedir = os.path.join(prefix, "include")
    expect = {f"-I{includedir}", f"-I{includedir}/dtl-hip", "-ldtl-hip-exec", "-ldtl-hip-mem", "-ldtl-core"}
    if platform == "amd":
        expect |= {"-D__HIP_PLATFORM_AMD__", "-lamdhip64"}
    else:
        expect |= {"-D__HIP_PLATFORM_NVIDIA__", "-lcudart"}
        hip_inc = cflags[cflags.index("-isystem") + 1] if "-isystem" in cflags else ""
        if not os.path.isfile(os.path.join(hip_inc, "hip", "hip_runtime.h")):
            sys.exit(f"pkg-config gives no -isystem folder holding hip/hip_runtime.h: {cflags}")
    missing = expect - set(cflags) - set(libs)
    if missing:
        sys.exit(f"missing from pkg-config --cflags/--libs dtl-hip-exec: {sorted(missing)}")
    for header in ("dtl/hip/export_exec.hpp", "dtl-hip/backends/hip/hip_executor.hpp"):
        if not os.path.isfile(os.path.join(includedir, header)):
            sys.exit(f"not installed: include/{header}")

    # Libraries outside the default search path are found at run time through an rpath, as a
    # consumer's build system would set it.
    rpath = [f"-Wl,-rpath,{flag[2:]}" for flag in libs if flag.startswith("-L")]
    source = os.path.join(HERE, "consumer.hip")
    direct = os.path.join(work, "consumer-" + os.path.basename(compiler))
    if platform == "amd":
        arch_flags = [f"--offload-arch={a}" for a in archs.split(",")]
        sh([compiler, "-x", "hip", "-std=c++20", *arch_flags, *cflags, source, "-o", direct, *libs, *rpath])
    else:
        obj = direct + ".o"
        sh([compiler, "-x", "cu", "-std=c++20", f"-arch={archs}", "-ccbin", cxx, *cflags, "-c", source, "-o", obj])
        sh([cxx, obj, "-o", direct, *libs, *rpath])

    kc = pkg_config(env, *define, "--variable=kernel_compiler", "dtl-hip-exec")[0]
    if not os.access(kc, os.X_OK):
        sys.exit(f"the kernel_compiler variable names no installed program: {kc}")
    # The README's recipe passes kernel_includes too (the installed dtl-hip-kc would find the headers alone).
    kernel_includes = pkg_config(env, *define, "--variable=kernel_includes", "dtl-hip-exec")
    if not kernel_includes:
        sys.exit("dtl-hip-exec's pkg-config file has no kernel_includes variable")
    obj = os.path.join(work, "consumer-kc.o")
    sh([kc, source, obj, obj + ".d", *kernel_includes])
    sh([cxx, obj, "-o", os.path.join(work, "consumer-kc"), *libs, *rpath])
    print("built through pkg-config only:", direct, os.path.join(work, "consumer-kc"))


def run(work, compiler):
    results = []
    for program in ("consumer-" + os.path.basename(compiler), "consumer-kc"):
        p = subprocess.run([os.path.join(work, program)])
        results.append(p.returncode)
    if any(rc not in (0, 77) for rc in results):
        sys.exit(f"exit statuses {results}")
    if all(rc == 77 for rc in results):
        sys.exit(77)
    if 77 in results:
        sys.exit(f"one program found a device and the other did not: {results}")


def main(mode, build_dir, work, platform, archs, compiler, cxx):
    programs = [os.path.join(work, p) for p in ("consumer-" + os.path.basename(compiler), "consumer-kc")]
    if mode == "build" or not all(os.path.exists(p) for p in programs):
        build(build_dir, work, platform, archs, compiler, cxx)
    if mode == "run":
        run(work, compiler)


if __name__ == "__main__":
    main(*sys.argv[1:])
