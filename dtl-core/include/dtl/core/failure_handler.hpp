// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's failure handlers: a program registers functions that choose what to do about a failed
// operation (retry, skip, abort, ...); failure_handler_manager::handle_failure() asks them in the order
// they were registered, and the first that chooses something other than `none` decides. Without one
// that does: retry (3 times) for a transient failure, abort for any other.
//
//   dtl::scoped_failure_handler h([](const dtl::failure_context& f) {
//     if (f.category != dtl::failure_category::communication) return dtl::failure_result{};  // none: ask the next
//     return dtl::failure_result{dtl::recovery_action::retry, 2, "link flapping"};
//   });
//
// Handlers run without the manager's lock held: a handler may register or unregister others.

#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>

#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace dtl {

/// What kind of failure a status code is.
enum class failure_category { recoverable, non_recoverable, transient, resource, communication, corruption };

/// Communication failures are transient (timeout, connection_lost) or communication; memory ones are
/// resource; invalid_format is corruption; everything else is non_recoverable.
[[nodiscard]] constexpr failure_category categorize_failure(status_code code) noexcept {
  switch (code) {
    case status_code::timeout:
    case status_code::connection_lost: return failure_category::transient;
    case status_code::invalid_format: return failure_category::corruption;
    default: break;
  }
  switch (static_cast<int>(code) / 100) {  // the hundreds digit is the category (status_code.hpp)
    case 1: return failure_category::communication;
    case 2: return failure_category::resource;
    default: return failure_category::non_recoverable;
  }
}

/// What failed, where.
struct failure_context {
  status failure_status;
  failure_category category;
  rank_t local_rank;
  rank_t failed_rank;  ///< the remote rank at fault, or no_rank
  std::string operation;
  bool is_collective;
};

enum class recovery_action { none, retry, skip, abort, checkpoint, redistribute };

/// A handler's choice; `none` passes the failure to the next handler.
struct failure_result {
  recovery_action action;
  int retry_count;
  std::string message;
};

using failure_handler_fn = std::function<failure_result(const failure_context&)>;

/// The process-wide list of failure handlers.
class failure_handler_manager {
 public:
  [[nodiscard]] static failure_handler_manager& instance() {
    static failure_handler_manager manager;
    return manager;
  }
  failure_handler_manager(const failure_handler_manager&) = delete;
  failure_handler_manager& operator=(const failure_handler_manager&) = delete;

  /// Adds a handler; the handle unregisters it.
  size_type register_handler(failure_handler_fn handler) {
    const std::lock_guard lock(mutex_);
    handlers_.push_back(std::move(handler));
    return handlers_.size() - 1;
  }
  /// Removes a handler (a no-op for an unknown handle). Other handles stay valid.
  void unregister_handler(size_type handle) {
    const std::lock_guard lock(mutex_);
    if (handle < handlers_.size()) handlers_[handle] = nullptr;
  }
  void clear_handlers() {
    const std::lock_guard lock(mutex_);
    handlers_.clear();
  }

  /// The first registered handler's choice other than `none`, else the default (see the top).
  [[nodiscard]] failure_result handle_failure(const failure_context& failure) {
    std::vector<failure_handler_fn> handlers;
    {
      const std::lock_guard lock(mutex_);
      handlers = handlers_;
    }
    for (const auto& handler : handlers) {
      if (!handler) continue;
      failure_result choice = handler(failure);
      if (choice.action != recovery_action::none) return choice;
    }
    if (failure.category == failure_category::transient) return {recovery_action::retry, 3, "no handler chose: retry"};
    return {recovery_action::abort, 0, "no handler chose: abort"};
  }

 private:
  failure_handler_manager() = default;
  std::mutex mutex_;
  std::vector<failure_handler_fn> handlers_;  // unregistered ones stay as empty functions
};

/// A handler registered for the lifetime of this object.
class scoped_failure_handler {
 public:
  explicit scoped_failure_handler(failure_handler_fn handler)
      : handle_(failure_handler_manager::instance().register_handler(std::move(handler))) {}
  ~scoped_failure_handler() { failure_handler_manager::instance().unregister_handler(handle_); }
  scoped_failure_handler(const scoped_failure_handler&) = delete;
  scoped_failure_handler& operator=(const scoped_failure_handler&) = delete;

 private:
  size_type handle_;
};

}  // namespace dtl
