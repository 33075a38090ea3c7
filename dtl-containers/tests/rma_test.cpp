// SPDX-License-Identifier: MIT
// dtl::memory_window and dtl::rma (upstream's one-sided API) on 1, 2 and 3 MPI ranks, and over a single
// process (make_cpu_context): the cases of rma_cases.hpp on host memory (put, get, the atomics, locks), fence
// and lock epochs, flushes and the scoped guards, each against what the ranks compute serially; and every bad
// input giving its status on the caller, with the bytes around the window untouched.
#include "rma_cases.hpp"
#include "test_environment.hpp"

#include <backends/mpi/mpi_lifecycle.hpp>
#include <backends/mpi/mpi_window.hpp>
#include <dtl/containers/communication/domains.hpp>
#include <dtl/containers/remote_ref.hpp>
#include <dtl/rma/rma.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

namespace {

dtl::context world() { return test_support::environment()->make_world_context(); }

template <class T>
dtl::status status_of(const dtl::result<T>& r) {
  return r ? dtl::status{} : r.error();
}

using rma_cases::everyones;
using rma_cases::slot;

/// A window over `slots` int64 of every rank, each slot -1.
struct int_window {
  std::vector<std::int64_t> data;
  dtl::memory_window window;
  int_window(const dtl::context& ctx, std::size_t slots) : data(slots, -1) {
    auto w = dtl::memory_window::create(ctx, data.data(), slots * sizeof(std::int64_t));
    REQUIRE(w.has_value());
    window = std::move(*w);
  }
};

}  // namespace

