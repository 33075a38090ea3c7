// SPDX-License-Identifier: MIT
#pragma once
// The shared entry point of every member's doctest programs (test_main.cpp) and what the layers above
// add to it. dtl-core knows nothing about devices or ranks, so the requirements a Meson test can state
// with --requires come from the layers' test support, registered before main() runs:
//   dtl-core        any
//   dtl-hip-mem     gpu, devices:N, no-device, pool
//   dtl-containers  ranks:N, mpi (and the session: a dtl::environment, the cases run on every rank)
// A test states them in meson.build, comma-separated, all of which must hold:
//   --requires=gpu,ranks:2
// An unknown one fails (exit 1); an unmet one prints "SKIP: <why>" and exits 77 (Meson's SKIP), and so
// does a run in which no test case ran.

#include "doctest.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace dtl_test {

inline constexpr int exit_skip = 77;  // Meson's SKIP

/// Why this machine cannot run tests that need the requirement; empty when it can. `n` is the N of a
/// requirement written "name:N" (at least 1), 0 for one without a count.
using requirement_check = std::function<std::string(int n)>;

/// When a requirement can be checked: before anything starts (the device count), or once the session
/// has started (the rank count needs the environment). Naming one of the second kind starts the session.
enum class stage { before_session, in_session };

/// Registers a requirement. `form` is how a test writes it: "name", or "name:N" for one that takes a
/// count N >= 1. Call it from a static initialiser of the layer's test support.
void add_requirement(std::string form, requirement_check check, stage when = stage::before_session);

/// Where the test cases run when a requirement of stage::in_session is named: brought up before those
/// requirements are checked, taken down after the run (or the skip).
class session {
 public:
  virtual ~session() = default;
  /// Brings the session up (it may take its own arguments out of argc/argv, as MPI_Init may): std::nullopt
  /// to go on, or the exit code to stop with.
  virtual std::optional<int> start(int& argc, char**& argv) = 0;
  /// After the in-session requirements hold: std::nullopt to go on, or the exit code to stop with.
  virtual std::optional<int> ready() { return std::nullopt; }
  /// Whether this process prints more than failures (SKIP lines among them).
  [[nodiscard]] virtual bool prints_summary() const { return true; }
  /// Sets doctest's options for this process (output on rank 0 only, say).
  virtual void configure(doctest::Context&) {}
  /// The failure count of the whole session (every rank's) from this process's.
  virtual int total_failures(int failed) { return failed; }
  /// Takes the session down.
  virtual void stop() {}
};

/// Registers the session (one per program: the layer that registers in-session requirements).
void set_session(std::function<std::unique_ptr<session>()> make);

}  // namespace dtl_test
