// SPDX-License-Identifier: MIT
// The gather, scatter and all-to-all collectives on device buffers, blocking and ordered on a stream, on
// the path DTL_COLLECTIVES selects (one rank: self, or a one-rank RCCL/NCCL communicator, or MPI staged;
// two ranks sharing a GPU: the MPI paths). Results against the same serial reference as the host test.
#include "collectives_reference.hpp"
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/hip/device.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace collectives_reference;

/// Device memory of `count` elements on `device`, filled from the host.
template <class T>
class device_buffer {
 public:
  device_buffer(int device, const std::vector<T>& init) : device_(device), count_(init.size()) {
    int before = 0;
    REQUIRE(hipGetDevice(&before) == hipSuccess);
    REQUIRE(hipSetDevice(device) == hipSuccess);
    REQUIRE(hipMalloc(&data_, std::max<std::size_t>(count_, 1) * sizeof(T)) == hipSuccess);
    REQUIRE(hipSetDevice(before) == hipSuccess);
    copy_in(init);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    int before = 0;
    if (hipGetDevice(&before) != hipSuccess) return;
    static_cast<void>(hipSetDevice(device_));
    static_cast<void>(hipFree(data_));
    static_cast<void>(hipSetDevice(before));
  }
  T* get() const noexcept { return data_; }
  void copy_in(const std::vector<T>& from) {
    REQUIRE(from.size() == count_);
    REQUIRE(
        dtl::hip::hip_memory_transfer::copy(data_, from.data(), count_ * sizeof(T), dtl::transfer_kind::host_to_device)
            .has_value());
  }
  std::vector<T> read() const {
    std::vector<T> out(count_);
    REQUIRE(
        dtl::hip::hip_memory_transfer::copy(out.data(), data_, count_ * sizeof(T), dtl::transfer_kind::device_to_host)
            .has_value());
    return out;
  }

 private:
  int device_;
  std::size_t count_;
  T* data_ = nullptr;
};

/// This rank's part of the uneven all-to-all (scaled by `scale`): its counts, displacements with gaps,
/// its send data, and what it must receive.
struct uneven_exchange {
  counts send_counts, send_displs, recv_counts, recv_displs;
  std::vector<std::int64_t> send, expected;

  uneven_exchange(int p, int me, std::size_t scale) {
    const auto n = static_cast<std::size_t>(p);
    send_counts.resize(n);
    recv_counts.resize(n);
    for (int q = 0; q < p; ++q) {
      send_counts[static_cast<std::size_t>(q)] = count_between(me, q) * scale;
      recv_counts[static_cast<std::size_t>(q)] = count_between(q, me) * scale;
    }
    send.assign(lay_out(send_counts, ranks_in_order(p, true), 1, send_displs), untouched);
    expected.assign(lay_out(recv_counts, ranks_in_order(p, false), 2, recv_displs), untouched);
    for (int q = 0; q < p; ++q) {
      const auto i = static_cast<std::size_t>(q);
      for (std::size_t k = 0; k < send_counts[i]; ++k) send[send_displs[i] + k] = value_of(me, q, k);
      for (std::size_t k = 0; k < recv_counts[i]; ++k) expected[recv_displs[i] + k] = value_of(q, me, k);
    }
  }
};

dtl::hip::hip_stream stream_of(const dtl::context& ctx) {
  return dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
      .value();
}

}  // namespace

