// SPDX-License-Identifier: MIT
// One-sided access to device blocks of ranks on this node through HIP IPC (2 and 3 ranks sharing a GPU):
// global_view get/put and remote_ref on device vectors (the default space, a caching pool, a block
// behind ghosts), and the device window itself (a block inside a larger allocation, host and device
// buffers on the caller's side, the range checks, release). Values are checked against the owners'.
#include "test_environment.hpp"

#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/hip/hip_memory_space.hpp>
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace {

std::int64_t pattern(std::size_t i) { return static_cast<std::int64_t>(i) * 3 + 1; }
std::int64_t written_by(int rank, std::size_t i) { return 1000000 * (rank + 1) + static_cast<std::int64_t>(i); }

/// Every rank sets its elements to pattern(i), reads every element of the vector through a global_view,
/// then writes the elements of the next rank; each rank finds its block as the previous rank wrote it.
template <class Vector>
void check_every_rank_reaches_every_block(Vector& v) {
  const dtl::context& ctx = v.get_context();
  const int me = ctx.rank(), ranks = ctx.size();
  std::vector<std::int64_t> mine(v.local_size());
  for (std::size_t k = 0; k < mine.size(); ++k) mine[k] = pattern(v.global_offset() + k);
  REQUIRE(v.copy_from_host(mine.data(), mine.size()).has_value());
  auto g = v.global_view();
  REQUIRE(ctx.barrier().has_value());

  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    const auto got = g[i].get();
    REQUIRE(got.has_value());
    CHECK(*got == pattern(i));
  }
  REQUIRE(ctx.barrier().has_value());  // every read is done before anything is overwritten

  const int next = (me + 1) % ranks;
  const dtl::index_range theirs = v.partition().local_range(next).value();
  for (std::size_t i = theirs.begin; i < theirs.end; ++i) {
    const dtl::remote_ref<std::int64_t> ref = g[i];
    CHECK(ref.owner().value() == next);
    REQUIRE(ref.put(written_by(me, i)).has_value());
    CHECK(ref.get().value() == written_by(me, i));  // read back through the same mapping
  }
  REQUIRE(ctx.barrier().has_value());

  const int prev = (me + ranks - 1) % ranks;
  std::vector<std::int64_t> now(v.local_size());
  REQUIRE(v.copy_to_host(now.data(), now.size()).has_value());
  for (std::size_t k = 0; k < now.size(); ++k) CHECK(now[k] == written_by(prev, v.global_offset() + k));

  // Past the end: refused before any memory is reached.
  CHECK(g[v.size()].get().error() == dtl::status_code::out_of_range);
  CHECK(g[v.size()].put(1).error() == dtl::status_code::out_of_range);
  REQUIRE(ctx.barrier().has_value());
}

/// Device memory of `count` int64 on `device`, zeroed.
class device_block {
 public:
  device_block(int device, std::size_t count) : space_(device), bytes_(count * sizeof(std::int64_t)) {
    data_ = static_cast<std::int64_t*>(space_.allocate(bytes_).value());
    const std::vector<std::int64_t> zeros(count, 0);
    write(0, zeros);
  }
  device_block(const device_block&) = delete;
  device_block& operator=(const device_block&) = delete;
  ~device_block() { space_.deallocate(data_, bytes_); }
  [[nodiscard]] std::int64_t* get() const noexcept { return data_; }
  void write(std::size_t at, const std::vector<std::int64_t>& values) {
    REQUIRE(dtl::hip::hip_memory_transfer::copy(data_ + at, values.data(), values.size() * sizeof(std::int64_t),
                                                dtl::transfer_kind::host_to_device)
                .has_value());
  }
  [[nodiscard]] std::vector<std::int64_t> read(std::size_t at, std::size_t count) const {
    std::vector<std::int64_t> values(count);
    REQUIRE(dtl::hip::hip_memory_transfer::copy(values.data(), data_ + at, count * sizeof(std::int64_t),
                                                dtl::transfer_kind::device_to_host)
                .has_value());
    return values;
  }

 private:
  dtl::hip::hip_memory_space space_;
  std::size_t bytes_;
  std::int64_t* data_ = nullptr;
};

