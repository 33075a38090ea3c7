// SPDX-License-Identifier: MIT
// dtl::memory_window and dtl::rma over device memory of ranks sharing a GPU (1, 2 and 3 ranks): put and get
// through HIP IPC between fences, the atomics as device kernels on the mapped blocks (typed sums, bytes,
// fetch_and_op, get_accumulate, compare_and_swap), exclusive locks, and the bad input a device window
// refuses, each against what the ranks compute serially.
#include "test_environment.hpp"

#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/rma/rma.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace {

dtl::context world() { return test_support::environment()->make_world_context(); }

/// Device memory of `count` T on the context's device (from DTL's memory space, which IPC can share),
/// filled with `value`, read and written through copies.
template <class T>
class device_block {
 public:
  device_block(const dtl::context& ctx, std::size_t count, T value)
      : space_(ctx.device()), bytes_(count * sizeof(T)), count_(count) {
    data_ = static_cast<T*>(space_.allocate(bytes_).value());
    write(std::vector<T>(count, value));
  }
  device_block(const device_block&) = delete;
  device_block& operator=(const device_block&) = delete;
  ~device_block() { space_.deallocate(data_, bytes_); }
  [[nodiscard]] T* get() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  void write(const std::vector<T>& values) {
    REQUIRE(dtl::hip::hip_memory_transfer::copy(data_, values.data(), values.size() * sizeof(T),
                                                dtl::transfer_kind::host_to_device)
                .has_value());
  }
  [[nodiscard]] std::vector<T> read() const {
    std::vector<T> values(count_);
    REQUIRE(dtl::hip::hip_memory_transfer::copy(values.data(), data_, bytes_, dtl::transfer_kind::device_to_host)
                .has_value());
    return values;
  }

 private:
  dtl::hip::hip_memory_space space_;
  std::size_t bytes_;
  std::size_t count_;
  T* data_ = nullptr;
};

/// A window over a device block of `count` T per rank.
template <class T>
struct device_window {
  device_block<T> block;
  dtl::memory_window window;
  device_window(const dtl::context& ctx, std::size_t count, T value) : block(ctx, count, value) {
    auto w = dtl::memory_window::create(ctx, block.get(), block.bytes());
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

}  // namespace

TEST_SUITE("gpu.rma_ipc") {
  TEST_CASE("put and get between fences reach every rank's device block") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    device_window<std::int64_t> w(ctx, static_cast<std::size_t>(n), -1);
    REQUIRE(w.window.valid());
    CHECK(w.window.base() == w.block.get());
    CHECK(w.window.size() == slot(static_cast<std::size_t>(n)));
    REQUIRE(w.window.fence().has_value());
    for (int t = 0; t < n; ++t)  // slot `me` of every rank t: 100 me + t
      REQUIRE(dtl::rma::put(t, slot(static_cast<std::size_t>(me)), std::int64_t{100 * me + t}, w.window).has_value());
    REQUIRE(w.window.fence().has_value());
    const std::vector<std::int64_t> mine = w.block.read();
    for (int r = 0; r < n; ++r) CHECK(mine[static_cast<std::size_t>(r)] == 100 * r + me);
    for (int t = 0; t < n; ++t) {  // and read back from every rank
      std::int64_t got = 0;
      REQUIRE(dtl::rma::get(t, slot(static_cast<std::size_t>(me)), got, w.window).has_value());
      CHECK(got == 100 * me + t);
    }
    REQUIRE(w.window.fence().has_value());
  }

  TEST_CASE("accumulate combines every rank's contribution on the device, as the element type") {
    const auto ctx = world();
    const int n = ctx.size();
    device_window<std::int64_t> ints(ctx, 2, 0);
    ints.block.write({0, 1});
    device_window<double> reals(ctx, 1, 0.5);
    device_window<std::uint8_t> bytes(ctx, 4, 250);
    REQUIRE(ints.window.fence().has_value());
    REQUIRE(reals.window.fence().has_value());
    REQUIRE(bytes.window.fence().has_value());
    const std::int64_t contribution[2] = {ctx.rank() + 1, 3};
    REQUIRE(
        dtl::rma::accumulate(0, 0, std::span<const std::int64_t>(contribution), dtl::rma_reduce_op::sum, ints.window)
            .has_value());
    REQUIRE(dtl::rma::accumulate(0, 0, 0.25 * (ctx.rank() + 1), dtl::rma_reduce_op::sum, reals.window).has_value());
    // Bytes share a 32-bit word: each is combined alone (250 + 10 wraps; max keeps the larger; the others stay).
    const std::uint8_t ten = 10, big = 255;
    REQUIRE(bytes.window.accumulate(&ten, 1, 0, 0, dtl::rma_reduce_op::sum).has_value());
    REQUIRE(bytes.window.accumulate(&big, 1, 0, 1, dtl::rma_reduce_op::max).has_value());
    REQUIRE(ints.window.fence().has_value());
    REQUIRE(reals.window.fence().has_value());
    REQUIRE(bytes.window.fence().has_value());
    if (ctx.rank() == 0) {
      const std::vector<std::int64_t> i = ints.block.read();
      CHECK(i[0] == n * (n + 1) / 2);
      CHECK(i[1] == 1 + 3 * n);
      CHECK(reals.block.read()[0] == doctest::Approx(0.5 + 0.25 * n * (n + 1) / 2));
      const std::vector<std::uint8_t> b = bytes.block.read();
      CHECK(b[0] == static_cast<std::uint8_t>(250 + 10 * n));
      CHECK(b[1] == 255);
      CHECK(b[2] == 250);
      CHECK(b[3] == 250);
    }
  }

