// SPDX-License-Identifier: MIT
// Counts past what the address space holds (run with 2 and 3 ranks, suite mpi-faults): point-to-point
// and all-to-all with counts near 2^64, 2^63 and 2^62 bytes fail with out_of_range on every rank that
// takes part (point-to-point: a receive's own count on the receiver alone), before any byte moves,
// without a wrapped piece count (which moved nothing and returned ok) and without an allocation that
// grows with the count (std::bad_alloc from 2^32 MPI requests).
// The buffers are small: a count is refused before anything reads it.
#include "address_space_cap.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace {

using test_support::same_status_everywhere;
using test_support::still_in_step;

constexpr std::size_t wrapped = static_cast<std::size_t>(5 - 10);  // 2^64 - 5
constexpr std::size_t two_to_63 = std::size_t{1} << 63;
constexpr std::size_t two_to_62 = std::size_t{1} << 62;  // under PTRDIFF_MAX: 2^31 pieces of INT_MAX bytes

using test_support::address_space_cap;

bool mentions(const dtl::status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

// Ranks 0 and 1: a blocking send from 0 of `send_count` elements and a receive on 1 of `recv_count`.
// Returns this rank's status (ok on the ranks that take no part).
template <class T>
dtl::status send_recv(const dtl::context& ctx, std::size_t send_count, std::size_t recv_count) {
  std::vector<T> buffer(8);
  address_space_cap cap{std::uint64_t{1} << 30};  // an allocation that grows with a count fails
  dtl::result<void> r;
  try {
    if (ctx.rank() == 0) r = ctx.send(buffer.data(), send_count, 1, 7);
    if (ctx.rank() == 1) r = ctx.recv(buffer.data(), recv_count, 0, 7);
  } catch (const std::exception& e) {  // a result-returning call must not throw
    FAIL("rank ", ctx.rank(), " threw ", std::string(e.what()));
  }
  return r ? dtl::status() : r.error();
}

// Both ranks of the pair fail with out_of_range (saying `why`), and the context is still in step.
void both_out_of_range(const dtl::context& ctx, const dtl::status& s, const std::string& why = "") {
  if (ctx.rank() <= 1) {
    CHECK(s.code() == dtl::status_code::out_of_range);
    CHECK(mentions(s, why));
  }
  still_in_step(ctx);
}

// alltoallv of chars where rank 0 sends `bytes` to rank 1 and rank 1 expects them; nothing else moves.
dtl::status alltoallv_from_0_to_1(const dtl::context& ctx, std::size_t bytes) {
  const auto n = static_cast<std::size_t>(ctx.size());
  std::vector<std::size_t> send_counts(n, 0), recv_counts(n, 0), displs(n, 0);
  if (ctx.rank() == 0) send_counts[1] = bytes;
  if (ctx.rank() == 1) recv_counts[0] = bytes;
  std::vector<char> send(8), recv(8);
  address_space_cap cap{std::uint64_t{1} << 30};  // an allocation that grows with a count fails
  try {
    auto r = ctx.alltoallv(send.data(), std::span<const std::size_t>(send_counts), displs, recv.data(),
                           std::span<const std::size_t>(recv_counts), displs);
    return r ? dtl::status() : r.error();
  } catch (const std::exception& e) {
    FAIL("rank ", ctx.rank(), " threw ", std::string(e.what()));
  }
  return {};
}

}  // namespace

TEST_SUITE("huge_counts") {
  TEST_CASE("send and recv of (size_t)(5 - 10) chars: out_of_range on both ranks, not ok with nothing moved") {
    const auto ctx = test_support::world();
    both_out_of_range(ctx, send_recv<char>(ctx, wrapped, wrapped), "address space");
  }

  TEST_CASE("a count near 2^64 on one side only: out_of_range on that side, and on a sender's receiver") {
    const auto ctx = test_support::world();
    both_out_of_range(ctx, send_recv<char>(ctx, wrapped, 5));  // the sender's failure travels in its header
    // The receiver's own failure stays on the receiver (as with MPI); the sender's checks pass.
    const dtl::status s = send_recv<char>(ctx, 5, wrapped);
    if (ctx.rank() == 0) CHECK(s.ok());
    if (ctx.rank() == 1) CHECK(s.code() == dtl::status_code::out_of_range);
    still_in_step(ctx);
  }

  TEST_CASE("counts of 2^63 and 2^62 chars: out_of_range on both ranks, no std::bad_alloc") {
    const auto ctx = test_support::world();
    both_out_of_range(ctx, send_recv<char>(ctx, two_to_63, two_to_63));
    both_out_of_range(ctx, send_recv<char>(ctx, two_to_62, two_to_62));
  }

  TEST_CASE("a count whose bytes overflow (2^62 ints) or pass 2^63 (2^61 ints): out_of_range on both ranks") {
    const auto ctx = test_support::world();
    both_out_of_range(ctx, send_recv<std::int32_t>(ctx, two_to_62, two_to_62));
    both_out_of_range(ctx, send_recv<std::int32_t>(ctx, two_to_62 / 2, two_to_62 / 2));
  }

  TEST_CASE("isend and irecv of (size_t)(5 - 10) chars: the requests end in out_of_range on both ranks") {
    const auto ctx = test_support::world();
    std::vector<char> buffer(8);
    dtl::status s;
    if (ctx.rank() <= 1) {
      auto posted = ctx.rank() == 0 ? ctx.isend(buffer.data(), wrapped, 1, 3) : ctx.irecv(buffer.data(), wrapped, 0, 3);
      if (!posted)
        s = posted.error();
      else if (auto done = posted->wait(); !done)
        s = done.error();
    }
    both_out_of_range(ctx, s);
  }

  TEST_CASE("alltoallv of SIZE_MAX chars: out_of_range on every rank, not ok with nothing moved") {
    const auto ctx = test_support::world();
    const dtl::status s = alltoallv_from_0_to_1(ctx, std::numeric_limits<std::size_t>::max());
    CHECK(s.code() == dtl::status_code::out_of_range);
    CHECK(mentions(s, "address space"));
    same_status_everywhere(ctx, s);
    still_in_step(ctx);
  }

  TEST_CASE("scan and exscan of 2^61 int64 (bytes wrap to 0): invalid_argument on every rank, nothing written") {
    const auto ctx = test_support::world();
    const std::size_t count = wrapped / sizeof(std::int64_t) + 1;  // 2^61: count * 8 wraps to 0
    std::vector<std::int64_t> in(4, 1), out(4, -1);
    for (const bool exclusive : {false, true}) {
      CAPTURE(exclusive);
      const auto r = exclusive ? ctx.exscan(in.data(), out.data(), count, dtl::reduce_op::sum)
                               : ctx.scan(in.data(), out.data(), count, dtl::reduce_op::sum);
      REQUIRE_FALSE(r.has_value());
      CHECK(r.error().code() == dtl::status_code::invalid_argument);
      CHECK(mentions(r.error(), "overflows size_t"));
      same_status_everywhere(ctx, r.error());
      CHECK(out == std::vector<std::int64_t>(4, -1));
      still_in_step(ctx);
    }
  }

  TEST_CASE("alltoallv of 2^62 chars (2^31 pieces): out_of_range on every rank, no std::bad_alloc") {
    const auto ctx = test_support::world();
    const dtl::status s = alltoallv_from_0_to_1(ctx, two_to_62);
    CHECK(s.code() == dtl::status_code::out_of_range);
    same_status_everywhere(ctx, s);
    still_in_step(ctx);
  }
}