TEST_SUITE("gpu.collectives") {
  TEST_CASE("the path") {
    const auto ctx = test_support::world();
    if (ctx.rank() == 0)
      std::printf("device collectives: %s (%s)\n",
                  std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                  ctx.device_collective_reason().c_str());
    CHECK(ctx.has_device());
  }

  TEST_CASE("alltoallv on device buffers: uneven, zero counts, gaps left alone; blocking and on a stream") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), me = ctx.rank();
    // 37 elements (296 bytes) per unit, and about 1 MiB per peer.
    for (const std::size_t scale : {std::size_t{1}, std::size_t{3600}}) {
      CAPTURE(scale);
      uneven_exchange x(p, me, scale);
      device_buffer<std::int64_t> send(ctx.device(), x.send);
      device_buffer<std::int64_t> recv(ctx.device(), std::vector<std::int64_t>(x.expected.size(), untouched));
      REQUIRE(ctx.alltoallv(send.get(), x.send_counts, x.send_displs, recv.get(), x.recv_counts, x.recv_displs)
                  .has_value());
      CHECK(recv.read() == x.expected);

      recv.copy_in(std::vector<std::int64_t>(x.expected.size(), untouched));
      auto stream = stream_of(ctx);
      REQUIRE(ctx.alltoallv(send.get(), x.send_counts, x.send_displs, recv.get(), x.recv_counts, x.recv_displs, stream)
                  .get_result(std::chrono::seconds(60))
                  .has_value());
      REQUIRE(stream.synchronize().has_value());
      CHECK(recv.read() == x.expected);
    }
  }

  TEST_CASE("alltoall on device buffers, blocking and on a stream") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    const std::size_t each = (std::size_t{1} << 18) + 5;  // about 1 MiB of int32 per peer
    std::vector<std::int32_t> host(n * each), expected(n * each);
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t i = 0; i < each; ++i) {
        host[q * each + i] =
            static_cast<std::int32_t>(static_cast<std::size_t>(me) * 10'000'000 + q * 1'000'000 + i % 1000);
        expected[q * each + i] =
            static_cast<std::int32_t>(q * 10'000'000 + static_cast<std::size_t>(me) * 1'000'000 + i % 1000);
      }
    device_buffer<std::int32_t> send(ctx.device(), host);
    device_buffer<std::int32_t> recv(ctx.device(), std::vector<std::int32_t>(n * each, -1));
    REQUIRE(ctx.alltoall(send.get(), recv.get(), each).has_value());
    CHECK(recv.read() == expected);
    recv.copy_in(std::vector<std::int32_t>(n * each, -1));
    auto stream = stream_of(ctx);
    REQUIRE(ctx.alltoall(send.get(), recv.get(), each, stream).get_result(std::chrono::seconds(60)).has_value());
    REQUIRE(stream.synchronize().has_value());
    CHECK(recv.read() == expected);
  }

  TEST_CASE("gather, scatter, gatherv, scatterv and allgatherv on device buffers") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), me = ctx.rank(), root = p - 1;
    const auto n = static_cast<std::size_t>(p);
    const bool is_root = me == root;
    counts sizes(n);
    for (int q = 0; q < p; ++q) sizes[static_cast<std::size_t>(q)] = count_between(q, root) + 1;
    counts displs;
    const std::size_t extent = lay_out(sizes, ranks_in_order(p, true), 3, displs);
    const std::size_t count = sizes[static_cast<std::size_t>(me)];
    std::vector<std::int64_t> mine(count), expected(extent, untouched);
    for (std::size_t i = 0; i < count; ++i) mine[i] = value_of(me, root, i);
    for (int q = 0; q < p; ++q)
      for (std::size_t i = 0; i < sizes[static_cast<std::size_t>(q)]; ++i)
        expected[displs[static_cast<std::size_t>(q)] + i] = value_of(q, root, i);
    device_buffer<std::int64_t> d_mine(ctx.device(), mine);
    device_buffer<std::int64_t> d_all(ctx.device(), std::vector<std::int64_t>(extent, untouched));

    REQUIRE(ctx.gatherv(d_mine.get(), count, d_all.get(), sizes, displs, root).has_value());
    if (is_root) CHECK(d_all.read() == expected);
    device_buffer<std::int64_t> d_back(ctx.device(), std::vector<std::int64_t>(count, untouched));
    device_buffer<std::int64_t> d_source(ctx.device(), expected);
    REQUIRE(ctx.scatterv(d_source.get(), sizes, displs, d_back.get(), count, root).has_value());
    CHECK(d_back.read() == mine);
    d_all.copy_in(std::vector<std::int64_t>(extent, untouched));
    REQUIRE(ctx.allgatherv(d_mine.get(), count, d_all.get(), sizes, displs).has_value());
    CHECK(d_all.read() == expected);

    // Equal counts: gather to the root, scatter back.
    const std::size_t each = 1000;
    std::vector<float> part(each), whole(n * each);
    for (std::size_t i = 0; i < each; ++i) part[i] = static_cast<float>(me) + 0.5f * static_cast<float>(i % 7);
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t i = 0; i < each; ++i)
        whole[q * each + i] = static_cast<float>(q) + 0.5f * static_cast<float>(i % 7);
    device_buffer<float> d_part(ctx.device(), part);
    device_buffer<float> d_whole(ctx.device(), std::vector<float>(n * each, -1.0f));
    REQUIRE(ctx.gather(d_part.get(), d_whole.get(), each, root).has_value());
    if (is_root) CHECK(d_whole.read() == whole);
    d_part.copy_in(std::vector<float>(each, -1.0f));
    d_whole.copy_in(whole);
    REQUIRE(ctx.scatter(d_whole.get(), d_part.get(), each, root).has_value());
    CHECK(d_part.read() == part);
  }

  TEST_CASE("a rank that moves nothing may pass no buffers: it follows the others' device path") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    // Rank 0 is silent; every other pair exchanges 1000 elements.
    const std::size_t each = 1000;
    counts sizes(n), displs(n);
    for (std::size_t q = 0; q < n; ++q) {
      sizes[q] = me == 0 || q == 0 ? 0 : each;
      displs[q] = q * each;
    }
    std::vector<std::int64_t> host(n * each, me), expected(n * each, untouched);
    for (std::size_t q = 1; q < n; ++q)
      if (me != 0)
        std::fill_n(expected.begin() + static_cast<std::ptrdiff_t>(q * each), each, static_cast<std::int64_t>(q));
    device_buffer<std::int64_t> send(ctx.device(), host);
    device_buffer<std::int64_t> recv(ctx.device(), std::vector<std::int64_t>(n * each, untouched));
    const bool silent = me == 0;
    REQUIRE(ctx.alltoallv(silent ? nullptr : send.get(), sizes, displs, silent ? nullptr : recv.get(), sizes, displs)
                .has_value());
    if (!silent) CHECK(recv.read() == expected);
    // gatherv to the last rank, with rank 0 giving nothing.
    const int root = p - 1;
    counts root_sizes(n, each);
    root_sizes[0] = 0;
    recv.copy_in(std::vector<std::int64_t>(n * each, untouched));
    REQUIRE(ctx.gatherv(silent ? nullptr : send.get(), silent ? 0 : each, recv.get(), root_sizes, displs, root)
                .has_value());
    if (me == root && !silent)
      CHECK(recv.read() == [&] {
        std::vector<std::int64_t> all(n * each, untouched);
        for (std::size_t q = 1; q < n; ++q)
          std::fill_n(all.begin() + static_cast<std::ptrdiff_t>(q * each), each, static_cast<std::int64_t>(q));
        return all;
      }());
    CHECK(ctx.allreduce_value(1, dtl::reduce_op::sum).value() == p);
  }

  TEST_CASE("bad input on device buffers: one status on every rank") {
    const auto ctx = test_support::world();
    const int p = ctx.size(), me = ctx.rank();
    const auto n = static_cast<std::size_t>(p);
    device_buffer<int> send(ctx.device(), std::vector<int>(4 * n, me));
    device_buffer<int> recv(ctx.device(), std::vector<int>(4 * n, -1));
    counts ones(n, 1), at(n);
    for (std::size_t q = 0; q < n; ++q) at[q] = 2 * q;
    const auto same_everywhere = [&](const dtl::result<void>& r) {
      REQUIRE_FALSE(r.has_value());
      test_support::same_code_everywhere(ctx, r.error());
      test_support::still_in_step(ctx);
    };
    counts recv_counts = ones;
    if (me == p - 1) recv_counts[0] = 2;
    same_everywhere(ctx.alltoallv(send.get(), ones, at, recv.get(), recv_counts, at));
    auto stream = stream_of(ctx);
    same_everywhere(
        ctx.alltoallv(send.get(), ones, at, recv.get(), recv_counts, at, stream).get_result(std::chrono::seconds(60)));
    // A host buffer with a device buffer.
    std::vector<int> host(4 * n);
    same_everywhere(ctx.alltoall(me == 0 ? host.data() : send.get(), recv.get(), 1));
    // Scans take host buffers.
    const auto scanned = ctx.scan(send.get(), recv.get(), 1, dtl::reduce_op::sum);
    same_everywhere(scanned);
    CHECK(scanned.error() == dtl::status_code::invalid_argument);
    // A buffer of another device (where there is one).
    const int devices = dtl::hip::device_count();
    if (devices > 1) {
      device_buffer<int> elsewhere(ctx.device() == 0 ? 1 : 0, std::vector<int>(4 * n, me));
      const auto r = ctx.alltoall(elsewhere.get(), recv.get(), 1);
      same_everywhere(r);
      CHECK(r.error() == dtl::status_code::invalid_argument);
    }
  }
}
