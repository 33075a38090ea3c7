#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_classifier.py: doc_snippets.py refuses what would let a block escape the check (a C++ block
without a marker, a fence without a language, a marker away from its fence, an unknown wrapper or kind,
a skip without a reason, a shell block that bash cannot parse) and accepts each marker form."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "doc_snippets.py")
FENCE = "```"


def check(readme):
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, "docs"))
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write(readme)
        run = subprocess.run([sys.executable, TOOL, "check", root], capture_output=True, text=True)
        return run.returncode, run.stdout


def block(lang, code, marker=None):
    return (marker + "\n" if marker else "") + f"{FENCE}{lang}\n{code}\n{FENCE}\n"


REFUSED = {
    "unmarked C++": block("cpp", "int x = 1;"),
    "no language": block("", "plain"),
    "unknown language": block("rust", "fn main() {}"),
    "marker apart from its fence": "<!-- snippet: synopsis -->\n\n" + block("cpp", "dtl::fill;"),
    "unknown wrapper": block("cpp", "int x = 1;", "<!-- snippet: fragment wrapper=nowhere -->"),
    "unknown kind": block("cpp", "int x = 1;", "<!-- snippet: example -->"),
    "skip without a reason": block("cpp", "int x = 1;", "<!-- snippet: skip -->"),
    "rank count past 3": block("cpp", "int main() {}", "<!-- snippet: program ranks=4 -->"),
    "shell that does not parse": block("sh", "if then fi ("),
}
ACCEPTED = (block("cpp", "int main() {}", "<!-- snippet: program ranks=1,3 -->") +
            block("cpp", "DTL_TRY(dtl::ok_status());",
                  "<!-- snippet: fragment wrapper=status_function needs=hip\n  int given = 1;\n-->") +
            block("cpp", "dtl::fill([policy,] vec, value);", "<!-- snippet: synopsis -->") +
            block("cpp", "int x;", '<!-- snippet: skip reason="shown broken on purpose" -->') +
            block("sh", "meson setup build && meson test -C build") + block("text", "a | b"))

failures = []
for name, text in REFUSED.items():
    code, out = check(text)
    if code != 1:
        failures.append(f"accepted {name}:\n{out}")
code, out = check(ACCEPTED)
if code != 0 or "1 program, 1 fragment, 1 synopsis, 1 skip, 1 shell, 1 other" not in out:
    failures.append(f"refused or miscounted the accepted forms:\n{out}")
print("\n".join(failures) or f"{len(REFUSED)} refused forms refused, the accepted forms accepted")
sys.exit(1 if failures else 0)
