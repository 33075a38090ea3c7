#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_doc_paths.py SOURCE_ROOT: every repository path that README.md and docs/*.md name exists.

Checked: relative links ([text](path), outside code blocks), and paths in backticks whose first
folder is one of the repository's own (`dtl-hip-mem/tests/...`, `scripts/...`, `docs/...`), since
a renamed or moved file otherwise leaves the documents pointing at nothing. Paths of a consumer's
project (`subprojects/dtl.wrap`), of a build folder or with placeholders (`<build>`, `*`) are not
repository paths and are left alone. Prints each missing path and exits 1 if there is any.
"""
import glob
import os
import re
import sys

OWN_FOLDERS = ("dtl-core", "dtl-hip-mem", "dtl-hip-exec", "dtl-containers", "docs", "scripts", "tests",
               "examples", "benchmarks", "tools", "packaging", ".ci")
LINK_RE = re.compile(r"\]\(([^)#\s]+)")
CODE_RE = re.compile(r"`([^`\s]+)`")
FENCE_RE = re.compile(r"^```.*?^```", re.M | re.S)


def named_paths(text):
    """(kind, path) pairs a document names."""
    prose = re.sub(r"`[^`\n]+`", "", FENCE_RE.sub("", text))  # inline code (a lambda's "[&](auto p)") holds no links
    for m in LINK_RE.finditer(prose):
        if not re.match(r"[a-z]+:", m.group(1)):
            yield "link", m.group(1)
    for m in CODE_RE.finditer(text):
        path = m.group(1).rstrip(".,:;")
        if path.split("/")[0] in OWN_FOLDERS and "/" in path and not re.search(r"[*<>{}$=@]", path):
            yield "path", path


def main(root):
    docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    missing = []
    for doc in docs:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for kind, path in sorted(set(named_paths(text))):
            base = os.path.dirname(doc) if kind == "link" else root
            if not os.path.exists(os.path.join(base, path)):
                missing.append(f"{os.path.relpath(doc, root)}: {path} does not exist")
    print("\n".join(missing) or f"{len(docs)} documents: every path they name exists")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
