// SPDX-License-Identifier: MIT
#include "comm/job.hpp"
#include "comm/state.hpp"
#include "rma/epoch_window.hpp"
#include "transport/mpi_runtime.hpp"

#include <dtl/containers/communication/abort.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/containers/communication/world_comm.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/try.hpp>
#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/device.hpp>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>

namespace dtl {

namespace detail {

status environment_state::end() {
  if (!alive.exchange(false)) return {};
  std::vector<std::weak_ptr<context_state>> made;
  {
    std::lock_guard lock(mutex);
    made.swap(contexts);
  }
  for (auto& weak : made)
    if (auto state = weak.lock()) state->end();
  release_rma_windows();
  return owns_mpi ? mpi_runtime::finish() : status{};
}

}  // namespace detail

namespace {

std::mutex g_mutex;  // one environment at a time
std::weak_ptr<detail::environment_state> g_current;
std::atomic<int> g_last_rank{-1};  // for messages after the environment (and MPI) ended

// DTL_DEVICE, when set: a device id among this process's visible devices.
result<std::optional<int>> device_from_environment() {
  const char* text = std::getenv("DTL_DEVICE");
  if (text == nullptr || *text == '\0') return std::optional<int>{};
  int value = -1;
  const char* end = text + std::strlen(text);
  const auto [ptr, ec] = std::from_chars(text, end, value);
  if (ec != std::errc() || ptr != end || value < 0)
    return status(status_code::invalid_argument, fmt::format("DTL_DEVICE={} is not a device id (0, 1, ...)", text));
  return std::optional<int>(value);
}

result<mpi_threads> threads_from_environment() {
  const char* text = std::getenv("DTL_MPI_THREAD_LEVEL");
  if (text == nullptr || *text == '\0') return mpi_threads::multiple;
  const std::string_view value(text);
  if (value == "single") return mpi_threads::single;
  if (value == "funneled") return mpi_threads::funneled;
  if (value == "serialized") return mpi_threads::serialized;
  if (value == "multiple") return mpi_threads::multiple;
  return status(status_code::invalid_argument,
                fmt::format("DTL_MPI_THREAD_LEVEL={} is not single, funneled, serialized or multiple", text));
}

// DTL_DEVICE's id among the devices this process sees, in words that name the variable.
status check_device_from_environment(int device) {
  const int count = detail::device_support::device_count();
  if (count > 0 && device < count) return detail::device_support::check_device(device);
  if (count > 0)
    return status(
        status_code::invalid_argument,
        fmt::format("DTL_DEVICE={}, but this process sees {} device(s) (ids 0..{})", device, count, count - 1));
  const status none = detail::device_support::check_device(device);
  return none.with_context(fmt::format("DTL_DEVICE={}, but this process sees 0 devices", device));
}

result<bool> abort_on_exception_from_environment() {
  const char* text = std::getenv("DTL_ABORT_ON_EXCEPTION");
  if (text == nullptr || *text == '\0') return true;
  const std::string_view value(text);
  if (value == "1") return true;
  if (value == "0") return false;
  return status(status_code::invalid_argument, fmt::format("DTL_ABORT_ON_EXCEPTION={} is not 0 or 1", text));
}

// Whether the GPUs of this build are CUDA's (HIP's NVIDIA platform): what environment_options::cuda is about.
bool gpu_is_cuda() noexcept {
#if DTL_CONTAINERS_HAS_HIP
  return std::string_view(hip::platform_name()) == "nvidia";
#else
  return false;
#endif
}

bool required(backend_ownership ownership) noexcept {
  return ownership == backend_ownership::dtl_owns || ownership == backend_ownership::adopt_external;
}

// Upstream's backend options that this build cannot honour, refused before anything starts.
status check_backend_options(const environment_options& options) {
  if (options.mpi.custom_comm != nullptr)
    return status(status_code::not_supported,
                  "environment_options::mpi.custom_comm: the world of DTL HIP is MPI_COMM_WORLD; split a context "
                  "(context::split) for fewer ranks");
  if (options.mpi.thread_level < 0 || options.mpi.thread_level > 3)
    return status(status_code::invalid_argument,
                  fmt::format("environment_options::mpi.thread_level {} is not an MPI_THREAD_* level (0..3)",
                              options.mpi.thread_level));
  if (options.mpi.ownership == backend_ownership::adopt_external && !detail::mpi_runtime::built())
    return status(status_code::backend_not_available, "environment_options::mpi adopt_external: this build has no MPI");
  if (required(options.shmem.ownership))
    return status(status_code::backend_not_available,
                  fmt::format("environment_options::shmem {}: DTL HIP has no OpenSHMEM backend",
                              to_string(options.shmem.ownership)));
  if (!gpu_is_cuda() && (required(options.cuda.ownership) || options.cuda.device_id >= 0))
    return status(status_code::backend_not_available,
                  "environment_options::cuda: this build has no CUDA (HIP on NVIDIA); choose the GPU with "
                  "environment_options::device");
  return {};
}

result<int> choose_device(const environment_options& options, const detail::mpi_runtime::node_info& node) {
  const bool cuda_off = gpu_is_cuda() && options.cuda.ownership == backend_ownership::disabled;
  if (options.disable_gpu || cuda_off || !detail::device_support::built()) return no_device;
  std::optional<int> wanted = options.device;
  if (gpu_is_cuda() && options.cuda.device_id >= 0) {
    if (wanted && *wanted != options.cuda.device_id)
      return status(status_code::invalid_argument,
                    fmt::format("environment_options::device {} and cuda.device_id {} disagree", *wanted,
                                options.cuda.device_id));
    wanted = options.cuda.device_id;
  }
  if (wanted) {
    DTL_TRY(detail::device_support::check_device(*wanted));
    return *wanted;
  }
  DTL_ASSIGN_OR_RETURN(const std::optional<int> chosen, device_from_environment());
  if (chosen) {
    DTL_TRY(check_device_from_environment(*chosen));
    return *chosen;
  }
  const int count = detail::device_support::device_count();
  if (count == 0) return no_device;
  return node.local_rank % count;
}

// The thread level to ask MPI for: the options' (or DTL_MPI_THREAD_LEVEL's, else multiple), raised to
// mpi.thread_level, the least the program needs.
result<mpi_threads> requested_threads(const environment_options& options) {
  mpi_threads threads = mpi_threads::multiple;
  if (options.thread_level) {
    threads = *options.thread_level;
  } else {
    DTL_ASSIGN_OR_RETURN(threads, threads_from_environment());
  }
  return std::max(threads, from_mpi_thread_level(options.mpi.thread_level));
}

// Starts MPI as options.mpi says (not called for disabled).
result<detail::mpi_runtime::start_info> start_mpi(int* argc, char*** argv, const environment_options& options) {
  if (options.mpi.ownership == backend_ownership::adopt_external && !detail::mpi_runtime::lifecycle().initialised)
    return status(status_code::invalid_state,
                  "environment_options::mpi adopt_external: MPI is not initialised (call MPI_Init_thread first)");
  DTL_ASSIGN_OR_RETURN(const mpi_threads threads, requested_threads(options));
  return detail::mpi_runtime::start(argc, argv, threads);
}

// The granted level against mpi.thread_level, unless a lower one is allowed.
status check_granted_level(const environment_options& options, int granted) {
  if (options.mpi.allow_thread_fallback || granted >= options.mpi.thread_level) return {};
  return status(status_code::backend_init_failed,
                fmt::format("MPI grants thread level {} ({}), below environment_options::mpi.thread_level {} and "
                            "allow_thread_fallback is false",
                            granted, to_string(from_mpi_thread_level(granted)), options.mpi.thread_level));
}

void report_start(const detail::environment_state& state) {
  if (state.rank != 0) return;
  std::fputs(fmt::format("dtl: environment: MPI {}, thread level {}, {} rank(s), device {}\n",
                         !state.uses_mpi  ? "left alone"
                         : state.owns_mpi ? "initialised here"
                                          : "adopted",
                         to_string(from_mpi_thread_level(state.thread_level)), state.rank_count,
                         state.device == no_device ? std::string("none") : std::to_string(state.device))
                 .c_str(),
             stderr);
}

// The world communicator of an environment: MPI_COMM_WORLD's duplicate, or this process alone.
result<std::unique_ptr<detail::comm_backend>> world_of(const detail::environment_state& state) {
  if (!state.uses_mpi) return detail::make_self_comm();
  return detail::mpi_runtime::world();
}

result<std::shared_ptr<detail::environment_state>> start(int* argc, char*** argv, const environment_options& options) {
  std::lock_guard lock(g_mutex);
  if (auto current = g_current.lock(); current && current->alive)
    return status(status_code::invalid_state, "a dtl::environment is already alive in this process");
  DTL_TRY(check_backend_options(options));
  bool abort_on_exception = true;
  if (options.abort_on_exception) {
    abort_on_exception = *options.abort_on_exception;
  } else {
    DTL_ASSIGN_OR_RETURN(abort_on_exception, abort_on_exception_from_environment());
  }
  detail::mpi_runtime::start_info info;
  const bool uses_mpi = options.mpi.ownership != backend_ownership::disabled;
  if (uses_mpi) {
    DTL_ASSIGN_OR_RETURN(info, start_mpi(argc, argv, options));
  }
  auto state = std::make_shared<detail::environment_state>();
  state->owns_mpi = info.initialised_here;
  state->uses_mpi = uses_mpi;
  state->thread_level = info.thread_level;
  state->abort_on_exception = abort_on_exception;
  state->uncaught_at_start = std::uncaught_exceptions();
  // From here on a failure must still finalise what start() initialised.
  auto setup = [&]() -> status {
    detail::mpi_runtime::node_info node;
    if (uses_mpi) {
      DTL_TRY(check_granted_level(options, info.thread_level));
      // Before any collective: settings that change how ranks communicate are the same on every rank.
      const detail::mpi_runtime::wire_setting agreement = {"DTL_AGREEMENT (1 on, 0 off)",
                                                           detail::agreement_enabled() ? 1 : 0};
      DTL_TRY(detail::mpi_runtime::agree_settings({&agreement, 1}));
      DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> world, detail::mpi_runtime::world());
      state->rank = world->rank();
      state->rank_count = world->size();
      world->release();
      DTL_ASSIGN_OR_RETURN(node, detail::mpi_runtime::node());
    }
    state->local_rank = node.local_rank;
    state->local_rank_count = node.local_rank_count;
    DTL_ASSIGN_OR_RETURN(state->device, choose_device(options, node));
    if (gpu_is_cuda() && required(options.cuda.ownership) && state->device == no_device)
      return status(status_code::backend_not_available,
                    fmt::format("environment_options::cuda {}: no CUDA device", to_string(options.cuda.ownership)));
    const bool make_current = options.make_device_current || (gpu_is_cuda() && options.cuda.eager_context);
    if (make_current && state->device >= 0) {
      DTL_TRY(detail::device_support::make_current(state->device));
    }
    return {};
  };
  if (status s = setup(); !s.ok()) {
    static_cast<void>(state->end());
    return s;
  }
  g_current = state;
  g_last_rank = state->rank;
  if (options.verbose) report_start(*state);
  return state;
}

// Destroyed while an exception thrown after its start propagates, with other ranks that would wait for
// this one in their next collective (whether or not this environment initialised MPI).
bool ended_by_exception(const detail::environment_state& state) noexcept {
  return state.alive && state.abort_on_exception && state.rank_count > 1 &&
         std::uncaught_exceptions() > state.uncaught_at_start && detail::mpi_runtime::world_rank() >= 0;
}

}  // namespace

