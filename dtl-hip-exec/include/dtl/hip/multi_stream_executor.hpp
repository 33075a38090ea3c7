// SPDX-License-Identifier: MIT
#pragma once
// multi_stream_executor: N streams of one device, handed out round-robin, so that independent work
// can overlap. Thread-safe: concurrent execute()/next() calls each get a stream.

#include <dtl/hip/export_exec.hpp>
#include <dtl/core/event.hpp>
#include <dtl/core/executor.hpp>
#include <dtl/core/result.hpp>
#include <dtl/hip/future.hpp>
#include <dtl/hip/hip_executor.hpp>
#include <dtl/hip/hip_stream.hpp>
#include <dtl/hip/event_poller.hpp>

#include <atomic>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace dtl::hip {

class DTL_HIP_EXEC_API multi_stream_executor {
 public:
  using native_handle_type = hipStream_t;

  /// The most streams one executor makes: each is a driver object, and work spread wider gains nothing.
  static constexpr std::size_t max_streams = 1024;

  /// `count` new streams on `device` (default: the current one). count == 0 or above max_streams is
  /// invalid_argument, checked before anything is made.
  [[nodiscard]] static result<multi_stream_executor> create(std::size_t count,
                                                            stream_flags flags = stream_flags::non_blocking,
                                                            stream_priority priority = stream_priority::normal,
                                                            std::optional<int> device = std::nullopt);

  multi_stream_executor(multi_stream_executor&& other) noexcept;
  multi_stream_executor& operator=(multi_stream_executor&& other) noexcept;
  multi_stream_executor(const multi_stream_executor&) = delete;
  multi_stream_executor& operator=(const multi_stream_executor&) = delete;
  ~multi_stream_executor() = default;

  /// The number of streams (0 only for a moved-from executor, whose calls all return invalid_state).
  [[nodiscard]] std::size_t size() const noexcept { return executors_.size(); }
  /// The next executor in round-robin order.
  [[nodiscard]] hip_executor& next() noexcept;
  /// Executor `index % size()`.
  [[nodiscard]] hip_executor& at(std::size_t index) noexcept;
  [[nodiscard]] const hip_executor& at(std::size_t index) const noexcept;

  /// work(stream) on the next stream (see hip_executor::execute).
  template <class F>
  requires std::invocable<F&, hipStream_t>
  [[nodiscard]] result<void> execute(F&& work) { return next().execute(std::forward<F>(work)); }
  /// work(stream) on the next stream, with a future for its completion.
  template <class F>
  requires std::invocable<F&, hipStream_t>
  [[nodiscard]] future<void> submit(F&& work, event_poller& engine = event_poller::global()) {
    return next().submit(std::forward<F>(work), engine);
  }

  /// Blocks the host until every stream's work is done; all are synchronized even if one fails, and
  /// the first failure is returned.
  [[nodiscard]] result<void> synchronize();
  /// complete when no stream has pending work; otherwise the first stream's pending or failed state.
  /// Never blocks.
  [[nodiscard]] event_status query() const;

  /// The streams' device; dtl::no_device when moved from.
  [[nodiscard]] int device() const noexcept;
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "hip-multi-stream"; }

 private:
  explicit multi_stream_executor(std::vector<hip_executor> executors) noexcept;
  std::vector<hip_executor> executors_;
  std::atomic<std::size_t> next_{0};
};

static_assert(dtl::Executor<multi_stream_executor>);

}  // namespace dtl::hip
