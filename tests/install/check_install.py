#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_install.py MODE BUILD_DIR WORK_DIR ...

Installs the build into WORK_DIR/stage (meson install --destdir, no rebuild), a prefix that is not the
configured one: the install must work from there, as from any prefix (--prefix=$HOME/dtl), without
LD_LIBRARY_PATH. pkg-config is pointed at it with --define-variable=prefix (every path in the .pc files
derives from ${prefix}); the installed programs find their libraries through an rpath relative to
themselves.

MODE prefix BUILD_DIR WORK_DIR CXX SOURCE_ROOT HIP_PLATFORM (every configuration; HIP_PLATFORM none
without HIP): checks that each .pc file carries the variables README.md promises, and that its Libs carry
an rpath to the libraries (unless the prefix is /usr); builds the README's one-liner
`c++ $(pkg-config --cflags dtl-containers) app.cpp $(pkg-config --libs dtl-containers)` (host_consumer.cpp)
and a Meson project that finds the installed dtl-core through pkg-config (tests/consumer, which the test
consume-dtl-core-as-subproject builds with dtl-core as a subproject); runs both and the installed dtl-info.

MODE build|run BUILD_DIR WORK_DIR PLATFORM KERNEL_ARCHS COMPILER CXX (HIP builds): builds consumer.hip
against the installed dtl-hip-exec through pkg-config only, as a user would:
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


class Stage:
    """The build installed under WORK_DIR/stage: its prefix, folders, and pkg-config pointed at it."""

    def __init__(self, build_dir, work, install=True):
        root = os.path.join(work, "stage")
        if install:
            shutil.rmtree(work, ignore_errors=True)
            sh(["meson", "install", "-C", build_dir, "--destdir", root, "--no-rebuild", "--quiet"])
        intro = subprocess.run(["meson", "introspect", "--buildoptions", build_dir], check=True, text=True,
                               capture_output=True).stdout
        opts = {o["name"]: o["value"] for o in json.loads(intro) if o["section"] == "directory"}
        self.configured_prefix = opts["prefix"]
        self.prefix = root + opts["prefix"]
        # libdir and bindir may be absolute
        self.libdir = root + os.path.join(opts["prefix"], opts["libdir"])
        self.bindir = root + os.path.join(opts["prefix"], opts["bindir"])
        self.pcdir = os.path.join(self.libdir, "pkgconfig")
        self.env = dict(os.environ, PKG_CONFIG_PATH=self.pcdir)
        self.define = [f"--define-variable=prefix={self.prefix}"]
        # What a program of this install runs with: no LD_LIBRARY_PATH, but under /usr the .pc files carry no
        # rpath (the dynamic loader's own folders), and the staged copy is not there.
        self.run_env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
        if self.configured_prefix == "/usr":
            self.run_env["LD_LIBRARY_PATH"] = self.libdir

    def pkg_config(self, *args):
        return pkg_config(self.env, *self.define, *args)

    def check_loads_from_stage(self, program):
        """Runs ldd on an installed or consumer program: every libdtl-* must resolve inside the stage."""
        out = subprocess.run(["ldd", program], check=True, text=True, capture_output=True, env=self.run_env).stdout
        dtl_libs = [line.split() for line in out.splitlines() if "libdtl-" in line]
        if not dtl_libs:
            sys.exit(f"{program} links no libdtl-* library:\n{out}")
        for parts in dtl_libs:
            # "libdtl-core.so.0.1 => /path/libdtl-core.so.0.1 (0x...)", or "=> not found"
            if len(parts) < 3 or os.path.dirname(os.path.realpath(parts[2])) != os.path.realpath(self.libdir):
                sys.exit(f"{program}: {' '.join(parts)} is not the staged {self.libdir}:\n{out}")


