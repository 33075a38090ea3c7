// SPDX-License-Identifier: MIT
// Upstream's runtime registry, read from the live environment (comm/state.hpp).
#include "comm/state.hpp"

#include <dtl/containers/config.hpp>
#include <dtl/runtime/runtime_registry.hpp>
#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/runtime.hpp>
#endif

namespace dtl::runtime {

namespace {

bool gpu_is_cuda() noexcept {
#if DTL_CONTAINERS_HAS_HIP
  return hip::on_nvidia;
#else
  return false;
#endif
}

}  // namespace

runtime_registry& runtime_registry::instance() noexcept {
  static runtime_registry registry;
  return registry;
}

bool runtime_registry::is_initialized() const noexcept { return detail::live_environment() != nullptr; }
std::size_t runtime_registry::ref_count() const noexcept { return is_initialized() ? 1 : 0; }

bool runtime_registry::has_mpi() const noexcept {
  const auto env = detail::live_environment();
  return build::has_mpi && env && env->uses_mpi;
}

bool runtime_registry::has_hip() const noexcept {
  const auto env = detail::live_environment();
  return env && env->device != no_device;
}

bool runtime_registry::has_cuda() const noexcept { return gpu_is_cuda() && has_hip(); }
bool runtime_registry::has_nccl() const noexcept { return build::has_nccl && has_hip(); }

int runtime_registry::mpi_thread_level() const noexcept {
  const auto env = detail::live_environment();
  return build::has_mpi && env && env->uses_mpi ? env->thread_level : -1;
}

const char* runtime_registry::mpi_thread_level_name() const noexcept {
  static constexpr const char* names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                          "MPI_THREAD_MULTIPLE"};
  const int level = mpi_thread_level();
  return level >= 0 && level <= 3 ? names[level] : "unknown";
}

thread_support_level runtime_registry::thread_level() const noexcept {
  if (has_mpi()) return from_mpi_thread_level(mpi_thread_level());
  return is_initialized() ? thread_support_level::multiple : thread_support_level::single;
}

thread_support_level runtime_registry::thread_level_for_backend(std::string_view backend) const noexcept {
  if (backend == "mpi") return has_mpi() ? thread_level() : thread_support_level::single;
  if ((backend == "hip" && has_hip()) || (backend == "cuda" && has_cuda())) return thread_support_level::multiple;
  return thread_support_level::single;
}

}  // namespace dtl::runtime
