#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""run_program.py PROBE COMMAND...: runs COMMAND (a documentation program, under mpiexec or alone) when
PROBE exits 0; when PROBE exits 77 (no device) exits 77 too, so Meson reports SKIP, never a pass."""
import subprocess
import sys

probe = subprocess.run([sys.argv[1]])
if probe.returncode != 0:
    sys.exit(probe.returncode)
sys.exit(subprocess.run(sys.argv[2:]).returncode)
