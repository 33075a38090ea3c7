// SPDX-License-Identifier: MIT
#pragma once
// What every scale program shares: its arguments, the keys it generates from a seed (any element can be
// regenerated on any rank, so each rank checks its own part without gathering the data set), the verdict
// (one line from rank 0: `OK <name> ranks=P ...` or `FAIL <name>: why`, judged over every rank), and the
// --bench timing (MPI_Wtime, which SMPI simulates; std::chrono would time the simulator).
//
//   scale-<name> [--bench] [--per-rank=N] [--seed=S] [--reps=R] [--samples=S]

#include <dtl/dtl.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace scale {

struct options {
  bool bench = false;
  std::size_t per_rank = 0;  // elements on each rank; 0: the program's default for the mode
  std::uint64_t seed = 38;
  int reps = 20;    // timed calls per sample in --bench
  int samples = 5;  // samples in --bench (the median is given); the simulation varies little between them

  /// Elements on each rank: --per-rank, else the program's default for --bench or for the check.
  [[nodiscard]] std::size_t elements(std::size_t for_bench, std::size_t for_check) const noexcept {
    return per_rank != 0 ? per_rank : bench ? for_bench : for_check;
  }
};

inline options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](std::string_view key) { return a.starts_with(key) ? argv[i] + key.size() : nullptr; };
    if (a == "--bench") {
      o.bench = true;
    } else if (const char* v = value("--per-rank=")) {
      o.per_rank = std::strtoull(v, nullptr, 10);
    } else if (const char* v2 = value("--seed=")) {
      o.seed = std::strtoull(v2, nullptr, 10);
    } else if (const char* v3 = value("--reps=")) {
      o.reps = std::max(1, std::atoi(v3));
    } else if (const char* v4 = value("--samples=")) {
      o.samples = std::max(1, std::atoi(v4));
    }
  }
  return o;
}

/// splitmix64's finaliser: a well-mixed 64-bit value for each (seed, index).
constexpr std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
constexpr std::uint64_t key(std::uint64_t seed, std::uint64_t index) noexcept { return mix(mix(seed) ^ index); }

/// An order-free fingerprint of a multiset of 64-bit values: equal multisets, equal fingerprints (a sum
/// and an xor of two different mixes, so a lost element and a duplicated one do not cancel).
struct fingerprint {
  std::uint64_t sum = 0, xored = 0, count = 0;
  void add(std::uint64_t v) noexcept {
    sum += mix(v);
    xored ^= mix(v ^ 0x5bd1e995u);
    ++count;
  }
  /// Combined over every rank (raw MPI: the reference does not go through the code under test).
  [[nodiscard]] fingerprint global() const {
    fingerprint g;
    MPI_Allreduce(&sum, &g.sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&xored, &g.xored, 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD);
    MPI_Allreduce(&count, &g.count, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return g;
  }
  bool operator==(const fingerprint&) const = default;
};

/// This rank's findings: the first thing found wrong (later ones add nothing a reader needs).
class verdict {
 public:
  explicit verdict(std::string name) : name_(std::move(name)) {}
  /// Records `why` unless something was found already; returns `good`.
  bool expect(bool good, const std::string& why) {
    if (!good && ok_) {
      ok_ = false;
      why_ = why;
    }
    return good;
  }
  /// A DTL call's outcome: its error message when it failed.
  template <class R>
  bool expect_ok(const R& r, const std::string& what) {
    return r.has_value() ? true : expect(false, what + ": " + r.error().to_string());
  }
  [[nodiscard]] bool ok() const noexcept { return ok_; }

  /// Every rank calls it: judged over all ranks; rank 0 prints the one line (the lowest failing rank's
  /// reason). Returns the exit status.
  int finish(const std::string& details) const {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int mine = ok_ ? ranks : rank;
    int first_bad = ranks;
    MPI_Allreduce(&mine, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char why[240] = {};
    std::snprintf(why, sizeof why, "%s", why_.c_str());
    if (first_bad > 0 && first_bad < ranks) {
      if (rank == first_bad) MPI_Send(why, sizeof why, MPI_CHAR, 0, 38, MPI_COMM_WORLD);
      if (rank == 0) MPI_Recv(why, sizeof why, MPI_CHAR, first_bad, 38, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) {
      if (first_bad == ranks)
        std::printf("OK %s ranks=%d %s\n", name_.c_str(), ranks, details.c_str());
      else
        std::printf("FAIL %s: rank %d of %d: %s\n", name_.c_str(), first_bad, ranks, why);
      std::fflush(stdout);
    }
    return first_bad == ranks ? 0 : 1;
  }

 private:
  std::string name_;
  bool ok_ = true;
  std::string why_;
};

/// Microseconds per call of `op`, the slowest rank's, as the median of `samples` samples of `reps` calls
/// after one warm-up sample; every rank starts each sample together (a barrier on `sync`).
template <class Op>
double time_us(MPI_Comm sync, int reps, int samples, Op&& op) {
  std::vector<double> taken;
  for (int s = 0; s <= samples; ++s) {
    MPI_Barrier(sync);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < reps; ++i) op();
    double mine = (MPI_Wtime() - t0) * 1e6 / reps, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, sync);
    if (s > 0) taken.push_back(slowest);  // sample 0 warms up
  }
  std::sort(taken.begin(), taken.end());
  return taken[taken.size() / 2];
}

/// One line from rank 0: `BENCH <name> <case> ranks=P dtl_us=x raw_us=y`.
inline void print_bench(const char* name, const char* what, double dtl_us, double raw_us) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank == 0) std::printf("BENCH %s %s ranks=%d dtl_us=%.3f raw_us=%.3f\n", name, what, ranks, dtl_us, raw_us);
  std::fflush(stdout);
}

/// A communicator of its own for the raw MPI baseline and the barriers of the timing.
struct raw_comm {
  MPI_Comm comm = MPI_COMM_NULL;
  raw_comm() { MPI_Comm_dup(MPI_COMM_WORLD, &comm); }
  ~raw_comm() { MPI_Comm_free(&comm); }
  raw_comm(const raw_comm&) = delete;
  raw_comm& operator=(const raw_comm&) = delete;
};

}  // namespace scale