TEST_SUITE("mpi.rma") {
  TEST_CASE("put and get between fences reach the ranks they name") {
    rma_cases::put_and_get_between_fences<rma_cases::host_region>(world());
  }
  TEST_CASE("the window made without a context spans the world") {
    const auto ctx = world();
    std::int32_t mine = -1;
    auto w = dtl::memory_window::create(&mine, sizeof mine);
    REQUIRE(w.has_value());
    REQUIRE(w->fence().has_value());
    REQUIRE(dtl::rma::put((ctx.rank() + 1) % ctx.size(), 0, std::int32_t{ctx.rank()}, *w).has_value());
    REQUIRE(w->fence().has_value());
    CHECK(mine == (ctx.rank() + ctx.size() - 1) % ctx.size());
  }

  TEST_CASE("allocate: zeroed bytes that the window owns") {
    const auto ctx = world();
    auto w = dtl::memory_window::allocate(ctx, 64);
    REQUIRE(w.has_value());
    REQUIRE(w->base() != nullptr);
    CHECK(w->size() == 64u);
    std::vector<unsigned char> bytes(64, 1);
    std::memcpy(bytes.data(), w->base(), 64);
    CHECK(std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == 0; }));
    auto empty = dtl::memory_window::allocate(ctx, 0);
    REQUIRE(empty.has_value());
    CHECK(empty->size() == 0u);
  }

  TEST_CASE("accumulate combines every rank's contribution, as the element type") {
    rma_cases::accumulate_combines<rma_cases::host_region>(world());
  }
  TEST_CASE("fetch_and_op in a lock_all epoch hands out each previous value once") {
    rma_cases::fetch_and_op_hands_out_each_value_once<rma_cases::host_region>(world());
  }
  TEST_CASE("get_accumulate returns the old elements; no_op reads atomically") {
    rma_cases::get_accumulate_returns_the_old_elements<rma_cases::host_region>(world());
  }
  TEST_CASE("compare_and_swap: exactly one rank wins the slot") {
    rma_cases::compare_and_swap_has_one_winner<rma_cases::host_region>(world());
  }
  TEST_CASE("exclusive locks serialise read-modify-write; shared locks read together") {
    rma_cases::exclusive_locks_serialise<rma_cases::host_region>(world());
  }
  TEST_CASE("lock_all with flush, flush_local and their all-rank forms") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    int_window w(ctx, 2);
    REQUIRE(ctx.barrier().has_value());
    REQUIRE(w.window.lock_all().has_value());
    const int next = (me + 1) % n;
    REQUIRE(dtl::rma::put(next, 0, std::int64_t{me}, w.window).has_value());
    REQUIRE(dtl::rma::flush(next, w.window).has_value());
    REQUIRE(dtl::rma::put(next, slot(1), std::int64_t{me + 10}, w.window).has_value());
    REQUIRE(dtl::rma::flush_local(next, w.window).has_value());
    REQUIRE(dtl::rma::flush_local_all(w.window).has_value());
    REQUIRE(dtl::rma::flush_all(w.window).has_value());
    REQUIRE(w.window.unlock_all().has_value());
    REQUIRE(ctx.barrier().has_value());
    const int prev = (me + n - 1) % n;
    CHECK(w.data[0] == prev);
    CHECK(w.data[1] == prev + 10);
  }

  TEST_CASE("an async get in a passive-target epoch is complete when it returns") {
    const auto ctx = world();
    int_window w(ctx, 1);
    w.data[0] = 7 * ctx.rank();
    REQUIRE(ctx.barrier().has_value());
    const int target = ctx.size() - 1;
    REQUIRE(w.window.lock(target, dtl::rma_lock_mode::shared).has_value());
    std::int64_t v = 0;
    auto request = dtl::rma::get_async(target, 0, &v, sizeof v, w.window);
    REQUIRE(request.has_value());
    CHECK(v == 7 * target);
    REQUIRE(w.window.unlock(target).has_value());
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("async_put and async_get, stepped by the progress engine, in each kind of epoch") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    int_window w(ctx, 3);
    REQUIRE(ctx.barrier().has_value());
    // Outside any epoch: the access takes its own lock of the target.
    const std::int64_t mine[1] = {me};
    dtl::rma::async_put<std::int64_t> put(next, 0, std::span<const std::int64_t>(mine), w.window);
    CHECK_FALSE(put.ready());  // nothing happens before the engine is polled
    REQUIRE(put.get_result().has_value());
    CHECK(put.ready());
    CHECK(w.window.access_epoch(next) == dtl::rma_access_epoch::none);
    REQUIRE(ctx.barrier().has_value());
    CHECK(w.data[0] == prev);
    // In a passive-target epoch: issued, then flushed.
    REQUIRE(w.window.lock_all().has_value());
    std::int64_t got[1] = {-5};
    auto get = dtl::rma::async_get_from<std::int64_t>(prev, 0, std::span<std::int64_t>(got), w.window);
    auto filled = get.get_result();
    REQUIRE(filled.has_value());
    CHECK((*filled)[0] == (prev + n - 1) % n);
    REQUIRE(w.window.unlock_all().has_value());
    // In a fence epoch: the bytes arrive at the closing fence.
    REQUIRE(w.window.fence().has_value());
    const std::int64_t tagged[1] = {100 + me};
    auto fenced = dtl::rma::async_put_to<std::int64_t>(next, slot(1), std::span<const std::int64_t>(tagged), w.window);
    REQUIRE(fenced.get_result().has_value());
    REQUIRE(w.window.fence().has_value());
    CHECK(w.data[1] == 100 + prev);
    // A bad target fails the access, not the program.
    dtl::rma::async_put<std::int64_t> bad(n, 0, std::span<const std::int64_t>(mine), w.window);
    CHECK(status_of(bad.get_result()).code() == dtl::status_code::invalid_rank);
  }

  TEST_CASE("rma_remote_ref and the single-value requests reach the owner") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    int_window w(ctx, 2);
    w.data[1] = 1000 + me;
    REQUIRE(ctx.barrier().has_value());
    auto ref = dtl::rma::make_rma_ref_indexed<std::int64_t>(next, 0, w.window, me);
    CHECK(ref.is_remote() == (n > 1));
    REQUIRE(ref.put(std::int64_t{me}).has_value());
    const dtl::rma::rma_remote_ref<const std::int64_t> read(next, slot(1), w.window, me);
    auto value = read.get();
    REQUIRE(value.has_value());
    CHECK(*value == 1000 + next);
    REQUIRE(ctx.barrier().has_value());
    CHECK(w.data[0] == prev);
    REQUIRE(w.window.lock(next, dtl::rma_lock_mode::shared).has_value());
    dtl::rma::async_get_request<std::int64_t> request(next, slot(1), w.window.get_impl());
    auto requested = request.get();
    REQUIRE(requested.has_value());
    CHECK(*requested == 1000 + next);
    REQUIRE(w.window.unlock(next).has_value());
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("a small origin may go as soon as the call returns: the access moves the bytes it had then") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    int_window w(ctx, 3);
    REQUIRE(w.window.fence().has_value());
    {
      std::int64_t value = 10 + me;  // upstream's examples put a local that is gone by the fence
      REQUIRE(dtl::rma::put(next, slot(0), value, w.window).has_value());
      value = -7;
      REQUIRE(dtl::rma::accumulate(next, slot(1), std::int64_t{5}, dtl::rma_reduce_op::replace, w.window).has_value());
    }
    REQUIRE(w.window.fence().has_value());
    CHECK(w.data[0] == 10 + prev);
    CHECK(w.data[1] == 5);
    REQUIRE(ctx.barrier().has_value());
    REQUIRE(w.window.lock(next, dtl::rma_lock_mode::exclusive).has_value());
    std::int64_t old = 0;
    {
      std::int64_t desired = 100 + me, expected = -1;
      REQUIRE(w.window.compare_and_swap(&desired, &expected, &old, sizeof desired, next, slot(2)).has_value());
      desired = expected = 0;
    }
    REQUIRE(w.window.unlock(next).has_value());
    CHECK(old == -1);
    REQUIRE(ctx.barrier().has_value());
    CHECK(w.data[2] == 100 + prev);
  }

  TEST_CASE("upstream's mpi_window: a remote_ref through it reads and writes the owner, complete on return") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    dtl::mpi::mpi_comm_adapter comm(ctx);
    CHECK(&comm.underlying() == &comm);
    std::vector<std::int64_t> data{100 + me, -1};
    auto made = dtl::mpi::mpi_window::create(data.data(), data.size() * sizeof(std::int64_t), comm.underlying());
    REQUIRE(made.has_value());
    dtl::mpi::mpi_window window = std::move(*made);
    dtl::mpi::mpi_window_impl impl(window);
    CHECK(impl.valid());
    CHECK(impl.size() == 2 * sizeof(std::int64_t));
    dtl::remote_ref<std::int64_t> first(next, 0, nullptr, &impl, 0), second(next, 1, nullptr, &impl, slot(1));
    CHECK(first.has_window());
    // Outside an epoch the window refuses (invalid_state), and the ref says so.
    CHECK(status_of(first.get()).code() == dtl::status_code::invalid_state);
    // In a fence epoch the ref refuses too: its access would complete only at the next fence.
    REQUIRE(impl.fence().has_value());
    CHECK(status_of(first.get()).code() == dtl::status_code::invalid_state);
    CHECK(status_of(second.put(std::int64_t{me})).code() == dtl::status_code::invalid_state);
    REQUIRE(impl.fence().has_value());
    // In a passive-target epoch the value is there when get() returns; put()'s copy may go at once.
    REQUIRE(impl.lock_all().has_value());
    auto value = first.get();
    REQUIRE(value.has_value());
    CHECK(*value == 100 + next);
    REQUIRE(second.put(std::int64_t{me}).has_value());
    auto later = second.async_get();
    REQUIRE(later.is_ready());
    CHECK(later.get_result().value() == me);
    // An offset near SIZE_MAX: out_of_range before MPI, nothing written.
    dtl::remote_ref<std::int64_t> far(next, 0, nullptr, &impl, std::numeric_limits<dtl::size_type>::max() - 3);
    CHECK(status_of(far.get()).code() == dtl::status_code::out_of_range);
    CHECK(status_of(far.put(std::int64_t{1})).code() == dtl::status_code::out_of_range);
    REQUIRE(impl.unlock_all().has_value());
    REQUIRE(ctx.barrier().has_value());
    CHECK(data == std::vector<std::int64_t>{100 + me, prev});
    // A moved-from window: its impl gives invalid_state.
    dtl::mpi::mpi_window gone = std::move(window);
    CHECK(status_of(impl.fence()).code() == dtl::status_code::invalid_state);
    CHECK_FALSE(impl.valid());
  }

  TEST_CASE("the scoped epochs: fence_guard, lock_guard, rma_batch, with_lock_epoch") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    int_window w(ctx, 3);
    {
      dtl::rma::fence_guard epoch(w.window);
      REQUIRE(epoch.valid());
      REQUIRE(dtl::rma::put((me + 1) % n, 0, std::int64_t{me}, w.window).has_value());
    }
    CHECK(w.data[0] == (me + n - 1) % n);
    REQUIRE(ctx.barrier().has_value());
    {
      dtl::rma::rma_batch batch(w.window);
      REQUIRE(batch.put((me + 1) % n, slot(1), std::int64_t{me + 20}).has_value());
      CHECK(batch.operation_count() == 1u);
    }
    REQUIRE(ctx.barrier().has_value());
    CHECK(w.data[1] == (me + n - 1) % n + 20);
    auto added = dtl::rma::with_lock_epoch(0, w.window, dtl::rma_lock_mode::exclusive, [&] {
      return dtl::rma::accumulate(0, slot(2), std::int64_t{1}, dtl::rma_reduce_op::sum, w.window);
    });
    REQUIRE(added.has_value());
    {
      dtl::rma::lock_guard all(w.window);
      REQUIRE(all.locked());
      CHECK(all.is_all());
      REQUIRE(all.flush().has_value());
    }
    REQUIRE(ctx.barrier().has_value());
    if (me == 0) CHECK(w.data[2] == -1 + n);
  }

  TEST_CASE("bad input: a status on the caller, before MPI, and nothing written outside the window") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    // Slots 0..3 exposed, 4..7 a guard region that must stay -1.
    std::vector<std::int64_t> data(8, -1);
    auto w = dtl::memory_window::create(ctx, data.data(), 4 * sizeof(std::int64_t));
    REQUIRE(w.has_value());
    const std::int64_t v = 42;
    std::int64_t out = 0;
    using dtl::status_code;

    // Outside any epoch.
    CHECK(status_of(w->put(&v, sizeof v, 0, 0)).code() == status_code::invalid_state);
    CHECK(status_of(w->get(&out, sizeof out, 0, 0)).code() == status_code::invalid_state);
    CHECK(status_of(dtl::rma::accumulate(0, 0, v, dtl::rma_reduce_op::sum, *w)).code() == status_code::invalid_state);
    CHECK(status_of(w->flush(0)).code() == status_code::invalid_state);
    CHECK(status_of(w->flush_all()).code() == status_code::invalid_state);
    CHECK(status_of(w->unlock(0)).code() == status_code::invalid_state);
    CHECK(status_of(w->unlock_all()).code() == status_code::invalid_state);

    // Inside a lock of the next rank: a second lock, a lock_all, a fence, another target.
    const int next = (me + 1) % n;
    REQUIRE(w->lock(next, dtl::rma_lock_mode::shared).has_value());
    CHECK(status_of(w->lock(next, dtl::rma_lock_mode::exclusive)).code() == status_code::invalid_state);
    CHECK(status_of(w->lock_all()).code() == status_code::invalid_state);
    CHECK(status_of(w->fence()).code() == status_code::invalid_state);
    if (n > 1) CHECK(status_of(w->put(&v, sizeof v, me, 0)).code() == status_code::invalid_state);
    // Past the target's region, out of the ranks, null buffers, shapes the atomics refuse.
    CHECK(status_of(w->put(&v, sizeof v, next, slot(4))).code() == status_code::out_of_range);
    CHECK(status_of(w->put(data.data(), slot(2), next, slot(3))).code() == status_code::out_of_range);
    CHECK(status_of(w->get(&out, sizeof out, next, ~std::size_t{0} - 2)).code() == status_code::out_of_range);
    CHECK(status_of(dtl::rma::accumulate(next, slot(4), v, dtl::rma_reduce_op::sum, *w)).code() ==
          status_code::out_of_range);
    for (const int bad : {n, -1, n + 5}) {
      CHECK(status_of(w->put(&v, sizeof v, bad, 0)).code() == status_code::invalid_rank);
      CHECK(status_of(w->lock(bad)).code() == status_code::invalid_rank);
      CHECK(status_of(w->flush(bad)).code() == status_code::invalid_rank);
    }
    CHECK(status_of(w->put(nullptr, 8, next, 0)).code() == status_code::invalid_argument);
    const char three[3] = {};
    char three_out[3] = {};
    CHECK(status_of(w->compare_and_swap(three, three, three_out, 3, next, 0)).code() == status_code::invalid_argument);
    CHECK(status_of(dtl::rma::accumulate(next, 0, 1.0, dtl::rma_reduce_op::bxor, *w)).code() ==
          status_code::invalid_argument);
    REQUIRE(w->unlock(next).has_value());

    // A fence epoch with an access must be closed before a lock; a lock_all refuses a fence.
    REQUIRE(w->fence().has_value());
    REQUIRE(w->get(&out, sizeof out, next, 0).has_value());
    CHECK(status_of(w->lock(next)).code() == status_code::invalid_state);
    CHECK(status_of(w->lock_all()).code() == status_code::invalid_state);
    REQUIRE(w->fence().has_value());
    REQUIRE(w->lock_all().has_value());
    CHECK(status_of(w->lock(next)).code() == status_code::invalid_state);
    CHECK(status_of(w->lock_all()).code() == status_code::invalid_state);
    REQUIRE(w->unlock_all().has_value());

    REQUIRE(ctx.barrier().has_value());
    for (std::size_t i = 4; i < 8; ++i) CHECK(data[i] == -1);

    // An empty window, and a window over a null base.
    dtl::memory_window none;
    CHECK(status_of(none.fence()).code() == status_code::invalid_state);
    CHECK(status_of(none.put(&v, sizeof v, 0, 0)).code() == status_code::invalid_state);
    auto null_base = dtl::memory_window::create(ctx, nullptr, 8);
    REQUIRE_FALSE(null_base.has_value());
    CHECK(null_base.error().code() == status_code::invalid_argument);
  }

  TEST_CASE("a fence that one rank refuses is refused on every rank, never left waiting") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    int_window w(ctx, 1);
    REQUIRE(ctx.barrier().has_value());
    // Rank 0 still holds a lock of the next rank when every rank fences.
    if (me == 0) REQUIRE(w.window.lock((me + 1) % n, dtl::rma_lock_mode::shared).has_value());
    const dtl::status refused = status_of(w.window.fence());
    CHECK(refused.code() == dtl::status_code::invalid_state);
    if (me == 0) REQUIRE(w.window.unlock((me + 1) % n).has_value());
    REQUIRE(w.window.fence().has_value());
    REQUIRE(dtl::rma::put((me + 1) % n, 0, std::int64_t{me}, w.window).has_value());
    REQUIRE(w.window.fence().has_value());
    CHECK(w.data[0] == (me + n - 1) % n);
  }

  TEST_CASE("a rank that calls another collective than the window's creation: a status on every rank") {
    const auto ctx = world();
    if (ctx.size() < 2) return;
    std::int64_t slot_of_mine = 0;
    dtl::mpi::mpi_comm_adapter comm(ctx);
    if (ctx.rank() == 0) {
      auto made = dtl::mpi::mpi_window::create(&slot_of_mine, sizeof slot_of_mine, comm);
      REQUIRE_FALSE(made.has_value());
      CHECK(made.error().code() == dtl::status_code::invalid_argument);
    } else {
      auto barrier = ctx.barrier();
      REQUIRE_FALSE(barrier.has_value());
      CHECK(barrier.error().code() == dtl::status_code::invalid_argument);
    }
    REQUIRE(ctx.barrier().has_value());  // the context still pairs its ranks' calls
  }

  TEST_CASE("ranks exposing different sizes: each target's own size bounds its accesses") {
    const auto ctx = world();
    const int n = ctx.size(), me = ctx.rank();
    // Rank r exposes r slots (rank 0 none).
    std::vector<std::int64_t> data(static_cast<std::size_t>(me) + 1, -1);
    auto w = dtl::memory_window::create(ctx, data.data(), slot(static_cast<std::size_t>(me)));
    REQUIRE(w.has_value());
    CHECK(w->size() == slot(static_cast<std::size_t>(me)));
    REQUIRE(w->fence().has_value());
    const std::int64_t v = me;
    CHECK(status_of(w->put(&v, sizeof v, 0, 0)).code() == dtl::status_code::out_of_range);
    const int last = n - 1;
    if (me < last) {
      REQUIRE(w->put(&v, sizeof v, last, slot(static_cast<std::size_t>(me))).has_value());
      CHECK(status_of(w->put(&v, sizeof v, last, slot(static_cast<std::size_t>(last)))).code() ==
            dtl::status_code::out_of_range);
    }
    REQUIRE(w->fence().has_value());
    if (me == last)
      for (int from = 0; from < last; ++from) CHECK(data[static_cast<std::size_t>(from)] == from);
    CHECK(data[static_cast<std::size_t>(me)] == -1);  // the slot past each rank's region
  }
}