  TEST_CASE("fetch_and_op in a lock_all epoch hands out each previous value once") {
    const auto ctx = world();
    const int n = ctx.size();
    device_window<std::int64_t> w(ctx, 1, 0);
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
    if (ctx.rank() == 0) CHECK(w.block.read()[0] == n);
  }

  TEST_CASE("get_accumulate returns the old elements; no_op reads atomically") {
    const auto ctx = world();
    device_window<std::int64_t> w(ctx, 2, 0);
    w.block.write({10, 20});
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
    REQUIRE(dtl::rma::fetch_and_op(target, slot(1), std::int64_t{0}, read, dtl::rma_reduce_op::no_op, w.window)
                .has_value());
    REQUIRE(w.window.fence().has_value());
    if (ctx.rank() == 0) {
      CHECK(old[0] == 10);
      CHECK(old[1] == 20);
    }
    CHECK(read == 27);
    if (ctx.rank() == target) CHECK(w.block.read()[0] == 15);
  }

  TEST_CASE("compare_and_swap: exactly one rank wins the slot") {
    const auto ctx = world();
    device_window<std::int64_t> w(ctx, 1, 0);
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
      CHECK(w.block.read()[0] == winner + 1);
    }
  }

  TEST_CASE("exclusive locks serialise a read-modify-write through IPC") {
    const auto ctx = world();
    const int n = ctx.size();
    device_window<std::int64_t> w(ctx, 1, 0);
    REQUIRE(ctx.barrier().has_value());
    for (int round = 0; round < 5; ++round) {
      REQUIRE(w.window.lock(0, dtl::rma_lock_mode::exclusive).has_value());
      std::int64_t v = 0;
      REQUIRE(dtl::rma::get(0, 0, v, w.window).has_value());
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

  TEST_CASE("bad input: a status on the caller before the device is touched") {
    const auto ctx = world();
    device_window<std::int64_t> w(ctx, 4, 7);
    REQUIRE(w.window.fence().has_value());
    const std::int64_t one = 1;
    // Past the target's bytes, and an atomic at an offset that splits its element.
    CHECK(dtl::rma::put(0, slot(4), one, w.window).error() == dtl::status_code::out_of_range);
    CHECK(w.window.accumulate(&one, sizeof one, 0, slot(3) + 4, dtl::rma_reduce_op::sum).error() ==
          dtl::status_code::out_of_range);
    const auto misaligned =
        w.window.accumulate(&one, sizeof one, 0, 4, dtl::rma_reduce_op::sum, dtl::rma_datatype::i64);
    CHECK(misaligned.error() == dtl::status_code::invalid_argument);
    const double half = 0.5;
    CHECK(w.window.accumulate(&half, sizeof half, 0, 0, dtl::rma_reduce_op::bxor, dtl::rma_datatype::f64).error() ==
          dtl::status_code::invalid_argument);
    REQUIRE(w.window.fence().has_value());
    CHECK(w.block.read() == std::vector<std::int64_t>(4, 7));  // nothing was written

    // Without a context there are no GPU resources to reach the other ranks' blocks.
    CHECK(dtl::memory_window::create(w.block.get(), w.block.bytes()).error() == dtl::status_code::not_supported);
  }

  TEST_CASE("ranks that pass device memory and ranks that pass host memory: refused on every rank") {
    const auto ctx = world();
    if (ctx.size() < 2) return;
    device_block<std::int64_t> device(ctx, 2, 0);
    std::vector<std::int64_t> host(2, 0);
    const bool on_device = ctx.rank() == 0;
    auto w = dtl::memory_window::create(ctx, on_device ? static_cast<void*>(device.get()) : host.data(),
                                        2 * sizeof(std::int64_t));
    REQUIRE_FALSE(w.has_value());
    CHECK(w.error() == dtl::status_code::invalid_argument);
    MESSAGE(w.error().to_string());
  }
}
