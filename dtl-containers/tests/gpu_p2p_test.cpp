// SPDX-License-Identifier: MIT
// Point-to-point on device buffers (run on 1 rank, on each path DTL_COLLECTIVES forces, and on 2 ranks
// sharing a GPU): device to device, device to host and back, stream-ordered forms, and bad input giving
// the same status on every rank of a ring (each receive returns its own failure or its sender's).
// Payloads are checked against a serial reference.
#include "test_environment.hpp"

#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_stream.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

std::int32_t value(int from, int to, int tag, std::size_t i) {
  return static_cast<std::int32_t>((from * 7919 + to * 104729 + tag * 31) ^ static_cast<int>(i * 40503u));
}
std::vector<std::int32_t> message(int from, int to, int tag, std::size_t n) {
  std::vector<std::int32_t> m(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = value(from, to, tag, i);
  return m;
}

/// Device memory of `n` int32 on the context's device.
class device_buffer {
 public:
  device_buffer(int device, std::size_t n) : space_(device), n_(n) {
    data_ = static_cast<std::int32_t*>(space_.allocate(bytes()).value());
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { space_.deallocate(data_, bytes()); }
  [[nodiscard]] std::int32_t* get() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return n_ * sizeof(std::int32_t); }
  void put(const std::vector<std::int32_t>& host) {
    REQUIRE(dtl::hip::hip_memory_transfer::copy(data_, host.data(), bytes(), dtl::transfer_kind::host_to_device)
                .has_value());
  }
  [[nodiscard]] std::vector<std::int32_t> read() const {
    std::vector<std::int32_t> host(n_);
    REQUIRE(dtl::hip::hip_memory_transfer::copy(host.data(), data_, bytes(), dtl::transfer_kind::device_to_host)
                .has_value());
    return host;
  }

 private:
  dtl::hip::hip_memory_space space_;
  std::size_t n_;
  std::int32_t* data_ = nullptr;
};

dtl::status status_of(const dtl::result<void>& r) { return r ? dtl::status{} : r.error(); }

/// So that the RCCL/NCCL path has its communicator (made by the first device collective).
void first_device_collective(const dtl::context& ctx) {
  device_buffer one(ctx.device(), 1);
  one.put({1});
  REQUIRE(ctx.allreduce(one.get(), one.get(), 1, dtl::reduce_op::sum).has_value());
  CHECK(one.read()[0] == ctx.size());
}

}  // namespace

