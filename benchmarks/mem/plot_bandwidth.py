#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws copy bandwidth against size from the memory benchmark's CSV (benchmarks/mem).

    python3 benchmarks/mem/plot_bandwidth.py [dtl-mem-bench.csv] [mem-bandwidth.png]

One colour per copy (H2D pinned, H2D pageable, ...): DTL solid, raw HIP dashed. The title is the
benchmark's header line (device, build, commit, date). Needs matplotlib:

    apt-get install python3-matplotlib        # Debian, Ubuntu (then run it with /usr/bin/python3
                                              # if another python3, e.g. pyenv's, comes first on PATH)
    python3 -m pip install --user matplotlib  # elsewhere
"""
import csv
import sys


def read(path):
    """The header comment and the rows of the 'copy' group, as {operation: [(bytes, raw, dtl)]}."""
    title = ""
    series = {}
    with open(path, newline="") as f:
        lines = f.readlines()
    if lines and lines[0].startswith("#"):
        title = lines[0][1:].strip()
        lines = lines[1:]
    for row in csv.DictReader(lines):
        if row["group"] != "copy" or row["unit"] != "GB/s":
            continue
        raw = float(row["raw"]) if row["raw"] else None
        series.setdefault(row["operation"], []).append((int(row["bytes"]), raw, float(row["dtl"])))
    return title, series


def size_label(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "dtl-mem-bench.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "mem-bandwidth.png"
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("matplotlib is missing: apt-get install python3-matplotlib (or python3 -m pip install matplotlib)")

    title, series = read(src)
    if not series:
        sys.exit(f"{src}: no copy rows")
    fig, ax = plt.subplots(figsize=(10, 6))
    for i, (operation, points) in enumerate(sorted(series.items())):
        points.sort()
        colour = f"C{i}"
        dtl_name, _, raw_name = operation.partition(" | ")
        sizes = [p[0] for p in points]
        ax.plot(sizes, [p[2] for p in points], "o-", color=colour, label=f"DTL {dtl_name}")
        if all(p[1] is not None for p in points):
            ax.plot(sizes, [p[1] for p in points], "x--", color=colour, alpha=0.6,
                    label=f"raw {raw_name}, {dtl_name}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ticks = sorted({p[0] for points in series.values() for p in points})
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(t) for t in ticks], rotation=45)
    ax.set_xlabel("bytes per copy")
    ax.set_ylabel("GB/s (10^9 bytes per second)")
    ax.set_title(title, fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
