#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws the benchmark tables' CSV files (DTL beside the raw call) as bar charts, one panel per file.

    python3 benchmarks/plot_ratios.py out.png table.csv [table.csv ...]

Two kinds of table are understood, as the benchmarks write them:
  - ratio tables (columns operation, ratio, target): a bar of DTL/raw per row, its target as a tick;
  - latency tables (columns operation, raw_us, dtl_us[, target_extra_us]): raw and DTL bars in µs;
  - per-call tables (percall-1gpu: call, us_per_call, raw_us_per_call, allowed_us) drawn as latency tables,
    the raw-only rows left out.
A panel's title is the file's name, and its first line when that is a '#' comment. Needs matplotlib:

    apt-get install python3-matplotlib        # Debian, Ubuntu (then run it with /usr/bin/python3
                                              # if another python3, e.g. pyenv's, comes first on PATH)
"""
import csv
import os
import sys
import textwrap


def read(path):
    with open(path, newline="") as f:
        lines = f.readlines()
    title = os.path.basename(path)
    if lines and lines[0].startswith("#"):
        title += "\n" + lines[0][1:].strip()
        lines = lines[1:]
    return title, list(csv.DictReader(lines))


def label(text):
    return "\n".join(textwrap.wrap(text, 48))


def ratio_panel(ax, rows):
    names = [label(r["operation"]) for r in rows]
    ratios = [float(r["ratio"]) for r in rows]
    targets = [float(r["target"]) if r.get("target") and float(r["target"]) > 0 else None for r in rows]
    colours = ["tab:green" if t is None or v >= t else "tab:red" for v, t in zip(ratios, targets)]
    y = range(len(rows))
    ax.barh(y, ratios, color=colours)
    for i, t in enumerate(targets):
        if t is not None:
            ax.plot([t, t], [i - 0.4, i + 0.4], color="black", linewidth=2)
    for i, v in enumerate(ratios):
        ax.text(v, i, f" {v:.2f}", va="center", fontsize=7)
    ax.axvline(1.0, color="grey", linestyle=":")
    ax.set_yticks(list(y), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("DTL / raw (higher is better; black tick: target; red: below it)")


def latency_panel(ax, rows):
    names = [label(r["operation"]) for r in rows]
    raw = [float(r["raw_us"]) for r in rows]
    dtl = [float(r["dtl_us"]) for r in rows]
    y = range(len(rows))
    ax.barh([i - 0.2 for i in y], raw, height=0.4, label="raw", color="tab:grey")
    ax.barh([i + 0.2 for i in y], dtl, height=0.4, label="DTL", color="tab:blue")
    for i, (r, d) in enumerate(zip(raw, dtl)):
        ax.text(d, i + 0.2, f" {d:.1f} ({d - r:+.1f})", va="center", fontsize=7)
    ax.set_yticks(list(y), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("µs per call (lower is better)")
    ax.legend(fontsize=7)


def from_percall(rows):
    """percall-1gpu's rows as a latency table's (the rows without a raw baseline are the baselines)."""
    return [{"operation": r["call"], "raw_us": r["raw_us_per_call"], "dtl_us": r["us_per_call"],
             "target_extra_us": r["allowed_us"]} for r in rows if r.get("raw_us_per_call")]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tables = [read(p) for p in argv[2:]]
    tables = [(title, from_percall(rows) if rows and "us_per_call" in rows[0] else rows) for title, rows in tables]
    heights = [1.2 + 0.45 * max(1, len(rows)) for _, rows in tables]
    fig, axes = plt.subplots(len(tables), 1, figsize=(10, sum(heights)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, (title, rows) in zip(axes[:, 0], tables):
        if rows and "ratio" in rows[0]:
            ratio_panel(ax, rows)
        elif rows and "dtl_us" in rows[0]:
            latency_panel(ax, rows)
        ax.set_title(title, fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
