// SPDX-License-Identifier: MIT
#pragma once
// dtl::request: a point-to-point transfer in flight (context::isend / irecv). wait() completes it and
// says how it went; test() asks without blocking. Destroying a pending request waits for it (a failure
// then goes to dtl::report_unhandled): the buffer must outlive the request either way.
//
//   auto r = ctx.irecv(halo, n, left, 7).value();
//   compute_interior();
//   if (auto done = r.wait(); !done) return done.error();

#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <memory>

namespace dtl {

namespace detail {
/// What a request is made of (p2p.cpp): the protocol's state of one transfer.
struct request_state {
  request_state() = default;
  request_state(const request_state&) = delete;
  request_state& operator=(const request_state&) = delete;
  virtual ~request_state() = default;
  [[nodiscard]] virtual result<bool> test() = 0;
  [[nodiscard]] virtual result<void> wait() = 0;
};
}  // namespace detail

class DTL_CONTAINERS_API request {
 public:
  /// An empty request: complete, with nothing to wait for.
  request() noexcept = default;
  explicit request(std::unique_ptr<detail::request_state> state) noexcept;
  request(request&& other) noexcept;
  request& operator=(request&& other) noexcept;
  request(const request&) = delete;
  request& operator=(const request&) = delete;
  ~request();

  /// Blocks until the transfer is complete; its outcome (the same on both ranks involved). A second
  /// wait() returns ok at once.
  [[nodiscard]] result<void> wait();
  /// true once complete (then wait() returns at once with the outcome); a failure is returned here too.
  [[nodiscard]] result<bool> test();
  /// true while the request has a transfer that wait() has not yet collected.
  [[nodiscard]] bool pending() const noexcept { return state_ != nullptr; }

 private:
  std::unique_ptr<detail::request_state> state_;
};

}  // namespace dtl
