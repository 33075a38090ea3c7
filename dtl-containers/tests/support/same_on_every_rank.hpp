// SPDX-License-Identifier: MIT
#pragma once
// Checks that a collective's outcome is one outcome: a collective that fails must fail with the same
// status on every rank, and leave no rank behind (the context still works). Each check is itself a
// collective: call it on every rank of `ctx`, in the same order.

#include "doctest.hpp"

#include <dtl/containers/communication/context.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>

#include <cstdint>

namespace test_support {

/// Every rank holds a status with `s`'s code (each rank checks its own against the least and the
/// greatest).
inline void same_code_everywhere(const dtl::context& ctx, const dtl::status& s) {
  const auto code = static_cast<int>(s.code());
  CHECK(ctx.allreduce_value(code, dtl::reduce_op::min).value() == code);
  CHECK(ctx.allreduce_value(code, dtl::reduce_op::max).value() == code);
}

/// Every rank holds the same status: one code, and messages of one length (a message that named its
/// own rank or its own arguments would differ).
inline void same_status_everywhere(const dtl::context& ctx, const dtl::status& s) {
  same_code_everywhere(ctx, s);
  const auto length = static_cast<std::uint64_t>(s.message().size());
  CHECK(ctx.allreduce_value(length, dtl::reduce_op::min).value() == length);
  CHECK(ctx.allreduce_value(length, dtl::reduce_op::max).value() == length);
}

/// The context still works: every rank reached this collective, so a failure before it left no rank
/// behind.
inline void still_in_step(const dtl::context& ctx) {
  CHECK(ctx.allreduce_value(1, dtl::reduce_op::sum).value() == ctx.size());
}

/// `r` failed with the same status on every rank, and the context still works.
template <class T>
void failed_everywhere(const dtl::context& ctx, const dtl::result<T>& r) {
  REQUIRE_FALSE(r.has_value());
  same_status_everywhere(ctx, r.error());
  still_in_step(ctx);
}

}  // namespace test_support