TEST_SUITE("gpu.p2p") {
  TEST_CASE("device buffers around a ring: sendrecv, requests, stream-ordered") {
    const auto ctx = test_support::world();
    REQUIRE(ctx.has_device());
    if (ctx.rank() == 0)
      std::printf("device collectives: %s (%s)\n",
                  std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                  ctx.device_collective_reason().c_str());
    first_device_collective(ctx);
    const int p = ctx.size(), r = ctx.rank(), right = (r + 1) % p, left = (r + p - 1) % p;
    const std::size_t n = (std::size_t{1} << 20) + 7;  // 4 MiB and a bit
    device_buffer out(ctx.device(), n), in(ctx.device(), n);
    out.put(message(r, right, 1, n));
    in.put(std::vector<std::int32_t>(n, -1));
    REQUIRE(ctx.sendrecv(out.get(), n, right, in.get(), n, left, 1).has_value());
    CHECK(in.read() == message(left, r, 1, n));

    // Requests (always MPI for device buffers), waited in the other order.
    in.put(std::vector<std::int32_t>(n, -1));
    auto s = ctx.isend(out.get(), n, right, 2).value();
    auto g = ctx.irecv(in.get(), n, left, 2).value();
    REQUIRE(s.wait().has_value());
    REQUIRE(g.wait().has_value());
    CHECK(in.read() == message(left, r, 1, n));

    // Stream-ordered: the payload is written on the stream before the call, read after it.
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
            .value();
    const auto next = message(r, right, 3, n);
    REQUIRE(dtl::hip::hip_memory_transfer::copy_async(out.get(), next.data(), out.bytes(),
                                                      dtl::transfer_kind::host_to_device, stream)
                .has_value());
    REQUIRE(ctx.sendrecv(out.get(), n, right, in.get(), n, left, 3, stream)
                .get_result(std::chrono::seconds(60))
                .has_value());
    REQUIRE(stream.synchronize().has_value());
    CHECK(in.read() == message(left, r, 3, n));
  }

  TEST_CASE("send and recv of device buffers between pairs, blocking and stream-ordered") {
    const auto ctx = test_support::world();
    first_device_collective(ctx);
    const int r = ctx.rank();
    const std::size_t n = 100003;
    device_buffer buf(ctx.device(), n);
    if (ctx.size() == 1) {  // with oneself: the non-blocking forms
      device_buffer other(ctx.device(), n);
      buf.put(message(0, 0, 4, n));
      auto g = ctx.irecv(other.get(), n, 0, 4).value();
      auto s = ctx.isend(buf.get(), n, 0, 4).value();
      REQUIRE(g.wait().has_value());
      REQUIRE(s.wait().has_value());
      CHECK(other.read() == message(0, 0, 4, n));
      return;
    }
    const int peer = r ^ 1;
    if (peer >= ctx.size()) return;
    auto stream =
        dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
            .value();
    if (r % 2 == 0) {
      buf.put(message(r, peer, 4, n));
      REQUIRE(ctx.send(buf.get(), n, peer, 4).has_value());
      REQUIRE(ctx.send(buf.get(), n, peer, 5, stream).get_result(std::chrono::seconds(60)).has_value());
    } else {
      REQUIRE(ctx.recv(buf.get(), n, peer, 4).has_value());
      CHECK(buf.read() == message(peer, r, 4, n));
      buf.put(std::vector<std::int32_t>(n, 0));
      REQUIRE(ctx.recv(buf.get(), n, peer, 5, stream).get_result(std::chrono::seconds(60)).has_value());
      REQUIRE(stream.synchronize().has_value());
      CHECK(buf.read() == message(peer, r, 4, n));
    }
  }

  TEST_CASE("device to host and host to device (each side stages its own)") {
    const auto ctx = test_support::world();
    first_device_collective(ctx);
    const int p = ctx.size(), r = ctx.rank(), right = (r + 1) % p, left = (r + p - 1) % p;
    const std::size_t n = 65537;
    device_buffer d(ctx.device(), n);
    d.put(message(r, right, 6, n));
    std::vector<std::int32_t> host(n, -1);
    REQUIRE(ctx.sendrecv(d.get(), n, right, host.data(), n, left, 6).has_value());  // device out, host in
    CHECK(host == message(left, r, 6, n));
    const auto back = message(r, right, 7, n);
    d.put(std::vector<std::int32_t>(n, -1));
    REQUIRE(ctx.sendrecv(back.data(), n, right, d.get(), n, left, 7).has_value());  // host out, device in
    CHECK(d.read() == message(left, r, 7, n));
  }

  TEST_CASE("bad input on device buffers: the same status on both ranks") {
    const auto ctx = test_support::world();
    first_device_collective(ctx);
    const int p = ctx.size(), r = ctx.rank(), right = (r + 1) % p, left = (r + p - 1) % p;
    device_buffer out(ctx.device(), 64), in(ctx.device(), 64);
    // Every rank sends 64 and expects 63: every receive fails (its own check; the sends pass), and with
    // it every rank's sendrecv.
    const dtl::status mine = status_of(ctx.sendrecv(out.get(), 64, right, in.get(), 63, left, 8));
    CHECK(mine.code() == dtl::status_code::invalid_argument);
    const std::uint64_t code = static_cast<std::uint64_t>(mine.code());
    std::vector<std::uint64_t> codes(static_cast<std::size_t>(p));
    REQUIRE(ctx.allgather(&code, codes.data(), 1).has_value());
    for (std::uint64_t c : codes) CHECK(c == code);
    // A clean exchange afterwards.
    out.put(message(r, right, 9, 64));
    REQUIRE(ctx.sendrecv(out.get(), 64, right, in.get(), 64, left, 9).has_value());
    CHECK(in.read() == message(left, r, 9, 64));
    // A device buffer of another device than the context's (where there is one): every send fails, and
    // its receiver returns the sender's failure.
    if (dtl::hip::device_count() > 1) {
      device_buffer elsewhere((ctx.device() + 1) % dtl::hip::device_count(), 64);
      const dtl::status wrong = status_of(ctx.sendrecv(elsewhere.get(), 64, right, in.get(), 64, left, 10));
      CHECK(wrong.code() == dtl::status_code::invalid_argument);
      const std::uint64_t w = static_cast<std::uint64_t>(wrong.code());
      REQUIRE(ctx.allgather(&w, codes.data(), 1).has_value());
      for (std::uint64_t c : codes) CHECK(c == w);
    }
  }
}
