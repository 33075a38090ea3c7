// SPDX-License-Identifier: MIT
#pragma once
// event_pool: reusable timing-disabled events of one device. Creating an event costs ~150 ns and a
// driver call; taking one from the pool costs a mutex. The progress engine keeps one pool per device.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/device_id.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/runtime.hpp>
#include <dtl/hip/stream_ref.hpp>

#include <cstddef>
#include <memory>
#include <optional>

namespace dtl::hip {

namespace detail {
class event_pool_core;
}

class event_pool;

/// An event borrowed from a pool; it goes back when this object is destroyed. An empty one (made by
/// default, moved from, or discarded) returns invalid_state from every call.
class DTL_HIP_EXEC_API pooled_event {
 public:
  pooled_event() noexcept = default;
  pooled_event(pooled_event&& other) noexcept;
  pooled_event& operator=(pooled_event&& other) noexcept;
  pooled_event(const pooled_event&) = delete;
  pooled_event& operator=(const pooled_event&) = delete;
  ~pooled_event();

  /// false when empty.
  [[nodiscard]] bool valid() const noexcept { return event_ != nullptr; }
  [[nodiscard]] hipEvent_t native_handle() const noexcept { return event_; }
  /// The pool's device; dtl::no_device when empty.
  [[nodiscard]] int device() const noexcept;

  /// Records the event on `stream`, a stream of the pool's device.
  [[nodiscard]] result<void> record(stream_ref stream);
  /// As hip_event::query(): whether the recorded work is done. Never blocks.
  [[nodiscard]] event_status query() const;
  /// As hip_event::synchronize(): blocks the host until the recorded work is done.
  [[nodiscard]] result<void> synchronize();

  /// Destroys the event instead of returning it (after a device error its state is unknown).
  void discard() noexcept;

 private:
  friend class event_pool;
  pooled_event(std::shared_ptr<detail::event_pool_core> pool, hipEvent_t event) noexcept
      : pool_(std::move(pool)), event_(event) {}
  std::shared_ptr<detail::event_pool_core> pool_;
  hipEvent_t event_ = nullptr;
};

class DTL_HIP_EXEC_API event_pool {
 public:
  /// Keeps at most this many idle events; more are destroyed when returned.
  static constexpr std::size_t default_max_cached = 16384;

  /// A pool for `device` (default: the current one). Fails when the device does not exist.
  [[nodiscard]] static result<event_pool> create(std::optional<int> device = std::nullopt,
                                                 std::size_t max_cached = default_max_cached);

  /// An idle event, or a new one when none is idle.
  [[nodiscard]] result<pooled_event> acquire();
  /// Creates events until `count` are idle, so later acquire() calls make no driver call. A count above
  /// the pool's max_cached is refused (invalid_argument naming it), never created and then trimmed: make
  /// the pool with a larger max_cached instead. When an event cannot be created, the events this call
  /// made are destroyed and the error is returned (the pool is left as it was).
  [[nodiscard]] result<void> reserve(std::size_t count);

  [[nodiscard]] int device() const noexcept;
  /// Idle events held now.
  [[nodiscard]] std::size_t idle() const noexcept;
  /// Events this pool has created so far.
  [[nodiscard]] std::size_t created() const noexcept;

  /// The shared core (events borrowed from the pool keep it alive).
  [[nodiscard]] const std::shared_ptr<detail::event_pool_core>& core() const noexcept { return core_; }

 private:
  explicit event_pool(std::shared_ptr<detail::event_pool_core> core) noexcept : core_(std::move(core)) {}
  std::shared_ptr<detail::event_pool_core> core_;
};

namespace detail {

/// The pool itself, shared by event_pool, pooled_event and the progress engine. Thread-safe.
class event_pool_core {
 public:
  event_pool_core(int device, std::size_t max_cached) noexcept;
  event_pool_core(const event_pool_core&) = delete;
  event_pool_core& operator=(const event_pool_core&) = delete;
  ~event_pool_core();

  /// An idle event or a new one. When `device_is_current` the caller has made the pool's device
  /// current (the engine's hot path); otherwise a device_guard is used to create one.
  [[nodiscard]] status acquire(hipEvent_t& out, bool device_is_current = false);
  /// Returns an event whose recorded work completed without error.
  void recycle(hipEvent_t event) noexcept;
  /// Destroys an event (after a device error, or when the pool is full).
  void destroy(hipEvent_t event) noexcept;
  [[nodiscard]] status reserve(std::size_t count);

  [[nodiscard]] int device() const noexcept { return device_; }
  [[nodiscard]] std::size_t idle() const noexcept;
  [[nodiscard]] std::size_t created() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  int device_;
};

}  // namespace detail

}  // namespace dtl::hip