std::vector<std::int64_t> values_of(int rank, std::size_t count) {
  std::vector<std::int64_t> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = written_by(rank, i);
  return v;
}

}  // namespace

TEST_SUITE("gpu.global_view_ipc") {
  TEST_CASE("global_view and remote_ref reach the device blocks of every rank on this node") {
    const auto ctx = test_support::world();
    REQUIRE(ctx.size() >= 2);
    const std::size_t n = 10 * static_cast<std::size_t>(ctx.size()) + 3;
    SUBCASE("the placement's own space") {
      dtl::distributed_vector<std::int64_t, dtl::device_only_runtime> v(n, ctx);
      check_every_rank_reaches_every_block(v);
    }
    SUBCASE("a caching pool") {
      dtl::hip::pool_options options;
      options.backing = dtl::hip::pool_backing::caching;
      options.device = ctx.device();
      auto pool = std::make_shared<dtl::hip::hip_pool_memory_space>(options);
      auto v = dtl::distributed_vector<std::int64_t, dtl::device_only_runtime>::create(n, ctx, pool);
      REQUIRE(v.has_value());
      check_every_rank_reaches_every_block(*v);
    }
    SUBCASE("a block behind ghosts (not at its allocation's start)") {
      dtl::distributed_vector<std::int64_t, dtl::device_only_runtime> v(n, ctx, dtl::halo{2, 3});
      check_every_rank_reaches_every_block(v);
    }
  }

  TEST_CASE("the device window: host and device buffers, the ranges it refuses, release") {
    const auto ctx = test_support::world();
    const int me = ctx.rank(), ranks = ctx.size(), next = (me + 1) % ranks;
    constexpr std::size_t lead = 16, exposed = 64, total = lead + exposed + 16;
    constexpr std::size_t word = sizeof(std::int64_t);
    device_block block(ctx.device(), total);
    block.write(lead, values_of(me, exposed));
    // Each rank exposes the middle of its allocation: the block's offset travels with its handle.
    auto opened = dtl::detail::open_device_window(ctx, ctx.device(), block.get() + lead, exposed * word);
    REQUIRE(opened.has_value());
    const std::shared_ptr<dtl::detail::window> w = *opened;

    std::vector<std::int64_t> host(exposed, -1);
    REQUIRE(w->get(next, 0, host.data(), exposed * word).ok());
    CHECK(host == values_of(next, exposed));

    device_block into(ctx.device(), exposed);  // device to device
    REQUIRE(w->get(next, 8 * word, into.get(), 4 * word).ok());
    const std::vector<std::int64_t> four = into.read(0, 4);
    CHECK(four == std::vector<std::int64_t>(host.begin() + 8, host.begin() + 12));

    const std::int64_t mark = -7 - me;
    REQUIRE(w->put(next, (exposed - 1) * word, &mark, word).ok());  // the last exposed element

    // Outside the owner's block, or no such owner: refused, nothing touched.
    CHECK(w->get(next, (exposed - 1) * word, host.data(), 2 * word).code() == dtl::status_code::out_of_range);
    CHECK(w->put(next, exposed * word, &mark, word).code() == dtl::status_code::out_of_range);
    CHECK(w->get(next, 0, host.data(), (exposed + 1) * word).code() == dtl::status_code::out_of_range);
    CHECK(w->get(ranks, 0, host.data(), word).code() == dtl::status_code::invalid_rank);
    CHECK(w->get(-1, 0, host.data(), word).code() == dtl::status_code::invalid_rank);
    REQUIRE(ctx.barrier().has_value());

    const int prev = (me + ranks - 1) % ranks;
    std::vector<std::int64_t> expect = values_of(me, exposed);
    expect.back() = -7 - prev;
    CHECK(block.read(lead, exposed) == expect);
    CHECK(block.read(0, lead) == std::vector<std::int64_t>(lead, 0));  // around it: untouched
    CHECK(block.read(lead + exposed, total - lead - exposed) == std::vector<std::int64_t>(total - lead - exposed, 0));

    w->release();  // collective
    CHECK(w->get(next, 0, host.data(), word).code() == dtl::status_code::invalid_state);
  }
}