int detail::known_rank() noexcept {
  if (const int rank = mpi_runtime::world_rank(); rank >= 0) return rank;
  return std::max(g_last_rank.load(), 0);
}

environment::environment(std::shared_ptr<detail::environment_state> state) noexcept : state_(std::move(state)) {}

environment::environment(int& argc, char**& argv, environment_options options)
    : environment(value_or_throw(start(&argc, &argv, options))) {}

environment::environment(environment_options options) : environment(value_or_throw(start(nullptr, nullptr, options))) {}

result<environment> environment::create(int& argc, char**& argv, environment_options options) {
  DTL_ASSIGN_OR_RETURN(auto state, start(&argc, &argv, options));
  return environment(std::move(state));
}

result<environment> environment::create(environment_options options) {
  DTL_ASSIGN_OR_RETURN(auto state, start(nullptr, nullptr, options));
  return environment(std::move(state));
}

environment::environment(environment&&) noexcept = default;

environment& environment::operator=(environment&& other) noexcept {
  if (this != &other) {
    if (state_) report_unhandled(state_->end());
    state_ = std::move(other.state_);
  }
  return *this;
}

environment::~environment() {
  if (!state_) return;
  if (ended_by_exception(*state_))
    detail::end_job(fmt::format("dtl: rank {}: the dtl::environment was destroyed by an exception; aborting the job so "
                                "that the other ranks do not wait (environment_options::abort_on_exception = false "
                                "or DTL_ABORT_ON_EXCEPTION=0 to finalise instead)\n",
                                state_->rank),
                    1);
  report_unhandled(state_->end());
}

