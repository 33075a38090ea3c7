// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's domains, as every dtl::context has them:
//
//   auto ctx = env.make_world_context();
//   auto& comm = ctx.get<dtl::mpi_domain>().communicator();   // upstream's communicator
//   static_assert(decltype(ctx)::has<dtl::mpi_domain>());
//
// Upstream's context is context<mpi_domain, cpu_domain, ...>, a tuple of domains; ours is one type
// that always spans ranks (over MPI, or one process without it), so it has both: get<mpi_domain>()
// gives the communicator over the context's ranks (upstream_communicator.hpp), get<cpu_domain>() the
// trivial CPU domain. In builds without MPI the mpi_domain is rank 0 of 1 and its communicator works on
// that one rank (upstream's stub aborts there instead). HIP builds add get<hip_domain>() (and, on
// NVIDIA, get<cuda_domain>(), the same domain): the context's device and a stream on it. Upstream adds
// that domain with ctx.with_hip(d); ours is there in every context, valid() when the context has a
// device, and ctx.with_hip(d) (context.hpp) gives a context on device d.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/implicit_world.hpp>
#include <dtl/containers/communication/environment.hpp>
#include <dtl/containers/communication/world_comm.hpp>
#include <dtl/containers/config.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/core/status_error.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/runtime.hpp>
#endif

namespace dtl {

struct mpi_domain_tag {};
struct cpu_domain_tag {};

class mpi_domain {
 public:
  using tag_type = mpi_domain_tag;
  static constexpr bool in_every_context = true;

  /// Upstream's default: every rank (collective). The live environment's world; where none lives but
  /// the program initialised MPI itself, an environment adopting MPI that this domain and its copies keep
  /// alive (communicators taken from them end with the last one). Throws dtl::status_error when neither.
  mpi_domain() : mpi_domain(value_or_throw(detail::try_make_implicit_world())) {}

  explicit mpi_domain(std::shared_ptr<mpi::mpi_comm_adapter> adapter) noexcept : adapter_(std::move(adapter)) {}

  [[nodiscard]] rank_t rank() const noexcept { return adapter_->rank(); }
  [[nodiscard]] rank_t size() const noexcept { return adapter_->size(); }
  /// false for an empty context (moved from, or left out by a split) and once its environment ended.
  [[nodiscard]] bool valid() const noexcept { return adapter_->dtl_context().valid(); }
  [[nodiscard]] bool is_root() const noexcept { return rank() == 0; }

  [[nodiscard]] mpi::mpi_comm_adapter& communicator() noexcept { return *adapter_; }
  [[nodiscard]] const mpi::mpi_comm_adapter& communicator() const noexcept { return *adapter_; }
  [[nodiscard]] std::shared_ptr<mpi::mpi_comm_adapter> adapter_handle() const noexcept { return adapter_; }

  /// The domain of the ranks that pass the same color, ordered by key then rank (collective).
  [[nodiscard]] result<mpi_domain> split(int color, int key = 0) const {
    result<context> sub = adapter_->dtl_context().split(color, key);
    if (!sub) return std::move(sub).error();
    return mpi_domain(std::make_shared<mpi::mpi_comm_adapter>(std::move(sub).value()));
  }

  /// Upstream's: a barrier when the domain is valid (throws communication_error if it fails).
  void barrier() {
    if (valid()) adapter_->barrier();
  }

  /// What context::get<mpi_domain>() returns.
  static mpi_domain& of(const context& ctx);

 private:
  explicit mpi_domain(detail::implicit_world world)
      : environment_(std::move(world.environment)),
        adapter_(std::make_shared<mpi::mpi_comm_adapter>(std::move(world.world))) {}

  std::shared_ptr<environment> environment_;  // declared first: it ends after the adapter's context
  std::shared_ptr<mpi::mpi_comm_adapter> adapter_;
};

/// The CPU execution domain: rank 0 of 1, always valid (as upstream's).
static_assert(context::has_mpi() == context::has<mpi_domain>());

class cpu_domain {
 public:
  using tag_type = cpu_domain_tag;
  static constexpr bool in_every_context = true;

