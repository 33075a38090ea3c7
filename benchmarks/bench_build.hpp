// SPDX-License-Identifier: MIT
#pragma once
// The build a benchmark measured, from benchmarks/meson.build (bench_build_args), and a warning when it
// is not optimised: figures from an -O0 build say little about the library.

#include <cstdio>

#if !defined(DTL_BENCH_BUILD) || !defined(DTL_BENCH_OPTIMIZED)
#error "build benchmarks with bench_build_args from benchmarks/meson.build"
#endif

/// Prints a warning (to stdout, next to the table, and to stderr) when the build is not optimised.
inline void warn_if_unoptimized_build() {
  if (DTL_BENCH_OPTIMIZED) return;
  const char* text =
      "WARNING: this benchmark measures a %s build, which is not optimised; its figures say "
      "little. Configure with -Dbuildtype=release.\n";
  std::printf(text, DTL_BENCH_BUILD);
  std::fprintf(stderr, text, DTL_BENCH_BUILD);
}