void environment::abort(int exit_code) const noexcept {
  abort(status(status_code::canceled, fmt::format("environment::abort({}) was called", exit_code)), exit_code);
}

void environment::abort(const status& why, int exit_code) const noexcept { dtl::abort(why, exit_code); }

result<context> environment::try_make_world_context() const { return try_make_world_context(device()); }

result<context> environment::try_make_world_context(int device) const {
  if (!state_ || !state_->alive) return status(status_code::invalid_state, "this dtl::environment has ended");
  if (device != no_device) DTL_TRY(detail::device_support::check_device(device));
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<detail::comm_backend> world, world_of(*state_));
  return detail::make_context(state_, std::move(world), device);
}

context environment::make_world_context() const { return value_or_throw(try_make_world_context()); }
context environment::make_world_context(int device) const { return value_or_throw(try_make_world_context(device)); }

int environment::rank() const noexcept { return state_ ? state_->rank : 0; }
int environment::rank_count() const noexcept { return state_ ? state_->rank_count : 1; }
int environment::device() const noexcept { return state_ ? state_->device : no_device; }
int environment::local_rank() const noexcept { return state_ ? state_->local_rank : 0; }
int environment::local_rank_count() const noexcept { return state_ ? state_->local_rank_count : 1; }
bool environment::has_mpi() const noexcept { return detail::mpi_runtime::built() && (!state_ || state_->uses_mpi); }
bool environment::has_hip() const noexcept { return detail::device_support::built(); }
bool environment::has_nccl() const noexcept { return build::has_nccl; }
bool environment::owns_mpi() const noexcept { return state_ && state_->owns_mpi; }
int environment::mpi_thread_level() const noexcept { return state_ ? state_->thread_level : 3; }