def build(build_dir, work, platform, archs, compiler, cxx):
    stage = Stage(build_dir, work)
    prefix = stage.prefix
    cflags = stage.pkg_config("--cflags", "dtl-hip-exec")
    libs = stage.pkg_config("--libs", "dtl-hip-exec")
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

    # Libraries outside the default search path are found at run time through the rpath in Libs.
    source = os.path.join(HERE, "consumer.hip")
    direct = os.path.join(work, "consumer-" + os.path.basename(compiler))
    if platform == "amd":
        arch_flags = [f"--offload-arch={a}" for a in archs.split(",")]
        sh([compiler, "-x", "hip", "-std=c++20", *arch_flags, *cflags, source, "-o", direct, *libs])
    else:
        obj = direct + ".o"
        sh([compiler, "-x", "cu", "-std=c++20", f"-arch={archs}", "-ccbin", cxx, *cflags, "-c", source, "-o", obj])
        sh([cxx, obj, "-o", direct, *libs])

    kc = stage.pkg_config("--variable=kernel_compiler", "dtl-hip-exec")[0]
    if not os.access(kc, os.X_OK):
        sys.exit(f"the kernel_compiler variable names no installed program: {kc}")
    # The README's recipe passes kernel_includes too (the installed dtl-hip-kc would find the headers alone).
    kernel_includes = stage.pkg_config("--variable=kernel_includes", "dtl-hip-exec")
    if not kernel_includes:
        sys.exit("dtl-hip-exec's pkg-config file has no kernel_includes variable")
    obj = os.path.join(work, "consumer-kc.o")
    sh([kc, source, obj, obj + ".d", *kernel_includes])
    sh([cxx, obj, "-o", os.path.join(work, "consumer-kc"), *libs])
    print("built through pkg-config only:", direct, os.path.join(work, "consumer-kc"))


def run(build_dir, work, compiler):
    env = Stage(build_dir, work, install=False).run_env
    results = []
    for program in ("consumer-" + os.path.basename(compiler), "consumer-kc"):
        p = subprocess.run([os.path.join(work, program)], env=env)
        results.append(p.returncode)
    if any(rc not in (0, 77) for rc in results):
        sys.exit(f"exit statuses {results}")
    if all(rc == 77 for rc in results):
        sys.exit(77)
    if 77 in results:
        sys.exit(f"one program found a device and the other did not: {results}")


# The variables README.md ("Installing") promises in each .pc file; the HIP layers' four are in every HIP
# layer's file, dtl-containers' included, in HIP builds.
PROMISED = {"dtl-core": {"kernel_includes"}, "dtl-containers": {"mpi", "nccl", "hip_platform"}}
HIP_PROMISED = {"hip_platform", "kernel_archs", "kernel_compiler", "kernel_includes"}


