#!/bin/sh
# Builds tests/consumer as a separate project that gets dtl-core through subprojects/dtl-core
# (a symlink to the member folder, as the README tells users to do), then runs it.
set -eu
src=$1; work=$2
rm -rf "$work"; mkdir -p "$work/subprojects"
cp "$src/tests/consumer/meson.build" "$src/tests/consumer/consumer.cpp" "$work/"
ln -s "$src/dtl-core" "$work/subprojects/dtl-core"
for wrap in fmt.wrap doctest.wrap; do ln -s "$src/subprojects/$wrap" "$work/subprojects/$wrap"; done
meson setup "$work/build" "$work" --wrap-mode=nodownload >"$work/setup.log" 2>&1 || { cat "$work/setup.log"; exit 1; }
meson compile -C "$work/build" >"$work/compile.log" 2>&1 || { cat "$work/compile.log"; exit 1; }
"$work/build/consumer"
