// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's runtime registry: the process-wide answer to "what is DTL running on now", for code that
// has no environment at hand (libraries, plugins). It reads the live dtl::environment:
//
//   auto& rt = dtl::runtime::runtime_registry::instance();
//   if (rt.is_initialized() && rt.thread_level() < dtl::thread_support_level::multiple) { ... }
//
// Without a live environment nothing runs: every has_ is false, mpi_thread_level() is -1 and
// thread_level() single. DTL HIP has one environment at a time, so ref_count() is 0 or 1.

#include <dtl/containers/communication/environment_options.hpp>
#include <dtl/containers/export.hpp>

#include <cstddef>
#include <string_view>

namespace dtl::runtime {

class DTL_CONTAINERS_API runtime_registry {
 public:
  /// The one registry of the process.
  [[nodiscard]] static runtime_registry& instance() noexcept;

  runtime_registry(const runtime_registry&) = delete;
  runtime_registry& operator=(const runtime_registry&) = delete;

  /// Whether an environment is alive, and how many are (0 or 1).
  [[nodiscard]] bool is_initialized() const noexcept;
  [[nodiscard]] std::size_t ref_count() const noexcept;

  /// What the live environment runs on: MPI (not when its options leave MPI alone), a GPU through HIP,
  /// the same GPU as CUDA's (HIP on NVIDIA), RCCL/NCCL (built in, with a GPU), OpenSHMEM (never).
  [[nodiscard]] bool has_mpi() const noexcept;
  [[nodiscard]] bool has_hip() const noexcept;
  [[nodiscard]] bool has_cuda() const noexcept;
  [[nodiscard]] bool has_nccl() const noexcept;
  [[nodiscard]] bool has_shmem() const noexcept { return false; }

  /// The thread level MPI granted (0..3), or -1 when MPI is not in use; "MPI_THREAD_SINGLE" ... or
  /// "unknown" for -1.
  [[nodiscard]] int mpi_thread_level() const noexcept;
  [[nodiscard]] const char* mpi_thread_level_name() const noexcept;
  /// The level threads may call DTL at: MPI's where MPI is in use; multiple for an environment without
  /// MPI (one process); single without an environment (nothing runs).
  [[nodiscard]] thread_support_level thread_level() const noexcept;
  [[nodiscard]] std::string_view thread_level_name() const noexcept { return to_string(thread_level()); }
  /// One backend's level: "mpi" in use: MPI's; "hip" or "cuda" in use: multiple (their runtimes are
  /// thread-safe); a backend not in use, or an unknown name: single.
  [[nodiscard]] thread_support_level thread_level_for_backend(std::string_view backend) const noexcept;

 private:
  runtime_registry() noexcept = default;
};

}  // namespace dtl::runtime
