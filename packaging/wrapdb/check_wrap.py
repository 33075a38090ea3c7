#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_wrap.py WRAP [--tarball FILE]

Checks a dtl wrap file and the WrapDB entries next to this script (releases.json, ci_config.json)
against WrapDB's sanity rules, as mesonbuild/wrapdb's tools/sanity_checks.py applies them to a new
release:
  - the wrap name matches [a-z][a-z-1-9._-]*; the first section is [wrap-file] with directory,
    source_url, source_filename and source_hash, none holding a path separator;
  - the stem of source_filename equals directory, directory-version or name-version;
  - source_url contains the version and no 40-hex commit hash; source_hash is a sha256;
  - [provide] lists dependency_names (and program_names) exactly as releases.json does;
  - releases.json versions are <upstream>-<revision>, newest first, the upstream part [a-z0-9._]+
    (so no hyphen), and it matches the project's version;
  - ci_config.json uses known keys, and its skip lists name provided names only;
  - every project() (the workspace and each member) has meson_version, version and one SPDX license
    string, and no default_options that WrapDB refuses (buildtype, debug, optimization, ...).
With --tarball (the file made by meson dist) it also checks the hash and that the tarball unpacks
into `directory`, and reads the project() calls from the tarball. Prints every problem; exit 1 if any.
"""
import argparse
import configparser
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
MEMBERS = [".", "dtl-core", "dtl-hip-mem", "dtl-hip-exec", "dtl-containers"]
RELEASE_KEYS = {"versions", "dependency_names", "program_names"}
CI_KEYS = {"build_options", "build_on", "alpine_packages", "brew_packages", "choco_packages", "debian_packages",
           "msys_packages", "python_packages", "fatal_warnings", "skip_dependency_check", "skip_program_check",
           "test_options", "skip_tests", "has_provides"}
FORBIDDEN_DEFAULT_OPTIONS = {"buildtype", "debug", "optimization", "prefer_static", "strip", "unity"}


def names(value):
    return sorted(n.strip() for n in value.split(",") if n.strip())


def version_key(v):
    upstream, revision = v.rsplit("-", 1)
    return [int(p) if p.isdigit() else p for p in re.split(r"[._]", upstream)], int(revision)


def project_kwargs(directory):
    out = subprocess.run(["meson", "rewrite", "kwargs", "info", "project", "/"], cwd=directory, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["kwargs"]["project#/"]


def check(wrap_path, tarball=None):
    problems = []
    name = os.path.basename(wrap_path)[: -len(".wrap")]
    if not re.fullmatch(r"[a-z][a-z-1-9._-]*", name):
        problems.append(f"wrap name '{name}' does not match [a-z][a-z-1-9._-]*")

    wrap = configparser.ConfigParser(interpolation=None)
    wrap.read(wrap_path, encoding="utf-8")
    if not wrap.sections() or wrap.sections()[0] != "wrap-file":
        return problems + ["the first section is not [wrap-file]"]
    section = wrap["wrap-file"]
    for key in ("directory", "source_url", "source_filename", "source_hash"):
        if key not in section:
            problems.append(f"[wrap-file] has no {key}")
    if problems:
        return problems
    directory, filename, url = section["directory"], section["source_filename"], section["source_url"]
    for key in ("directory", "source_filename"):
        if "/" in section[key] or "\\" in section[key]:
            problems.append(f"{key} holds a path separator: {section[key]}")
    if section.get("method", "meson").strip() != "meson":
        problems.append("method is not meson")

    with open(os.path.join(HERE, "releases.json"), encoding="utf-8") as f:
        releases = json.load(f)
    with open(os.path.join(HERE, "ci_config.json"), encoding="utf-8") as f:
        ci_config = json.load(f)
    if name not in releases:
        return problems + [f"releases.json has no entry '{name}'"]
    release = releases[name]
    problems += [f"releases.json: unknown key '{k}'" for k in release if k not in RELEASE_KEYS]
    versions = release.get("versions", [])
    if not versions:
        return problems + ["releases.json: no versions"]
    for v in versions:
        if "-" not in v:
            problems.append(f"releases.json: version '{v}' is not <upstream>-<revision>")
            continue
        upstream, revision = v.rsplit("-", 1)
        if not re.fullmatch(r"[a-z0-9._]+", upstream):
            problems.append(f"releases.json: upstream version '{upstream}' must match [a-z0-9._]+ (no hyphen)")
        if not re.fullmatch(r"[0-9]+", revision):
            problems.append(f"releases.json: revision '{revision}' is not a number")
    if not problems and sorted(versions, key=version_key, reverse=True) != versions:
        problems.append("releases.json: versions are not newest first")
    version = versions[0].rsplit("-", 1)[0]

    stem = re.sub(r"(\.tar)?\.[a-z0-9]+$", "", filename)
    if stem not in (directory, f"{directory}-{version}", f"{name}-{version}"):
        problems.append(f"the stem of source_filename '{filename}' is not '{directory}', '{directory}-{version}' "
                        f"or '{name}-{version}'")
    if version not in url and version.replace(".", "_") not in url:
        problems.append(f"source_url does not contain the version {version}: {url}")
    if re.search(r"[0-9a-f]{40}", url):
        problems.append(f"source_url holds a commit hash (use a release or a tag): {url}")
    if not re.fullmatch(r"[0-9a-f]{64}", section["source_hash"]):
        problems.append(f"source_hash is not a sha256: {section['source_hash']}")

    provide = wrap["provide"] if "provide" in wrap else {}
    if not provide:
        problems.append("no [provide] section")
    for key in provide:
        if key not in ("dependency_names", "program_names"):
            problems.append(f"[provide] uses the old form '{key} = ...': list it in dependency_names")
    for key in ("dependency_names", "program_names"):
        provided = names(provide.get(key, "")) if provide else []
        if provided != sorted(release.get(key, [])):
            problems.append(f"[provide] {key} {provided} differ from releases.json {sorted(release.get(key, []))}")

    ci = ci_config.get(name, {})
    problems += [f"ci_config.json: unknown key '{k}'" for k in ci if k not in CI_KEYS]
    for key, provided in (("skip_dependency_check", "dependency_names"), ("skip_program_check", "program_names")):
        extra = set(ci.get(key, [])) - set(release.get(provided, []))
        if extra:
            problems.append(f"ci_config.json: {key} names what the wrap does not provide: {sorted(extra)}")

    with tempfile.TemporaryDirectory() as tmp:
        source = SOURCE_ROOT
        if tarball:
            with open(tarball, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            if digest != section["source_hash"]:
                problems.append(f"source_hash {section['source_hash']} is not the tarball's {digest}")
            if os.path.basename(tarball) != filename:
                problems.append(f"the tarball is {os.path.basename(tarball)}, the wrap says {filename}")
            with tarfile.open(tarball) as t:
                tops = {m.name.split("/")[0] for m in t.getmembers()}
                t.extractall(tmp)
            if tops != {directory}:
                problems.append(f"the tarball unpacks into {sorted(tops)}, not {directory}")
            source = os.path.join(tmp, directory)
        for member in MEMBERS:
            where = os.path.normpath(os.path.join(source, member))
            label = "the workspace" if member == "." else member
            if not os.path.isdir(where):
                problems.append(f"{label}: missing")
                continue
            kwargs = project_kwargs(where)
            if not isinstance(kwargs.get("license"), str):
                problems.append(f"{label}: project() needs license as one SPDX string, has {kwargs.get('license')}")
            if "meson_version" not in kwargs:
                problems.append(f"{label}: project() has no meson_version")
            if kwargs.get("version") != version:
                problems.append(f"{label}: project() version {kwargs.get('version')} is not the release's {version}")
            options = kwargs.get("default_options") or []
            options = [options] if isinstance(options, str) else options
            options = options.keys() if isinstance(options, dict) else [o.split("=", 1)[0] for o in options]
            for option in options:
                if option in FORBIDDEN_DEFAULT_OPTIONS:
                    problems.append(f"{label}: default_options sets {option}, which WrapDB refuses")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("wrap")
    parser.add_argument("--tarball")
    args = parser.parse_args()
    problems = check(args.wrap, args.tarball)
    for p in problems:
        print("wrapdb:", p)
    print(f"wrapdb: {args.wrap}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