  constexpr cpu_domain() noexcept = default;
  [[nodiscard]] constexpr rank_t rank() const noexcept { return 0; }
  [[nodiscard]] constexpr rank_t size() const noexcept { return 1; }
  [[nodiscard]] constexpr bool valid() const noexcept { return true; }
  [[nodiscard]] constexpr bool is_root() const noexcept { return true; }

  static cpu_domain& of(const context& ctx);
};

#if DTL_CONTAINERS_HAS_HIP
struct hip_domain_tag {};

/// The context's device (upstream's hip_domain): its id, and a stream on it that the domain owns.
class hip_domain {
 public:
  using tag_type = hip_domain_tag;
  static constexpr bool in_every_context = true;

  explicit hip_domain(int device) noexcept : device_(device) {}

  /// The context's device, or dtl::no_device (-1, as upstream's invalid domain) when it has none.
  [[nodiscard]] int device_id() const noexcept { return device_; }
  [[nodiscard]] bool valid() const noexcept { return device_ != no_device; }
  /// A non-blocking stream on the device, made at the first call; nullptr for an invalid domain. Throws
  /// dtl::status_error when HIP cannot make it.
  [[nodiscard]] hipStream_t stream() {
    if (!valid()) return nullptr;
    if (!stream_)
      stream_.emplace(
          value_or_throw(hip::hip_stream::create(hip::stream_flags::non_blocking, stream_priority::normal, device_)));
    return stream_->native_handle();
  }
  /// Waits for the work on stream() (nothing when none was made). Throws status_error if it fails.
  void synchronize() {
    if (stream_) value_or_throw(stream_->synchronize());
  }

  static hip_domain& of(const context& ctx);

 private:
  int device_;
  std::optional<hip::hip_stream> stream_;
};

struct cuda_domain_tag {};

/// What cuda_domain is where HIP does not run on NVIDIA: a domain no context has (has<>() is false).
class no_cuda_domain {
 public:
  using tag_type = cuda_domain_tag;
  static constexpr bool in_every_context = false;
  [[nodiscard]] int device_id() const noexcept { return no_device; }
  [[nodiscard]] bool valid() const noexcept { return false; }
};

/// Upstream's cuda_domain: on NVIDIA, HIP's devices and streams are CUDA's, so it is hip_domain.
using cuda_domain = std::conditional_t<hip::on_nvidia, hip_domain, no_cuda_domain>;
static_assert(context::has_hip() == context::has<hip_domain>());
static_assert(context::has_cuda() == context::has<cuda_domain>(), "dtl::build::has_cuda is HIP's NVIDIA platform");
#endif

namespace detail {

/// The domains of one context (and of the copies made after they were).
struct upstream_domains {
  explicit upstream_domains(const context& ctx)
      : mpi(std::make_shared<mpi::mpi_comm_adapter>(ctx))
#if DTL_CONTAINERS_HAS_HIP
        ,
        hip(ctx.device())
#endif
  {
  }
  mpi_domain mpi;
  cpu_domain cpu;
#if DTL_CONTAINERS_HAS_HIP
  hip_domain hip;
#endif
};

struct upstream_domains_access {
  static upstream_domains& of(const context& ctx) {
    // The adapter's copy of ctx is made before the slot is filled, so it holds no domains of its own:
    // the domains never keep their context alive.
    if (!ctx.upstream_domains_) ctx.upstream_domains_ = std::make_shared<upstream_domains>(ctx);
    return *static_cast<upstream_domains*>(ctx.upstream_domains_.get());
  }
};

}  // namespace detail

inline mpi_domain& mpi_domain::of(const context& ctx) { return detail::upstream_domains_access::of(ctx).mpi; }
inline cpu_domain& cpu_domain::of(const context& ctx) { return detail::upstream_domains_access::of(ctx).cpu; }
#if DTL_CONTAINERS_HAS_HIP
inline hip_domain& hip_domain::of(const context& ctx) { return detail::upstream_domains_access::of(ctx).hip; }
#endif

}  // namespace dtl
