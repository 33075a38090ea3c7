// SPDX-License-Identifier: MIT
#include <dtl/hip/multi_stream_executor.hpp>

#include <dtl/core/status_boundary.hpp>

#include <fmt/format.h>

#include <utility>

namespace dtl::hip {

namespace {

/// What next()/at() give on a moved-from (empty) executor: every call on it returns invalid_state.
hip_executor& empty_executor() noexcept {
  static hip_executor empty{detail::moved_from_t{}};
  return empty;
}

}  // namespace

result<multi_stream_executor> multi_stream_executor::create(std::size_t count, stream_flags flags,
                                                            stream_priority priority, std::optional<int> device) {
  if (count == 0) return status(status_code::invalid_argument, "multi_stream_executor needs at least one stream");
  if (count > max_streams)
    return status(status_code::invalid_argument,
                  fmt::format("multi_stream_executor::create({}): more than max_streams ({})", count, max_streams));
  return status_boundary("multi_stream_executor::create", [&]() -> result<multi_stream_executor> {
    std::vector<hip_executor> executors;
    executors.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      auto stream = hip_stream::create(flags, priority, device);
      if (!stream.has_value())
        return stream.error().with_context(fmt::format("multi_stream_executor: stream {} of {}", i, count));
      executors.emplace_back(std::move(stream).value());
    }
    return multi_stream_executor(std::move(executors));
  });
}

multi_stream_executor::multi_stream_executor(std::vector<hip_executor> executors) noexcept
    : executors_(std::move(executors)) {}

multi_stream_executor::multi_stream_executor(multi_stream_executor&& other) noexcept
    : executors_(std::move(other.executors_)), next_(other.next_.load(std::memory_order_relaxed)) {
  other.executors_.clear();
}

multi_stream_executor& multi_stream_executor::operator=(multi_stream_executor&& other) noexcept {
  if (this != &other) {
    executors_ = std::move(other.executors_);
    other.executors_.clear();
    next_.store(other.next_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  return *this;
}

hip_executor& multi_stream_executor::next() noexcept {
  if (executors_.empty()) return empty_executor();
  return executors_[next_.fetch_add(1, std::memory_order_relaxed) % executors_.size()];
}

hip_executor& multi_stream_executor::at(std::size_t index) noexcept {
  if (executors_.empty()) return empty_executor();
  return executors_[index % executors_.size()];
}

const hip_executor& multi_stream_executor::at(std::size_t index) const noexcept {
  if (executors_.empty()) return empty_executor();
  return executors_[index % executors_.size()];
}

int multi_stream_executor::device() const noexcept {
  return executors_.empty() ? no_device : executors_.front().device();
}

result<void> multi_stream_executor::synchronize() {
  if (executors_.empty()) return empty_executor().synchronize();
  result<void> first;
  for (auto& e : executors_) {
    result<void> r = e.synchronize();
    if (!r.has_value() && first.has_value()) first = std::move(r);
  }
  return first;
}

event_status multi_stream_executor::query() const {
  if (executors_.empty()) return empty_executor().query();
  for (const auto& e : executors_) {
    event_status s = e.query();
    if (!s.is_complete()) return s;
  }
  return event_status::complete();
}

}  // namespace dtl::hip