bool environment::has_cuda() const noexcept { return gpu_is_cuda(); }

const char* environment::mpi_thread_level_name() const noexcept {
  static constexpr const char* names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                          "MPI_THREAD_MULTIPLE"};
  const int level = mpi_thread_level();
  return level >= 0 && level <= 3 ? names[level] : "unknown";
}

std::string_view environment::thread_level_name() const noexcept {
  static constexpr std::string_view names[] = {"single", "funneled", "serialized", "multiple"};
  const int level = mpi_thread_level();
  return level >= 0 && level <= 3 ? names[level] : std::string_view("unknown");
}

bool environment::is_initialized() noexcept {
  std::lock_guard lock(g_mutex);
  const auto current = g_current.lock();
  return current && current->alive;
}

}  // namespace dtl

namespace dtl::detail {

std::shared_ptr<environment_state> live_environment() noexcept {
  std::lock_guard lock(g_mutex);
  auto state = g_current.lock();
  return state && state->alive ? state : nullptr;
}

context make_empty_context() noexcept { return context_access::make(nullptr); }

result<context> try_make_current_world_context() {
  std::shared_ptr<environment_state> state;
  {
    std::lock_guard lock(g_mutex);
    state = g_current.lock();
  }
  if (!state || !state->alive)
    return status(status_code::invalid_state, "dtl::world_comm(): no dtl::environment is alive in this process");
  DTL_ASSIGN_OR_RETURN(std::unique_ptr<comm_backend> world, world_of(*state));
  return make_context(state, std::move(world), state->device);
}

}  // namespace dtl::detail
