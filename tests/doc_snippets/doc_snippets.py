#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""doc_snippets.py: the code blocks of README.md and docs/*.md, compiled (and programs run) as tests.

Every fenced block names a language. C++ blocks (cpp, c++, hip) are compiled; each says how, in an
HTML comment on the line just before its fence (invisible on the rendered page):

    <!-- snippet: program ranks=1,2,3 -->                 a whole program: built, then run on each rank count
    <!-- snippet: fragment wrapper=status_function -->    statements, put into a wrapper (wrappers/*.cpp.in)
    <!-- snippet: synopsis -->                            an API summary in pseudo-signatures ([policy,]):
                                                          every dtl:: name it mentions must exist (a using-declaration each)
    <!-- snippet: skip reason="..." -->                   not compiled, for the reason given

Attributes of program, fragment (and needs= of synopsis):
    needs=hip      uses the HIP layers' API (dtl::hip::...): built in HIP configurations only
    needs=kernel   has device code (__device__ lambdas, <<<>>>): built by the kernel compiler (amd platform)
    needs=kernel-or-host  written once for the GPU or the host (__host__ __device__ code that compiles as
                   plain C++ too): the kernel compiler on the amd platform, the C++ compiler without HIP
    gpu            (program) runs only where there is a device; elsewhere its run test is SKIP (77)
    ranks=1,3      (program) the rank counts it runs on (default 1); ranks=none builds it only

Further lines of a fragment's comment are C++ put before the block: what the surrounding text
introduces (`std::size_t nx = 64;`, a vector). A line starting `file:` goes at file scope instead (a
kernel the block launches). A fragment's leading #include lines go at file scope too.

Other languages are not compiled; they are text, sh/bash/console, ini, meson or json. sh and bash
blocks are checked with `bash -n`. A C++ block without a marker, a marker without a block, a fence
without a language or with another one are errors: no block escapes the check silently.

    doc_snippets.py check ROOT            classify every block, check shell syntax; exit 1 on any error
    doc_snippets.py list ROOT             one line per compiled block: id, needs, ranks, gpu (for Meson)
    doc_snippets.py emit ROOT ID OUTPUT   write block ID as a translation unit (#line points at the doc)
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

CXX_LANGS = {"cpp", "c++", "hip"}
OTHER_LANGS = {"text", "sh", "bash", "console", "ini", "meson", "json"}
SHELL_LANGS = {"sh", "bash"}
KINDS = {"program", "fragment", "synopsis", "skip"}
NEEDS = {"none", "hip", "kernel", "kernel-or-host"}
FENCE_RE = re.compile(r"^(\s*)```(\S*)\s*$")
MARKER_RE = re.compile(r"^\s*<!--\s*snippet:(.*)$")
ATTR_RE = re.compile(r'(\w+)(?:=("[^"]*"|\S+))?')
HERE = os.path.dirname(os.path.abspath(__file__))
WRAPPERS = os.path.join(HERE, "wrappers")


class Block:
    def __init__(self, doc, line, lang, code, marker):
        self.doc, self.line, self.lang, self.code, self.marker = doc, line, lang, code, marker
        self.kind, self.attrs, self.given, self.file_given, self.id = None, {}, [], [], None

    def where(self):
        return f"{self.doc}:{self.line}"


def documents(root):
    return ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))


def read_marker(lines, fence_index):
    """The snippet comment that ends on the line before the fence: (first line's text, further lines, line)."""
    end = fence_index - 1
    if end < 0 or not lines[end].rstrip().endswith("-->"):
        return None
    start = end
    while start >= 0 and not MARKER_RE.match(lines[start]):
        if start < end and "-->" in lines[start]:
            return None
        start -= 1
    if start < 0:
        return None
    body = [MARKER_RE.match(lines[start]).group(1)] + lines[start + 1:end + 1]
    body[-1] = body[-1].rstrip()[:-3]
    return body[0].strip(), [b for b in body[1:] if b.strip()], start + 1


def blocks_of(root, doc, errors):
    """Every fenced block of one document, with its marker (if any)."""
    lines = open(os.path.join(root, doc), encoding="utf-8").read().split("\n")
    found, i, used_markers = [], 0, set()
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2).lower()
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        if j == len(lines):
            errors.append(f"{doc}:{i + 1}: a fence that never closes")
            return found
        code = [line[len(indent):] if line.startswith(indent) else line for line in lines[i + 1:j]]
        marker = read_marker(lines, i)
        if marker:
            used_markers.add(marker[2])
        found.append(Block(doc, i + 1, lang, code, marker))
        i = j + 1
    for n, line in enumerate(lines, 1):
        if MARKER_RE.match(line) and n not in used_markers:
            errors.append(f"{doc}:{n}: a snippet marker that is not on the line before a fence")
    return found


def classify(block, errors):
    if block.lang not in CXX_LANGS:
        if block.marker:
            errors.append(f"{block.where()}: a snippet marker on a {block.lang or 'plain'} block")
        elif block.lang not in OTHER_LANGS:
            errors.append(f"{block.where()}: the fence names no known language ({block.lang or 'none'}); "
                          f"use one of {sorted(CXX_LANGS | OTHER_LANGS)}")
        block.kind = "shell" if block.lang in SHELL_LANGS else "other"
        return
    if not block.marker:
        errors.append(f"{block.where()}: a C++ block without a snippet marker (tests/doc_snippets/doc_snippets.py "
                      "says which)")
        return
    first, further, _ = block.marker
    words = ATTR_RE.findall(first)
    if not words or words[0][0] not in KINDS or words[0][1]:
        errors.append(f"{block.where()}: the marker starts with none of {sorted(KINDS)}")
        return
    block.kind = words[0][0]
    block.attrs = {k: v.strip('"') if v else "yes" for k, v in words[1:]}
    allowed = {"program": {"needs", "ranks", "gpu"}, "fragment": {"needs", "wrapper"}, "synopsis": {"needs"},
               "skip": {"reason"}}[block.kind]
    for key in block.attrs:
        if key not in allowed:
            errors.append(f"{block.where()}: {block.kind} takes no attribute {key}")
    needs = block.attrs.setdefault("needs", "kernel" if block.lang == "hip" else "none")
    if needs not in NEEDS:
        errors.append(f"{block.where()}: needs={needs}, not one of {sorted(NEEDS)}")
    if block.kind == "skip" and not block.attrs.get("reason"):
        errors.append(f"{block.where()}: skip without a reason")
    if block.kind == "fragment":
        wrapper = block.attrs.get("wrapper", "")
        if not os.path.exists(os.path.join(WRAPPERS, wrapper + ".cpp.in")):
            errors.append(f"{block.where()}: no wrapper '{wrapper}' in {os.path.relpath(WRAPPERS)}")
        for line in further:
            if line.strip().startswith("file:"):
                block.file_given.append(line.strip()[len("file:"):].strip())
            else:
                block.given.append(line.strip())
    elif further:
        errors.append(f"{block.where()}: only a fragment's marker holds code")
    ranks = block.attrs.setdefault("ranks", "1") if block.kind == "program" else "none"
    if ranks != "none" and not re.fullmatch(r"[1-3](,[1-3])*", ranks):
        errors.append(f"{block.where()}: ranks={ranks}: rank counts from 1 to 3, or none")


def all_blocks(root, errors):
    blocks = []
    for doc in documents(root):
        numbered = 0
        for block in blocks_of(root, doc, errors):
            before = len(errors)
            classify(block, errors)
            block.valid = len(errors) == before
            if block.lang in CXX_LANGS:
                numbered += 1
                stem = "readme" if doc == "README.md" else os.path.splitext(os.path.basename(doc))[0]
                block.id = f"{stem}-{numbered}"
            blocks.append(block)
    return blocks


def check_shell(root, block, errors):
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write("\n".join(block.code) + "\n")
    try:
        run = subprocess.run(["bash", "-n", f.name], capture_output=True, text=True)
        if run.returncode != 0:
            errors.append(f"{block.where()}: bash -n: {run.stderr.strip()}")
    finally:
        os.unlink(f.name)


def check(root):
    errors = []
    blocks = all_blocks(root, errors)
    for block in blocks:
        if block.kind == "shell":
            check_shell(root, block, errors)
    counts = {}
    for block in blocks:
        counts[block.kind] = counts.get(block.kind, 0) + 1
    summary = ", ".join(f"{counts.get(k, 0)} {k}" for k in ["program", "fragment", "synopsis", "skip", "shell", "other"])
    for block in blocks:
        if block.kind == "skip":
            print(f"{block.where()}: skipped: {block.attrs['reason']}")
    print("\n".join(errors) or f"{len(blocks)} blocks: {summary}")
    return 1 if errors else 0


def compiled(root):
    errors = []
    return [b for b in all_blocks(root, errors) if b.valid and b.kind in ("program", "fragment", "synopsis")]


def listing(root):
    for b in compiled(root):
        print("\t".join([b.id, b.attrs["needs"], b.attrs.get("ranks", "none"), b.attrs.get("gpu", "no"), b.where()]))
    return 0


def line_directive(line, doc):
    return f'#line {line} "{doc}"'


def translation_unit(block):
    """The C++ source of one block, with #line directives that point compiler messages at the document."""
    first = block.line + 1  # the block's first line in the document
    if block.kind == "synopsis":
        return synopsis_unit(block, first)
    if block.kind == "program":
        return "\n".join([line_directive(first, block.doc)] + block.code) + "\n"
    code = list(block.code)
    includes = []
    while code and (code[0].startswith("#include") or not code[0].strip()):
        includes.append(code.pop(0))
    body_line = first + len(includes)
    template = open(os.path.join(WRAPPERS, block.attrs["wrapper"] + ".cpp.in"), encoding="utf-8").read()
    marker_line = block.marker[2]
    parts = {
        "@INCLUDES@": [line_directive(first, block.doc)] + includes if includes else [],
        "@FILE_GIVEN@": [line_directive(marker_line, block.doc)] + block.file_given if block.file_given else [],
        "@GIVEN@": [line_directive(marker_line, block.doc)] + block.given if block.given else [],
        "@BODY@": [line_directive(body_line, block.doc)] + code,
    }
    out = []
    for n, line in enumerate(template.split("\n"), 1):
        key = line.strip()
        if key in parts:
            out += parts[key] + [f'#line {n + 1} "tests/doc_snippets/wrappers/{block.attrs["wrapper"]}.cpp.in"']
        else:
            out.append(line)
    return "\n".join(out)


QUALIFIED_RE = re.compile(r"\bdtl(?:::[A-Za-z_]\w*)+")


def synopsis_unit(block, first):
    """A using-declaration for each dtl:: name the synopsis mentions, at the line that mentions it first."""
    out, seen = ["#include <dtl/dtl.hpp>"], set()
    for n, line in enumerate(block.code):
        for name in QUALIFIED_RE.findall(line):
            if name not in seen:
                seen.add(name)
                out += [line_directive(first + n, block.doc), f"using {name};"]
    return "\n".join(out + ["int main() { return 0; }"]) + "\n"


def emit(root, block_id, output):
    for block in compiled(root):
        if block.id == block_id:
            with open(output, "w", encoding="utf-8") as f:
                f.write(translation_unit(block))
            return 0
    print(f"no compiled block {block_id} in {root}'s documents", file=sys.stderr)
    return 1


def main(argv):
    if len(argv) >= 3 and argv[1] == "check":
        return check(argv[2])
    if len(argv) >= 3 and argv[1] == "list":
        return listing(argv[2])
    if len(argv) >= 5 and argv[1] == "emit":
        return emit(argv[2], argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
