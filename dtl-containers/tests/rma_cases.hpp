// SPDX-License-Identifier: MIT
#pragma once
// The one-sided cases that hold for a window over any memory, each against what the ranks compute
// serially: host memory (rma_test.cpp) and device memory of ranks sharing a GPU (gpu_rma_ipc_test.cpp). A
// Region<T> is `count` elements of T on this rank: Region<T>(ctx, count, value), get(), bytes(), read()
// (the elements, on the host) and write(values).
#include "test_environment.hpp"

#include <dtl/rma/rma.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

namespace rma_cases {

/// Host memory as a Region.
template <class T>
class host_region {
 public:
  host_region(const dtl::context&, std::size_t count, T value) : data_(count, value) {}
  [[nodiscard]] T* get() noexcept { return data_.data(); }
  [[nodiscard]] std::size_t bytes() const noexcept { return data_.size() * sizeof(T); }
  [[nodiscard]] std::vector<T> read() const { return data_; }
  void write(const std::vector<T>& values) { std::copy(values.begin(), values.end(), data_.begin()); }

 private:
  std::vector<T> data_;
};

/// A window of a context over a Region of `count` T per rank, each `value`.
template <template <class> class Region, class T>
struct window_over {
  Region<T> region;
  dtl::memory_window window;
  window_over(const dtl::context& ctx, std::size_t count, T value) : region(ctx, count, value) {
    auto w = dtl::memory_window::create(ctx, region.get(), region.bytes());
    REQUIRE(w.has_value());
    window = std::move(*w);
  }
};

template <class T>
std::vector<T> everyones(const dtl::context& ctx, T mine) {
  std::vector<T> all(static_cast<std::size_t>(ctx.size()));
  REQUIRE(ctx.allgather(&mine, all.data(), 1).has_value());
  return all;
}

constexpr std::size_t slot(std::size_t i) { return i * sizeof(std::int64_t); }

/// Each rank puts 100 * me + t into slot `me` of every rank t between fences, then reads the next rank's region.
template <template <class> class Region>
void put_and_get_between_fences(const dtl::context& ctx) {
  const int n = ctx.size(), me = ctx.rank();
  window_over<Region, std::int64_t> w(ctx, static_cast<std::size_t>(n), -1);
  REQUIRE(w.window.valid());
  CHECK(w.window.size() == slot(static_cast<std::size_t>(n)));
  CHECK(w.window.base() == w.region.get());
  REQUIRE(w.window.fence().has_value());
  for (int t = 0; t < n; ++t)
    REQUIRE(dtl::rma::put(t, slot(static_cast<std::size_t>(me)), std::int64_t{100 * me + t}, w.window).has_value());
  REQUIRE(w.window.fence().has_value());
  const std::vector<std::int64_t> mine = w.region.read();
  for (int from = 0; from < n; ++from) CHECK(mine[static_cast<std::size_t>(from)] == 100 * from + me);
  const int next = (me + 1) % n;
  std::vector<std::int64_t> got(static_cast<std::size_t>(n), 0);
  REQUIRE(dtl::rma::get(next, 0, std::span<std::int64_t>(got), w.window).has_value());
  REQUIRE(w.window.fence().has_value());
  for (int from = 0; from < n; ++from) CHECK(got[static_cast<std::size_t>(from)] == 100 * from + next);
}

/// Every rank's contribution, combined as the element type: int64 and double sums, and bytes that share a
/// word, each combined alone (250 + 10 wraps; max keeps the larger; the others stay).
template <template <class> class Region>
void accumulate_combines(const dtl::context& ctx) {
  const int n = ctx.size();
  window_over<Region, std::int64_t> ints(ctx, 2, 0);
  ints.region.write({0, 1});
  window_over<Region, double> reals(ctx, 1, 0.5);
  window_over<Region, std::uint8_t> bytes(ctx, 4, 250);
  REQUIRE(ints.window.fence().has_value());
  REQUIRE(reals.window.fence().has_value());
  REQUIRE(bytes.window.fence().has_value());
  const std::int64_t contribution[2] = {ctx.rank() + 1, 3};
  REQUIRE(dtl::rma::accumulate(0, 0, std::span<const std::int64_t>(contribution), dtl::rma_reduce_op::sum, ints.window)
              .has_value());
  REQUIRE(dtl::rma::accumulate(0, 0, 0.25 * (ctx.rank() + 1), dtl::rma_reduce_op::sum, reals.window).has_value());
  const std::uint8_t ten = 10, big = 255;
  REQUIRE(bytes.window.accumulate(&ten, 1, 0, 0, dtl::rma_reduce_op::sum).has_value());
  REQUIRE(bytes.window.accumulate(&big, 1, 0, 1, dtl::rma_reduce_op::max).has_value());
  REQUIRE(ints.window.fence().has_value());
  REQUIRE(reals.window.fence().has_value());
  REQUIRE(bytes.window.fence().has_value());
  if (ctx.rank() != 0) return;
  const std::vector<std::int64_t> i = ints.region.read();
  CHECK(i[0] == n * (n + 1) / 2);
  CHECK(i[1] == 1 + 3 * n);
  CHECK(reals.region.read()[0] == doctest::Approx(0.5 + 0.25 * n * (n + 1) / 2));
  const std::vector<std::uint8_t> b = bytes.region.read();
  CHECK(b[0] == static_cast<std::uint8_t>(250 + 10 * n));
  CHECK(b[1] == 255);
  CHECK(b[2] == 250);
  CHECK(b[3] == 250);
}

/// fetch_and_add in a lock_all epoch hands out each previous value once.
template <template <class> class Region>
void fetch_and_op_hands_out_each_value_once(const dtl::context& ctx) {
  const int n = ctx.size();
  window_over<Region, std::int64_t> w(ctx, 1, 0);
  REQUIRE(ctx.barrier().has_value());
  REQUIRE(w.window.lock_all().has_value());
  std::int64_t before = -1;
  REQUIRE(dtl::rma::fetch_and_add(0, 0, std::int64_t{1}, before, w.window).has_value());
  REQUIRE(w.window.flush(0).has_value());
  REQUIRE(w.window.unlock_all().has_value());
  std::vector<std::int64_t> seen = everyones(ctx, before);
  std::sort(seen.begin(), seen.end());
  std::vector<std::int64_t> expected(static_cast<std::size_t>(n));
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(seen == expected);
  REQUIRE(ctx.barrier().has_value());
  if (ctx.rank() == 0) CHECK(w.region.read()[0] == n);
}

/// get_accumulate returns the old elements; fetch_and_op with no_op reads atomically.
template <template <class> class Region>
void get_accumulate_returns_the_old_elements(const dtl::context& ctx) {
  window_over<Region, std::int64_t> w(ctx, 2, 0);
  w.region.write({10, 20});
  REQUIRE(w.window.fence().has_value());
  const int target = ctx.size() - 1;
  std::int64_t old[2] = {0, 0};
  if (ctx.rank() == 0) {
    const std::int64_t add[2] = {5, 7};
    REQUIRE(dtl::rma::get_accumulate(target, 0, std::span<const std::int64_t>(add), std::span<std::int64_t>(old),
                                     dtl::rma_reduce_op::sum, w.window)
                .has_value());
  }
  REQUIRE(w.window.fence().has_value());
  std::int64_t read = 0;
  REQUIRE(
      dtl::rma::fetch_and_op(target, slot(1), std::int64_t{0}, read, dtl::rma_reduce_op::no_op, w.window).has_value());
  REQUIRE(w.window.fence().has_value());
  if (ctx.rank() == 0) {
    CHECK(old[0] == 10);
    CHECK(old[1] == 20);
  }
  CHECK(read == 27);
  if (ctx.rank() == target) CHECK(w.region.read()[0] == 15);
}

/// compare_and_swap under an exclusive lock: exactly one rank wins the slot.
template <template <class> class Region>
void compare_and_swap_has_one_winner(const dtl::context& ctx) {
  window_over<Region, std::int64_t> w(ctx, 1, 0);
  REQUIRE(ctx.barrier().has_value());
  REQUIRE(w.window.lock(0, dtl::rma_lock_mode::exclusive).has_value());
  std::int64_t was = -1;
  REQUIRE(dtl::rma::compare_and_swap(0, 0, std::int64_t{0}, std::int64_t{ctx.rank() + 1}, was, w.window).has_value());
  REQUIRE(w.window.unlock(0).has_value());
  const std::vector<std::int64_t> all = everyones(ctx, was);
  CHECK(std::count(all.begin(), all.end(), 0) == 1);
  REQUIRE(ctx.barrier().has_value());
  if (ctx.rank() == 0) {
    const auto winner = std::find(all.begin(), all.end(), 0) - all.begin();
    CHECK(w.region.read()[0] == winner + 1);
  }
}

/// Exclusive locks serialise a read-modify-write of rank 0's slot; shared locks read together.
template <template <class> class Region>
void exclusive_locks_serialise(const dtl::context& ctx) {
  const int n = ctx.size();
  window_over<Region, std::int64_t> w(ctx, 1, 0);
  REQUIRE(ctx.barrier().has_value());
  for (int round = 0; round < 5; ++round) {
    REQUIRE(w.window.lock(0, dtl::rma_lock_mode::exclusive).has_value());
    std::int64_t v = 0;
    REQUIRE(dtl::rma::get(0, 0, v, w.window).has_value());
    REQUIRE(w.window.flush(0).has_value());
    REQUIRE(dtl::rma::put(0, 0, v + 1, w.window).has_value());
    REQUIRE(w.window.unlock(0).has_value());
  }
  REQUIRE(ctx.barrier().has_value());
  REQUIRE(w.window.lock(0, dtl::rma_lock_mode::shared).has_value());
  std::int64_t total = 0;
  REQUIRE(dtl::rma::get(0, 0, total, w.window).has_value());
  REQUIRE(w.window.unlock(0).has_value());
  CHECK(total == 5 * n);
}

}  // namespace rma_cases