def prefix_mode(build_dir, work, cxx, source_root, hip_platform):
    stage = Stage(build_dir, work)
    promised = dict(PROMISED)
    if hip_platform != "none":
        for name in ("dtl-hip-mem", "dtl-hip-exec", "dtl-containers"):
            promised[name] = promised.get(name, set()) | HIP_PROMISED
    for name, variables in promised.items():
        present = set(stage.pkg_config("--print-variables", name))
        if variables - present:
            sys.exit(f"{name}.pc lacks the variables {sorted(variables - present)} (it has {sorted(present)})")
        pcfiledir = stage.pkg_config("--variable=pcfiledir", name)[0]
        if os.path.realpath(pcfiledir) != os.path.realpath(stage.pcdir):
            sys.exit(f"{name}.pc is in {pcfiledir}, not in <libdir>/pkgconfig ({stage.pcdir})")
        if hip_platform != "none" and name != "dtl-core":
            kc = stage.pkg_config("--variable=kernel_compiler", name)[0]
            if not os.access(kc, os.X_OK):
                sys.exit(f"{name}.pc's kernel_compiler names no installed program: {kc}")
    print("pkg-config files in", stage.pcdir, "with", {k: sorted(v) for k, v in promised.items()})

    cflags = stage.pkg_config("--cflags", "dtl-containers")
    libs = stage.pkg_config("--libs", "dtl-containers")
    print("cflags:", " ".join(cflags), "\nlibs:  ", " ".join(libs))
    rpath = f"-Wl,-rpath,{stage.libdir}"
    if (rpath in libs) != (stage.configured_prefix != "/usr"):
        sys.exit(f"pkg-config --libs dtl-containers should {'not ' if stage.configured_prefix == '/usr' else ''}"
                 f"carry {rpath} (prefix {stage.configured_prefix}): {libs}")

    # Built with MPI, the .pc requires MPI's own, so that a program including <mpi.h> (any upstream program
    # using MPI directly) builds with `pkg-config --cflags dtl-containers` alone. --define-variable would
    # move MPI's prefix too, so this asks copies of the staged .pc files whose prefix line names the stage.
    if stage.pkg_config("--variable=mpi", "dtl-containers") == ["yes"]:
        relocated = os.path.join(work, "relocated-pc")
        os.makedirs(relocated)
        for name in os.listdir(stage.pcdir):
            with open(os.path.join(stage.pcdir, name), encoding="utf-8") as f:
                text = f.read()
            text = text.replace(f"prefix={stage.configured_prefix}\n", f"prefix={stage.prefix}\n", 1)
            with open(os.path.join(relocated, name), "w", encoding="utf-8") as f:
                f.write(text)
        mpi_cflags = pkg_config(dict(os.environ, PKG_CONFIG_PATH=relocated), "--cflags", "dtl-containers")
        probe = os.path.join(work, "includes_mpi.cpp")
        with open(probe, "w", encoding="utf-8") as f:
            f.write("#include <mpi.h>\n#include <dtl/dtl.hpp>\nint main() { return MPI_SUCCESS; }\n")
        sh([cxx, "-std=c++20", "-fsyntax-only", *mpi_cflags, probe])

    # The README's one-liner, run without LD_LIBRARY_PATH.
    direct = os.path.join(work, "consumer-pkgconfig")
    sh([cxx, "-std=c++20", *cflags, os.path.join(HERE, "host_consumer.cpp"), "-o", direct, *libs])
    stage.check_loads_from_stage(direct)
    sh([direct], env=stage.run_env)

    # A Meson project that finds the installed dtl-core through pkg-config (no subprojects/ folder, so no
    # fallback): the same --define-variable, given as the machine file's pkg-config program.
    project = os.path.join(work, "meson-consumer")
    os.makedirs(project)
    for name in ("meson.build", "consumer.cpp"):
        shutil.copy(os.path.join(source_root, "tests", "consumer", name), project)
    native = os.path.join(work, "native.ini")
    with open(native, "w", encoding="utf-8") as f:
        f.write(f"[binaries]\npkg-config = ['pkg-config', '{stage.define[0]}']\n")
    build = os.path.join(project, "build")
    sh(["meson", "setup", build, project, "--native-file", native, f"-Dpkg_config_path={stage.pcdir}",
        "--wrap-mode=nodownload"], stdout=subprocess.DEVNULL)
    sh(["meson", "compile", "-C", build], stdout=subprocess.DEVNULL)
    meson_consumer = os.path.join(build, "consumer")
    stage.check_loads_from_stage(meson_consumer)
    sh([meson_consumer], env=stage.run_env)

    # The installed dtl-info, from the stage: its rpath is relative to itself.
    info = os.path.join(stage.bindir, "dtl-info")
    stage.check_loads_from_stage(info)
    out = subprocess.run([info], env=stage.run_env, text=True, capture_output=True)
    if out.returncode != 0 or not out.stdout.startswith("dtl-info "):
        sys.exit(f"the installed dtl-info exited {out.returncode}:\n{out.stdout}{out.stderr}")
    print(out.stdout.splitlines()[0])


def main(mode, build_dir, work, *args):
    if mode == "prefix":
        prefix_mode(build_dir, work, *args)
        return
    platform, archs, compiler, cxx = args
    programs = [os.path.join(work, p) for p in ("consumer-" + os.path.basename(compiler), "consumer-kc")]
    if mode == "build" or not all(os.path.exists(p) for p in programs):
        build(build_dir, work, platform, archs, compiler, cxx)
    if mode == "run":
        run(build_dir, work, compiler)


if __name__ == "__main__":
    main(*sys.argv[1:])
