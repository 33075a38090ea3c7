// SPDX-License-Identifier: MIT
#pragma once
// The checks of the plain test programs (upstream_program_test.cpp, upstream_apps_test.cpp): programs
// that include no test framework, so that no header but the ones they test can supply a name they use.
// Hence the standard library alone here, and the rank as a plain int (upstream's rank_t is int).

#include <cstdio>

namespace plain_checks {

/// How many checks failed on this rank so far.
inline int& failures() noexcept {
  static int count = 0;
  return count;
}

/// Counts a failed check and says on which rank and what it checked.
inline void expect(bool ok, const char* what, int rank) {
  if (!ok) {
    std::printf("rank %d: FAIL: %s\n", rank, what);
    ++failures();
  }
}

/// The program's exit status: 0 when every check on this rank passed, 1 otherwise.
inline int exit_code() noexcept { return failures() == 0 ? 0 : 1; }

}  // namespace plain_checks
