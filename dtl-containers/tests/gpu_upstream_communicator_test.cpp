// SPDX-License-Identifier: MIT
// Upstream DTL's communicator on device buffers (1 rank, and 2 ranks sharing GPU 0): the collectives,
// the reductions and point-to-point take device pointers of the context's device, since the
// communicator runs on dtl::context. Results are checked against a serial reference.
#include "test_environment.hpp"

#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

int contribution(int from, std::size_t i) { return from * 1000 + static_cast<int>(i) * 7 + 3; }

/// `n` elements of T in device memory of `device`.
template <class T>
class device_array {
 public:
  device_array(int device, std::size_t n) : space_(device), n_(n) {
    data_ = static_cast<T*>(space_.allocate(bytes() == 0 ? 1 : bytes()).value());
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { space_.deallocate(data_, bytes() == 0 ? 1 : bytes()); }
  [[nodiscard]] T* get() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return n_ * sizeof(T); }
  void put(const std::vector<T>& host) {
    REQUIRE(host.size() == n_);
    REQUIRE(dtl::hip::hip_memory_transfer::copy(data_, host.data(), bytes(), dtl::transfer_kind::host_to_device)
                .has_value());
  }
  [[nodiscard]] std::vector<T> read() const {
    std::vector<T> host(n_);
    REQUIRE(dtl::hip::hip_memory_transfer::copy(host.data(), data_, bytes(), dtl::transfer_kind::device_to_host)
                .has_value());
    return host;
  }

 private:
  dtl::hip::hip_memory_space space_;
  std::size_t n_;
  T* data_ = nullptr;
};

}  // namespace

