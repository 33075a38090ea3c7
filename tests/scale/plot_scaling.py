#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Weak-scaling figures from the scale programs' BENCH lines: a CSV table and a PNG with one panel per
case, DTL beside raw MPI against the rank count.

    python3 tests/scale/plot_scaling.py OUT.csv OUT.png results.txt [results.txt ...]

Each input is either the CSV that `scripts/scale-check --bench` writes (columns program, case, ranks,
dtl_us, raw_us) or text holding lines `BENCH <program> <case> ranks=<P> dtl_us=<x> raw_us=<y>` as
`scale-<program> --bench` prints them (other lines are ignored); a later input's row replaces an
earlier one's. Needs matplotlib (apt-get install python3-matplotlib).
"""
import csv
import re
import sys

LINE = re.compile(r"^BENCH (\S+) (\S+) ranks=(\d+) dtl_us=([\d.]+) raw_us=([\d.]+)")
# The panels, in order, with the raw MPI call each is compared to.
PANELS = [
    ("halo", "exchange", "halo exchange (1 double each way)", "2 x MPI_Sendrecv"),
    ("reduce", "allreduce-1-double", "allreduce of 1 double", "MPI_Allreduce"),
    ("reduce", "inclusive-scan", "inclusive_scan (2^16 per rank)", "local prefix + MPI_Exscan"),
    ("alltoallv", "uneven", "alltoallv, uneven (2^16 per rank)", "MPI_Alltoallv"),
    ("sort", "random-keys", "sort, 2^16 random keys per rank", "MPI_Alltoallv of the same bytes"),
]


def read(paths):
    rows = {}
    for path in paths:
        with open(path, newline="") as f:
            if path.endswith(".csv"):
                for r in csv.DictReader(f):
                    rows[(r["program"], r["case"], int(r["ranks"]))] = (float(r["dtl_us"]), float(r["raw_us"]))
                continue
            for line in f:
                m = LINE.match(line.strip())
                if m:
                    program, case, ranks, dtl, raw = m.groups()
                    rows[(program, case, int(ranks))] = (float(dtl), float(raw))
    return rows


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    rows = read(argv[3:])
    with open(argv[1], "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["program", "case", "ranks", "dtl_us", "raw_us", "dtl_over_raw"])
        for (program, case, ranks), (dtl, raw) in sorted(rows.items()):
            out.writerow([program, case, ranks, dtl, raw, f"{dtl / raw:.2f}"])

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from matplotlib.ticker import ScalarFormatter

    columns = 3
    fig, grid = plt.subplots((len(PANELS) + columns - 1) // columns, columns, figsize=(13, 7.5), squeeze=False)
    axes = grid.flatten()
    for ax in axes[len(PANELS):]:
        ax.axis("off")
    for ax, (program, case, title, raw_name) in zip(axes, PANELS):
        points = sorted((p, v) for (g, c, p), v in rows.items() if g == program and c == case)
        if not points:
            ax.set_title(title + "\n(no data)", fontsize=9)
            continue
        ranks = [p for p, _ in points]
        ax.plot(ranks, [v[0] for _, v in points], "o-", label="DTL")
        ax.plot(ranks, [v[1] for _, v in points], "s--", label=raw_name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(ScalarFormatter())
        ax.tick_params(axis="y", which="minor", labelsize=7)
        ax.set_xticks(ranks)
        ax.set_xticklabels([str(p) for p in ranks])
        ax.set_xlabel("simulated ranks")
        ax.set_ylabel("microseconds per call")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("Weak scaling on a simulated 200 Gbit/s fat tree (SimGrid SMPI, network only)", fontsize=10)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)


if __name__ == "__main__":
    main(sys.argv)
