// SPDX-License-Identifier: MIT
#pragma once
// remote_ref<T>: one element of a distributed container that may live on another rank. No conversion
// to T, T& or T*: every access is an explicit get() or put(), which may communicate and may fail (a
// dtl::result, never an exception).
//
//   auto g = vec.global_view();
//   dtl::remote_ref<float> x = g[i];        // what global_view::operator[] gives
//   if (x.is_local()) ...                   // owner_rank() == this rank: no communication
//   DTL_TRY(x.put(2.0f));
//
// Upstream DTL's constructors also make one by hand, for an element at global_index on rank owner:
//   remote_ref<int>(owner, global_index, local)                local: its address when this rank holds
//                                                              it, nullptr when another rank does
//   remote_ref<int>(owner, global_index, local, window, byte_offset)   other ranks' elements through a
//                                                              memory window (byte_offset in owner's)
// A remote element without a window (or a global_view's window) cannot be reached: get() and put()
// return not_supported. Through a window, an access completes before it returns (inside lock(owner) or
// lock_all(); a fence epoch would complete it only at the next fence: refused). async_get() and
// async_put() do the same access and return a ready future.

#include <dtl/communication/memory_window.hpp>
#include <dtl/containers/detail/global_access.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/types.hpp>
#include <dtl/futures/distributed_future.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace dtl {

/// How a remote_ref reaches its element.
enum class remote_access_capability : std::uint8_t {
  local_only = 0,                    // this rank holds it
  remote_transport_unavailable = 1,  // another rank holds it, and nothing reaches that rank
  remote_rma = 2,                    // another rank holds it, reached through one-sided access
};

template <class T>
class global_view;

template <class T>
class remote_ref {
 public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;

  /// Element global_index of rank owner; `local` is its address when this rank holds it (else
  /// nullptr). remote_transport_available is only reported back (remote_transport_available()).
  remote_ref(rank_t owner, index_t global_index, T* local, bool remote_transport_available = false) noexcept
      : owner_(owner), index_(global_index), local_(local), transport_(remote_transport_available) {}
  /// As above, with `window` reaching the element at byte_offset of owner's exposed memory.
  remote_ref(rank_t owner, index_t global_index, T* local, memory_window_impl* window, size_type byte_offset) noexcept
      : owner_(owner),
        index_(global_index),
        local_(local),
        transport_(window != nullptr),
        window_(window),
        window_offset_(byte_offset) {}

  /// The element's value, fetched from its owner.
  [[nodiscard]] result<value_type> get() const {
    value_type value{};
    if (status s = access(&value, false); !s.ok()) return s;
    return value;
  }
  /// Stores `value` at the element's owner.
  [[nodiscard]] result<void> put(const value_type& value) const requires(!std::is_const_v<T>) {
    value_type copy = value;
    return access(&copy, true);
  }
  /// get() as a future (ready when it returns: the access is done by then).
  [[nodiscard]] futures::distributed_future<value_type> async_get() const {
    result<value_type> r = get();
    if (!r.has_value()) return futures::make_failed_distributed_future<value_type>(std::move(r).error());
    return futures::make_ready_distributed_future(std::move(r).value());
  }
  /// put() as a future (ready when it returns).
  [[nodiscard]] futures::distributed_future<void> async_put(const value_type& value) const
      requires(!std::is_const_v<T>) {
    if (result<void> r = put(value); !r.has_value())
      return futures::make_failed_distributed_future<void>(std::move(r).error());
    return futures::make_ready_distributed_future();
  }

  [[nodiscard]] index_t global_index() const noexcept { return index_; }
  [[nodiscard]] std::size_t index() const noexcept { return static_cast<std::size_t>(index_); }
  /// The rank that holds the element (no_rank for an index past the container's end).
  [[nodiscard]] rank_t owner_rank() const noexcept { return owner_; }
  /// owner_rank() as a result: out_of_range for an index past the container's end.
  [[nodiscard]] result<int> owner() const {
    if (owner_ == no_rank)
      return status(status_code::out_of_range,
                    "remote_ref: global index " + std::to_string(index_) + " is past the container's end");
    return owner_;
  }
  [[nodiscard]] bool is_local() const noexcept {
    return source_ != nullptr ? owner_ == source_->rank() : local_ != nullptr;
  }
  [[nodiscard]] bool is_remote() const noexcept { return !is_local(); }
  /// Whether the element's rank can be reached through one-sided access (a window).
  [[nodiscard]] bool has_window() const noexcept {
    return window_ != nullptr || (source_ && source_->remote_available());
  }
  [[nodiscard]] bool remote_transport_available() const noexcept {
    return source_ != nullptr ? source_->remote_available() : transport_;
  }
  [[nodiscard]] remote_access_capability remote_capability() const noexcept {
    if (is_local()) return remote_access_capability::local_only;
    return has_window() ? remote_access_capability::remote_rma : remote_access_capability::remote_transport_unavailable;
  }

 private:
  friend class global_view<value_type>;
  friend class global_view<const value_type>;
  remote_ref(std::shared_ptr<const detail::global_access> source, std::size_t index) noexcept
      : owner_(source->partition().owner(index).value_or(no_rank)),
        index_(static_cast<index_t>(index)),
        source_(std::move(source)) {}

  status access(value_type* value, bool write) const {
    if (source_ != nullptr) return source_->access(index(), value, write);
    if (local_ != nullptr) {
      if (write)
        std::memcpy(const_cast<value_type*>(local_), value, sizeof(T));
      else
        std::memcpy(value, local_, sizeof(T));
      return {};
    }
    if (window_ != nullptr) return window_access(value, write);
    return status(status_code::not_supported, "remote_ref: element " + std::to_string(index_) + " is on rank " +
                                                  std::to_string(owner_) + ", and no window reaches it");
  }

  /// Through the window, complete when it returns (the value is read, the caller's copy may go): a local
  /// flush in a passive-target epoch. A fence epoch completes only at its closing fence, so it is refused.
  status window_access(value_type* value, bool write) const {
    if (window_->access_epoch(owner_) == rma_access_epoch::fence)
      return status(status_code::invalid_state,
                    "remote_ref: element " + std::to_string(index_) + " on rank " + std::to_string(owner_) +
                        ": get() and put() complete on return, and an access in a fence epoch completes only at the "
                        "next fence; open a passive-target epoch (lock(" +
                        std::to_string(owner_) + ") or lock_all()), or use the window's own put/get there");
    memory_window_impl::rma_request_handle request;
    result<void> begun = write ? window_->async_put(value, sizeof(T), owner_, window_offset_, request)
                               : window_->async_get(value, sizeof(T), owner_, window_offset_, request);
    if (!begun.has_value()) return std::move(begun).error();
    result<void> done = window_->wait_async(request);
    return done.has_value() ? status{} : std::move(done).error();
  }

  rank_t owner_;
  index_t index_;
  T* local_ = nullptr;
  bool transport_ = false;
  memory_window_impl* window_ = nullptr;
  size_type window_offset_ = 0;
  std::shared_ptr<const detail::global_access> source_;  // the global_view's, for a ref it made
};

template <class T>
struct is_remote_ref<remote_ref<T>> : std::true_type {};

}  // namespace dtl