TEST_SUITE("gpu.upstream_communicator") {
  TEST_CASE("collectives and reductions on device buffers") {
    auto ctx = test_support::world();
    REQUIRE(ctx.has_device());
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank(), dev = ctx.device();
    const auto n = static_cast<std::size_t>(p);
    if (me == 0)
      std::printf("device collectives: %s (%s)\n",
                  std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                  ctx.device_collective_reason().c_str());

    // allreduce_sum (doubles) and allreduce_max_int, in place and not.
    device_array<double> d(dev, 3);
    d.put({1.0 * me, 2.0, -1.0 * me});
    comm.allreduce_sum(d.get(), d.get(), 3);
    CHECK(d.read() == std::vector<double>{p * (p - 1) / 2.0, 2.0 * p, -p * (p - 1) / 2.0});
    device_array<int> i(dev, 2), imax(dev, 2);
    i.put({me, -me});
    comm.allreduce_max_int(i.get(), imax.get(), 2);
    CHECK(imax.read() == std::vector<int>{p - 1, 0});

    // broadcast, gather, scatter from every root (bytes).
    for (int root = 0; root < p; ++root) {
      device_array<int> b(dev, 4);
      std::vector<int> want(4);
      for (std::size_t k = 0; k < 4; ++k) want[k] = contribution(root, k);
      b.put(me == root ? want : std::vector<int>(4, -1));
      comm.broadcast(b.get(), b.bytes(), root);
      CHECK(b.read() == want);

      device_array<int> mine(dev, 2), all(dev, 2 * n);
      mine.put({contribution(me, 0), contribution(me, 1)});
      all.put(std::vector<int>(2 * n, -1));
      comm.gather(mine.get(), all.get(), 2 * sizeof(int), root);
      if (me == root) {
        std::vector<int> expected(2 * n);
        for (int r = 0; r < p; ++r)
          for (std::size_t k = 0; k < 2; ++k) expected[2 * static_cast<std::size_t>(r) + k] = contribution(r, k);
        CHECK(all.read() == expected);
        all.put(expected);  // scatter it back
      }
      mine.put({-1, -1});
      comm.scatter(all.get(), mine.get(), 2 * sizeof(int), root);
      CHECK(mine.read() == std::vector<int>{contribution(me, 0), contribution(me, 1)});

      device_array<double> s(dev, 1), at_root(dev, 1);
      s.put({me + 1.0});
      at_root.put({-1.0});
      comm.reduce_sum(s.get(), at_root.get(), 1, root);
      if (me == root) CHECK(at_root.read()[0] == p * (p + 1) / 2.0);
    }

    // allgather and alltoall.
    device_array<std::int64_t> one(dev, 1), every(dev, n);
    one.put({static_cast<std::int64_t>(me) * 11});
    comm.allgather(one.get(), every.get(), sizeof(std::int64_t));
    std::vector<std::int64_t> gathered(n);
    for (int r = 0; r < p; ++r) gathered[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(r) * 11;
    CHECK(every.read() == gathered);
    device_array<int> to(dev, n), from(dev, n);
    std::vector<int> out(n), want(n);
    for (int r = 0; r < p; ++r) {
      out[static_cast<std::size_t>(r)] = me * 100 + r;
      want[static_cast<std::size_t>(r)] = r * 100 + me;
    }
    to.put(out);
    comm.alltoall(to.get(), from.get(), sizeof(int));
    CHECK(from.read() == want);
    comm.barrier();
  }

  TEST_CASE("with_hip(d): a context on d, whose hip_domain names it and has a stream") {
    auto world = test_support::world();
    REQUIRE(world.has_device());
    auto ctx = world.with_hip(world.device());
    CHECK(ctx.device() == world.device());
    CHECK(ctx.size() == world.size());
    auto& hip = ctx.get<dtl::hip_domain>();
    CHECK(hip.valid());
    CHECK(hip.device_id() == world.device());
    hipStream_t stream = hip.stream();
    REQUIRE(stream != nullptr);
    CHECK(hip.stream() == stream);  // one stream per domain
    // On NVIDIA upstream's cuda_domain is this domain; elsewhere no context has one.
    static_assert(dtl::context::has<dtl::cuda_domain>() == dtl::hip::on_nvidia);
    static_assert(std::is_same_v<dtl::cuda_domain, dtl::hip_domain> == dtl::hip::on_nvidia);
    // Work ordered on the domain's stream, then a reduction through the new context's communicator.
    device_array<long> x(ctx.device(), 2);
    const std::vector<long> mine = {ctx.rank() + 1L, 5L};
    REQUIRE(dtl::hip::hip_memory_transfer::copy_async(x.get(), mine.data(), x.bytes(),
                                                      dtl::transfer_kind::host_to_device, dtl::hip::stream_ref(stream))
                .has_value());
    hip.synchronize();
    const int p = ctx.size();
    ctx.get<dtl::mpi_domain>().communicator().allreduce_sum_long(x.get(), x.get(), 2);
    CHECK(x.read() == std::vector<long>{p * (p + 1L) / 2, 5L * p});
  }

  TEST_CASE("point-to-point on device buffers: a ring, requests with waitany, device to host") {
    auto ctx = test_support::world();
    REQUIRE(ctx.has_device());
    auto& comm = ctx.get<dtl::mpi_domain>().communicator();
    const int p = comm.size(), me = comm.rank(), dev = ctx.device();
    const dtl::rank_t next = (me + 1) % p, prev = (me + p - 1) % p;
    const std::size_t n = 4099;
    auto message = [n](int from) {
      std::vector<float> m(n);
      for (std::size_t k = 0; k < n; ++k) m[k] = static_cast<float>(from) + 0.5f * static_cast<float>(k % 64);
      return m;
    };
    {  // so that the RCCL/NCCL path has its communicator (its first device collective makes it)
      device_array<int> x(dev, 1);
      x.put({1});
      comm.allreduce_sum_int(x.get(), x.get(), 1);
      CHECK(x.read()[0] == p);
    }

    device_array<float> out(dev, n), in(dev, n);
    out.put(message(me));
    if (p > 1) {  // blocking, in upstream's odd/even order
      in.put(std::vector<float>(n, -1.0f));
      if (me % 2 == 0) {
        comm.send(out.get(), out.bytes(), next, 1);
        comm.recv(in.get(), in.bytes(), prev, 1);
      } else {
        comm.recv(in.get(), in.bytes(), prev, 1);
        comm.send(out.get(), out.bytes(), next, 1);
      }
      CHECK(in.read() == message(prev));
    }

    in.put(std::vector<float>(n, -1.0f));
    std::vector<float> host_in(n, -1.0f);
    const std::vector<float> host_out = message(me + 50);
    dtl::request_handle set[4] = {comm.irecv(in.get(), in.bytes(), prev, 2),
                                  comm.isend(out.get(), out.bytes(), next, 2),
                                  comm.irecv(host_in.data(), n * sizeof(float), prev, 3),  // device to host
                                  comm.isend(out.get(), out.bytes(), next, 3)};
    std::vector<int> seen(4, 0);
    for (int k = 0; k < 4; ++k) ++seen[comm.waitany(set, 4)];
    CHECK(seen == std::vector<int>(4, 1));
    CHECK(in.read() == message(prev));
    CHECK(host_in == message(prev));

    // Host to device, waited in turn.
    in.put(std::vector<float>(n, -1.0f));
    dtl::request_handle r = comm.irecv(in.get(), in.bytes(), prev, 4);
    dtl::request_handle s = comm.isend(host_out.data(), n * sizeof(float), next, 4);
    comm.wait(s);
    comm.wait(r);
    CHECK(in.read() == message(prev + 50));
  }
}
