// SPDX-License-Identifier: MIT
#pragma once
// The agreement step that every collective of a context starts with. Not for users.
//
// Each rank brings its local status (its own argument checks, a failed allocation, ...) and the call's
// signature (which collective, and the arguments every rank must pass alike). One small allreduce tells
// every rank whether all of them are ready and agree; only when one is not does a second round find out
// who and why. Every rank then returns the same status, so that no rank goes on to communicate while
// another has given up: that is what makes a local failure a status instead of a hang.

#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/result.hpp>

#include <array>
#include <cstdint>
#include <utility>

namespace dtl::detail {

class agreement_rider;  // what a collective sends with the step (private to the library)

/// A collective call as the agreement step compares it: its name, and up to six arguments that every
/// rank must pass alike (labels name them in messages; a null label ends the list). `rider`: the
/// library's own collectives may send counts and small data in the step's message.
struct call_signature {
  const char* what = "collective";
  std::array<std::int64_t, 6> args{};
  std::array<const char*, 6> labels{};
  agreement_rider* rider = nullptr;
};

/// The agreement step on `ctx` (collective). Every rank gets the same outcome:
///   ok                   every rank's `local` is ok and every rank made the same call;
///   that rank's code     every rank failed with one code (the message is the lowest rank's);
///   collective_failure   some ranks failed (the message names them and the lowest one's cause);
///   invalid_argument     the ranks made different calls, or passed different arguments (named).
/// One rank: `local` itself.
[[nodiscard]] DTL_CONTAINERS_API status agree(const context& ctx, const status& local, const call_signature& call);
[[nodiscard]] DTL_CONTAINERS_API status agree(const context& ctx, const status& local);

/// This rank's own failure, found before a collective by a layer above the context (upstream's free
/// functions: a span shorter than the call needs, a negative count). While it lives, the next agreement
/// step of a collective on this thread reports it in place of that collective's own checks, so that
/// every rank returns the same status and no data moves. Use it through with_local_failure.
class DTL_CONTAINERS_API carried_failure {
 public:
  explicit carried_failure(status failure);
  carried_failure(const carried_failure&) = delete;
  carried_failure& operator=(const carried_failure&) = delete;
  ~carried_failure();

  /// Whether an agreement step has reported it.
  [[nodiscard]] bool delivered() const noexcept { return delivered_; }
  /// The failure this thread carries, not yet reported (then it counts as reported); ok when none.
  /// Called by each collective's agreement step.
  [[nodiscard]] static status take();

 private:
  status failure_;
  bool delivered_ = false;
  carried_failure* outer_;
};

/// Runs `collective` (one call of a context collective, returning result<void>) with `local`, this
/// rank's own failure so far (ok: none), carried into that collective's agreement step: a rank that
/// failed still takes part, so that every rank returns the same status (the agreement's rule above) and
/// no data moves. A collective that fails before its agreement step (an ended context) returns its own.
template <class Collective>
[[nodiscard]] result<void> with_local_failure(const status& local, Collective&& collective) {
  if (local.ok()) return std::forward<Collective>(collective)();
  carried_failure carried(local);
  result<void> outcome = std::forward<Collective>(collective)();
  if (outcome && !carried.delivered()) return local;  // no step reported it: this rank must not say ok
  return outcome;
}

/// The agreement step before the ranks communicate (when `communicates` and there is more than one
/// rank), so that a rank's local failure so far reaches every rank; `local` itself otherwise. `what` names
/// the step in messages.
[[nodiscard]] inline status agree_before(bool communicates, const context& ctx, const status& local, const char* what) {
  return communicates && ctx.size() > 1 ? agree(ctx, local, call_signature{what}) : local;
}

}  // namespace dtl::detail