TEST_SUITE("rma") {
  TEST_CASE("null_window_impl: upstream's window of one process, each access a copy, every check upstream's") {
    std::vector<std::int32_t> data{1, 2, 3, 4};
    dtl::null_window_impl w(data.data(), data.size() * sizeof(std::int32_t), false);
    CHECK(w.valid());
    CHECK(w.native_handle() == nullptr);
    std::int32_t v = 10, got = 0, old = 0;
    REQUIRE(w.put(&v, sizeof v, 0, 0).has_value());  // no epoch needed
    REQUIRE(w.get(&got, sizeof got, 0, 4).has_value());
    CHECK(got == 2);
    const std::int32_t five = -5, three = 3;
    REQUIRE(w.typed_accumulate(&five, nullptr, 4, 0, 8, dtl::rma_reduce_op::sum, dtl::rma_datatype::i32).has_value());
    REQUIRE(w.typed_accumulate(&three, &old, 4, 0, 12, dtl::rma_reduce_op::prod, dtl::rma_datatype::i32).has_value());
    CHECK(old == 4);
    const std::int32_t expected = 2, desired = 20;
    REQUIRE(w.compare_and_swap(&desired, &expected, &old, 4, 0, 4).has_value());
    CHECK(old == 2);
    CHECK(data == std::vector<std::int32_t>{10, 20, -2, 12});
    const std::uint8_t one = 1;
    std::uint8_t before = 0;
    REQUIRE(w.fetch_and_op(&one, &before, 1, 0, 0, dtl::rma_reduce_op::sum).has_value());  // bytes: u8
    CHECK(before == 10);
    CHECK(data[0] == 11);
    // Upstream's checks, in its order, and nothing written outside the window.
    CHECK(status_of(w.put(nullptr, 4, 0, 0)).code() == dtl::status_code::invalid_argument);
    CHECK(status_of(w.put(&v, sizeof v, 1, 0)).code() == dtl::status_code::invalid_rank);
    CHECK(status_of(w.get(&got, sizeof got, 0, 13)).code() == dtl::status_code::out_of_range);
    constexpr auto huge = std::numeric_limits<dtl::size_type>::max();  // offset + bytes would wrap
    CHECK(status_of(w.put(&v, huge, 0, 0)).code() == dtl::status_code::out_of_range);
    CHECK(status_of(w.get(&got, sizeof got, 0, huge - 1)).code() == dtl::status_code::out_of_range);
    CHECK(status_of(w.typed_accumulate(&v, nullptr, 4, 0, huge - 2, dtl::rma_reduce_op::sum, dtl::rma_datatype::i32))
              .code() == dtl::status_code::out_of_range);
    CHECK(status_of(w.fetch_and_op(&one, nullptr, 1, 0, 0, dtl::rma_reduce_op::sum)).code() ==
          dtl::status_code::invalid_argument);
    CHECK(status_of(w.compare_and_swap(&desired, &expected, &old, 3, 0, 0)).code() ==
          dtl::status_code::invalid_argument);
    const double x = 1.0;
    CHECK(status_of(w.typed_accumulate(&x, nullptr, 8, 0, 0, dtl::rma_reduce_op::bor, dtl::rma_datatype::f64)).code() ==
          dtl::status_code::invalid_argument);
    CHECK(data == std::vector<std::int32_t>{11, 20, -2, 12});
    // A null base: an invalid window; owns_memory frees what it was given.
    dtl::null_window_impl none(nullptr, 16, false);
    CHECK_FALSE(none.valid());
    CHECK(status_of(none.get(&got, sizeof got, 0, 0)).code() == dtl::status_code::invalid_state);
    dtl::null_window_impl owning(::operator new(8), 8, true);
    REQUIRE(owning.put(&v, sizeof v, 0, 4).has_value());
    // A remote_ref through it: its element on "another rank", reached at rank 0 of the window.
    dtl::remote_ref<std::int32_t> ref(0, 3, nullptr, &w, 12);
    CHECK(ref.is_remote());
    REQUIRE(ref.put(std::int32_t{7}).has_value());
    CHECK(ref.get().value() == 7);
    CHECK(data[3] == 7);
  }

  TEST_CASE("without MPI, a window over no memory is an invalid one, as upstream's window of one process") {
    if (dtl::mpi::is_initialized()) return;  // the mpi suite's runs: a window spans the world there
    for (const bool allocated : {false, true}) {
      auto made = allocated ? dtl::memory_window::allocate(0) : dtl::memory_window::create(nullptr, 0);
      REQUIRE(made.has_value());
      CHECK_FALSE(made->valid());
      CHECK(made->base() == nullptr);
      CHECK(made->size() == 0u);
      CHECK(status_of(made->fence()).code() == dtl::status_code::invalid_state);
    }
    CHECK(status_of(dtl::memory_window::create(nullptr, 8)).code() == dtl::status_code::invalid_argument);
    std::int32_t one = 1;
    auto w = dtl::memory_window::create(&one, sizeof one);
    REQUIRE(w.has_value());
    CHECK(w->valid());
  }

  TEST_CASE("a single-process window: every operation on local memory") {
    const auto ctx = dtl::make_cpu_context();
    std::vector<std::int32_t> data{1, 2, 3, 4};
    auto w = dtl::memory_window::create(ctx, data.data(), data.size() * sizeof(std::int32_t));
    REQUIRE(w.has_value());
    CHECK(w->native_handle() == nullptr);
    CHECK(status_of(w->put(data.data(), 4, 0, 0)).code() == dtl::status_code::invalid_state);
    REQUIRE(w->fence().has_value());
    REQUIRE(dtl::rma::put(0, 0, std::int32_t{10}, *w).has_value());
    std::int32_t got = 0, old = 0;
    REQUIRE(dtl::rma::get(0, 4, got, *w).has_value());
    CHECK(got == 2);
    REQUIRE(dtl::rma::accumulate(0, 8, std::int32_t{-5}, dtl::rma_reduce_op::sum, *w).has_value());
    REQUIRE(dtl::rma::fetch_and_op(0, 12, std::int32_t{3}, old, dtl::rma_reduce_op::prod, *w).has_value());
    CHECK(old == 4);
    REQUIRE(w->fence().has_value());
    REQUIRE(w->lock(0, dtl::rma_lock_mode::exclusive).has_value());
    REQUIRE(dtl::rma::compare_and_swap(0, 4, std::int32_t{2}, std::int32_t{20}, old, *w).has_value());
    CHECK(old == 2);
    REQUIRE(dtl::rma::compare_and_swap(0, 4, std::int32_t{2}, std::int32_t{30}, old, *w).has_value());
    CHECK(old == 20);
    REQUIRE(w->flush(0).has_value());
    REQUIRE(w->unlock(0).has_value());
    CHECK(data == std::vector<std::int32_t>{10, 20, -2, 12});
    REQUIRE(w->lock_all().has_value());
    CHECK(status_of(w->put(&got, sizeof got, 1, 0)).code() == dtl::status_code::invalid_rank);
    CHECK(status_of(w->put(&got, sizeof got, 0, 16)).code() == dtl::status_code::out_of_range);
    REQUIRE(w->unlock_all().has_value());
  }
}
