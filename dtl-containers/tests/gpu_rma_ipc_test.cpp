// SPDX-License-Identifier: MIT
// dtl::memory_window and dtl::rma over device memory of ranks sharing a GPU (1, 2 and 3 ranks): the cases of
// rma_cases.hpp on device blocks (put and get through HIP IPC, the atomics as device kernels on the mapped
// blocks, exclusive locks), and the bad input a device window refuses.
#include "rma_cases.hpp"
#include "test_environment.hpp"

#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/rma/rma.hpp>

#include <cstddef>
#include <cstdint>
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

}  // namespace

TEST_SUITE("gpu.rma_ipc") {
  TEST_CASE("put and get between fences reach every rank's device block") {
    rma_cases::put_and_get_between_fences<device_block>(world());
  }
  TEST_CASE("accumulate combines every rank's contribution on the device, as the element type") {
    rma_cases::accumulate_combines<device_block>(world());
  }
  TEST_CASE("fetch_and_op in a lock_all epoch hands out each previous value once") {
    rma_cases::fetch_and_op_hands_out_each_value_once<device_block>(world());
  }
  TEST_CASE("get_accumulate returns the old elements; no_op reads atomically") {
    rma_cases::get_accumulate_returns_the_old_elements<device_block>(world());
  }
  TEST_CASE("compare_and_swap: exactly one rank wins the slot") {
    rma_cases::compare_and_swap_has_one_winner<device_block>(world());
  }
  TEST_CASE("exclusive locks serialise a read-modify-write through IPC") {
    rma_cases::exclusive_locks_serialise<device_block>(world());
  }
  TEST_CASE("bad input: a status on the caller before the device is touched") {
    const auto ctx = world();
    rma_cases::window_over<device_block, std::int64_t> w(ctx, 4, 7);
    REQUIRE(w.window.fence().has_value());
    const std::int64_t one = 1;
    // Past the target's bytes, and an atomic at an offset that splits its element.
    CHECK(dtl::rma::put(0, rma_cases::slot(4), one, w.window).error() == dtl::status_code::out_of_range);
    CHECK(w.window.accumulate(&one, sizeof one, 0, rma_cases::slot(3) + 4, dtl::rma_reduce_op::sum).error() ==
          dtl::status_code::out_of_range);
    const auto misaligned =
        w.window.accumulate(&one, sizeof one, 0, 4, dtl::rma_reduce_op::sum, dtl::rma_datatype::i64);
    CHECK(misaligned.error() == dtl::status_code::invalid_argument);
    const double half = 0.5;
    CHECK(w.window.accumulate(&half, sizeof half, 0, 0, dtl::rma_reduce_op::bxor, dtl::rma_datatype::f64).error() ==
          dtl::status_code::invalid_argument);
    REQUIRE(w.window.fence().has_value());
    CHECK(w.region.read() == std::vector<std::int64_t>(4, 7));  // nothing was written

    // Without a context there are no GPU resources to reach the other ranks' blocks.
    CHECK(dtl::memory_window::create(w.region.get(), w.region.bytes()).error() == dtl::status_code::not_supported);
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
