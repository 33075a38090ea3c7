// SPDX-License-Identifier: MIT
#pragma once
// hip_executor: runs work on one hip_stream and reports launch failures as a status.
//
//   dtl::hip::hip_stream stream(dtl::hip::stream_flags::non_blocking);
//   dtl::hip::hip_executor exec(std::move(stream));
//   exec.execute([](hipStream_t s) { my_kernel<<<grid, block, 0, s>>>(d_data, n); });
//   exec.synchronize();
//
// execute() runs the work at once on the calling thread, with the stream's device current, and
// returns the launch error (see dtl/hip/launch.hpp for the last-error rule). submit() does the same
// and returns a future that completes when the GPU has finished the work. synchronize() blocks the
// host until the stream's work is done; query() says whether it is.
//
// The constructors throw dtl::status_error when they cannot make the executor (as hip_stream's do);
// create() is the non-throwing twin. A moved-from executor returns invalid_state from every call.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/executor.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/async_copy.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/launch.hpp>
#include <dtl/hip/event_poller.hpp>
#include <dtl/hip/runtime.hpp>

#include <concepts>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace dtl::hip {

class DTL_HIP_EXEC_API hip_executor {
 public:
  using native_handle_type = hipStream_t;

  /// Runs on the current device's default stream. Throws status_error (backend_not_available)
  /// without a device.
  hip_executor();
  /// Runs on `stream`. Throws status_error (invalid_argument) for a moved-from stream.
  explicit hip_executor(hip_stream stream);
  /// Runs on a new owned stream of the current device. Throws status_error as hip_stream(flags) does.
  explicit hip_executor(stream_flags flags, stream_priority priority = stream_priority::normal);
  /// An executor in the moved-from state (every call returns invalid_state).
  explicit hip_executor(detail::moved_from_t tag) noexcept : stream_(tag) {}

  /// The constructors' twins: a failure comes back as a status.
  [[nodiscard]] static result<hip_executor> create(hip_stream stream);
  /// A new owned stream on `device` (default: the current one); the statuses of hip_stream::create().
  [[nodiscard]] static result<hip_executor> create(stream_flags flags,
                                                   stream_priority priority = stream_priority::normal,
                                                   std::optional<int> device = std::nullopt);

  hip_executor(hip_executor&&) noexcept = default;
  hip_executor& operator=(hip_executor&&) noexcept = default;
  hip_executor(const hip_executor&) = delete;
  hip_executor& operator=(const hip_executor&) = delete;
  ~hip_executor() = default;

  /// work(stream) on the calling thread, with the stream's device current. work may return void,
  /// hipError_t, dtl::status or dtl::result<T>; a throw becomes a status. The result is the work's
  /// failure or the launch error HIP recorded; the GPU may still be running the work afterwards.
  template <class F>
  requires std::invocable<F&, hipStream_t>
  [[nodiscard]] result<void> execute(F&& work) {
    DTL_ASSIGN_OR_RETURN(detail::launch_scope scope, detail::launch_scope::enter(stream_));
    if (status s = scope.finish(detail::invoke_work(work, stream_.native_handle())); !s.ok()) return s;
    return {};
  }

  /// execute(work), then a future that completes when the GPU has done it (a pooled event on the
  /// stream, polled by `engine`). A launch failure gives a future failed with it.
  template <class F>
  requires std::invocable<F&, hipStream_t>
  [[nodiscard]] future<void> submit(F&& work, event_poller& engine = event_poller::global()) {
    if (result<void> r = execute(work); !r.has_value()) return make_failed_future<void>(std::move(r).error());
    return engine.enqueue(stream_);
  }

  /// hip_memory_transfer::copy_async on this executor's stream, with a future for its completion.
  [[nodiscard]] future<void> copy_async(void* dst, const void* src, std::size_t bytes, transfer_kind kind,
                                        event_poller& engine = event_poller::global()) {
    return dtl::hip::copy_async(dst, src, bytes, kind, stream_, engine);
  }

  /// A future for all work submitted to the stream so far.
  [[nodiscard]] future<void> marker(event_poller& engine = event_poller::global()) { return engine.enqueue(stream_); }

  /// Blocks the host until all work on this executor's stream is done.
  [[nodiscard]] result<void> synchronize();
  /// Blocks the host until all work on the stream's device is done (hipDeviceSynchronize).
  [[nodiscard]] result<void> synchronize_device();

  /// false only for a moved-from executor.
  [[nodiscard]] bool valid() const noexcept { return stream_.valid(); }
  [[nodiscard]] native_handle_type native_handle() const noexcept { return stream_.native_handle(); }
  [[nodiscard]] stream_properties properties() const noexcept { return stream_.properties(); }
  /// complete when the stream has no pending work (see hip_stream::query()). Never blocks.
  [[nodiscard]] event_status query() const { return stream_.query(); }
  [[nodiscard]] int device() const noexcept { return stream_.device(); }
  [[nodiscard]] const hip_stream& stream() const noexcept { return stream_; }
  [[nodiscard]] hip_stream& stream() noexcept { return stream_; }
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip"; }

 private:
  hip_stream stream_;
};

static_assert(dtl::Executor<hip_executor>);
static_assert(dtl::StreamExecutor<hip_executor>);

}  // namespace dtl::hip
