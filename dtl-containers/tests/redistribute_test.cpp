// SPDX-License-Identifier: MIT
// distributed_vector::redistribute() and resize() on host placements (run with 1, 2 and 3 ranks, and
// with DTL_MPI_MESSAGE_LIMIT small so that the moves go in pieces): the elements against a serial
// reference, the layout and owner() afterwards, algorithms on irregular layouts, and bad layouts giving
// one status on every rank and leaving the vector as it was.
#include "same_on_every_rank.hpp"
#include "test_environment.hpp"

#include <dtl/containers/algorithms.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/core/host_memory_space.hpp>

#include <cstdint>
#include <memory>
#include <numeric>
#include <string_view>
#include <vector>

namespace {

using sizes_t = std::vector<std::size_t>;
using vec_t = dtl::distributed_vector<std::int64_t>;

dtl::context world() { return test_support::world(); }

// Every element in global order, on every rank.
std::vector<std::int64_t> everything(const vec_t& v) {
  auto all = v.gather(0).value();
  std::size_t n = all.size();
  REQUIRE(v.get_context().broadcast(&n, 1, 0).has_value());
  all.resize(n);
  REQUIRE(v.get_context().broadcast(all.data(), n, 0).has_value());
  return all;
}

std::vector<std::int64_t> iota_ref(std::size_t n, std::int64_t first) {
  std::vector<std::int64_t> ref(n);
  std::iota(ref.begin(), ref.end(), first);
  return ref;
}

// The vector's blocks are `sizes`, in rank order, and owner() agrees with them.
void has_layout(const vec_t& v, const sizes_t& sizes) {
  REQUIRE(sizes.size() == static_cast<std::size_t>(v.num_ranks()));
  std::size_t begin = 0;
  for (int r = 0; r < v.num_ranks(); ++r) {
    const auto size = sizes[static_cast<std::size_t>(r)];
    CHECK(v.partition().local_range(r).value() == dtl::index_range{begin, begin + size});
    for (std::size_t i = begin; i < begin + size; ++i) REQUIRE(v.owner(i).value() == r);
    if (r == v.rank()) {
      CHECK(v.local_range() == dtl::index_range{begin, begin + size});
      CHECK(v.local_size() == size);
      CHECK(v.global_offset() == begin);
      CHECK(v.segmented_view().local().global_offset == begin);
      CHECK(v.segmented_view().local().size == size);
    }
    CHECK(v.segmented_view().at(r).size == size);
    begin += size;
  }
  CHECK(v.global_size() == begin);
  CHECK(v.owner(begin).error() == dtl::status_code::out_of_range);
}

sizes_t even_sizes(std::size_t n, int ranks) {
  const auto p = dtl::block_partition<>::create(n, ranks).value();
  sizes_t sizes;
  for (int r = 0; r < ranks; ++r) sizes.push_back(p.local_range(r).value().size());
  return sizes;
}

// Every rank got a failure with the code `expected`, and the same message.
void failed_everywhere(const dtl::context& ctx, const dtl::result<void>& r, dtl::status_code expected) {
  test_support::failed_everywhere(ctx, r);
  CHECK(r.error().code() == expected);
}

// Layouts worth trying on p ranks for n elements.
std::vector<sizes_t> layouts(std::size_t n, int p) {
  std::vector<sizes_t> out;
  for (int r = 0; r < p; ++r) {  // all on one rank
    sizes_t s(static_cast<std::size_t>(p), 0);
    s[static_cast<std::size_t>(r)] = n;
    out.push_back(s);
  }
  sizes_t skewed(static_cast<std::size_t>(p), 0);  // rank r gets about r + 1 parts, the last the rest
  std::size_t left = n;
  for (int r = 0; r + 1 < p; ++r) {
    const std::size_t take = std::min(left, n * static_cast<std::size_t>(r + 1) / static_cast<std::size_t>(p * 3));
    skewed[static_cast<std::size_t>(r)] = take;
    left -= take;
  }
  skewed.back() = left;
  out.push_back(skewed);
  sizes_t middle_empty = even_sizes(n, p);  // an empty rank in the middle (or the first)
  if (p > 1) {
    const std::size_t gone = middle_empty[static_cast<std::size_t>(p / 2)];
    middle_empty[static_cast<std::size_t>(p / 2)] = 0;
    middle_empty[0] += gone;
  }
  out.push_back(middle_empty);
  out.push_back(even_sizes(n, p));
  return out;
}

// Host memory that refuses allocations once `fail` is set (a rank out of memory).
class failing_space {
 public:
  static constexpr bool host_accessible = true;
  static constexpr bool device_accessible = false;
  bool fail = false;
  int allocations = 0;
  dtl::result<void*> allocate(std::size_t bytes) { return allocate(bytes, alignof(std::max_align_t)); }
  dtl::result<void*> allocate(std::size_t bytes, std::size_t alignment) {
    if (fail) return dtl::status(dtl::status_code::out_of_memory, "failing_space: no memory on this rank");
    ++allocations;
    return host_.allocate(bytes, alignment);
  }
  void deallocate(void* p, std::size_t bytes) noexcept { host_.deallocate(p, bytes); }
  [[nodiscard]] dtl::memory_space_properties properties() const noexcept { return host_.properties(); }
  [[nodiscard]] static constexpr std::string_view name() noexcept { return "failing"; }

 private:
  dtl::host_memory_space host_;
};
static_assert(dtl::MemorySpace<failing_space>);

}  // namespace

TEST_SUITE("mpi.redistribute") {
  TEST_CASE("redistribute: to every layout and back, elements in global order, owner() and views agree") {
    const auto ctx = world();
    const int p = ctx.size();
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{65537}}) {
      CAPTURE(n);
      vec_t v(n, ctx);
      REQUIRE(dtl::iota(v, std::int64_t{10}).has_value());
      const auto ref = iota_ref(n, 10);
      for (const sizes_t& sizes : layouts(n, p)) {
        REQUIRE(v.redistribute(sizes).has_value());
        has_layout(v, sizes);
        CHECK(everything(v) == ref);
        // Each rank's elements are its global indices' (read locally, no gather).
        bool local_ok = true;
        for (std::size_t i = 0; i < v.local_size(); ++i)
          local_ok = local_ok && v.local_view()[i] == static_cast<std::int64_t>(v.global_offset() + i) + 10;
        CHECK(local_ok);
      }
      REQUIRE(v.redistribute().has_value());  // back to the even block
      has_layout(v, even_sizes(n, p));
      CHECK_FALSE(v.partition().is_irregular());
      CHECK(everything(v) == ref);
    }
  }

  TEST_CASE("clone and gather of a redistributed vector keep its layout") {
    const auto ctx = world();
    for (const sizes_t& sizes : layouts(301, ctx.size())) {
      vec_t v(301, ctx);
      REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
      REQUIRE(v.redistribute(sizes).has_value());
      auto copy = v.clone();
      REQUIRE(copy.has_value());
      has_layout(*copy, sizes);
      CHECK(everything(*copy) == iota_ref(301, 0));
      REQUIRE(dtl::copy(v, *copy).has_value());  // the same layout: they meet in algorithms
    }
    vec_t h(40, ctx, dtl::halo{.prev = 1, .next = 1});
    REQUIRE(dtl::iota(h, std::int64_t{0}).has_value());
    REQUIRE(h.redistribute(layouts(40, ctx.size()).front()).has_value());
    auto copy = h.clone();
    REQUIRE(copy.has_value());
    has_layout(*copy, layouts(40, ctx.size()).front());
    CHECK(everything(*copy) == iota_ref(40, 0));
    REQUIRE(copy->halo().exchange().has_value());
  }

  TEST_CASE("redistribute to the layout the vector has moves nothing") {
    const auto ctx = world();
    vec_t v(100, ctx);
    REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
    const std::int64_t* before = v.local_data();
    REQUIRE(v.redistribute(v.partition()).has_value());
    REQUIRE(v.redistribute(even_sizes(100, ctx.size())).has_value());
    REQUIRE(v.redistribute().has_value());
    CHECK(v.local_data() == before);  // the same block, not a new one
    CHECK(everything(v) == iota_ref(100, 0));
    // From a partition made by from_sizes, too.
    const sizes_t sizes = layouts(100, ctx.size()).front();
    REQUIRE(v.redistribute(dtl::block_partition<>::from_sizes(sizes).value()).has_value());
    has_layout(v, sizes);
    const std::int64_t* irregular = v.local_data();
    REQUIRE(v.redistribute(sizes).has_value());
    CHECK(v.local_data() == irregular);
    CHECK(everything(v) == iota_ref(100, 0));
  }

  TEST_CASE("resize: grow, shrink, to 0 and from 0, with T{} or a value; the even block layout after") {
    const auto ctx = world();
    const int p = ctx.size();
    vec_t v(10, ctx);
    REQUIRE(dtl::iota(v, std::int64_t{1}).has_value());
    std::vector<std::int64_t> ref = iota_ref(10, 1);
    // Start from an irregular layout: resize keeps global order from any layout.
    REQUIRE(v.redistribute(layouts(10, p).front()).has_value());
    const auto step = [&](std::size_t n, const std::int64_t* value) {
      CAPTURE(n);
      if (value != nullptr)
        REQUIRE(v.resize(n, *value).has_value());
      else
        REQUIRE(v.resize(n).has_value());
      ref.resize(n, value != nullptr ? *value : 0);
      has_layout(v, even_sizes(n, p));
      CHECK(everything(v) == ref);
    };
    const std::int64_t seven = 7, minus = -3;
    step(25, nullptr);
    step(1000, &seven);
    step(999, nullptr);
    step(3, nullptr);
    step(3, &minus);  // the same size: nothing changes
    step(0, nullptr);
    step(0, &seven);
    step(17, &minus);
    step(1, nullptr);
    REQUIRE(v.clear().has_value());
    CHECK(v.global_size() == 0);
    CHECK(v.local_size() == 0);
    ref.clear();
    step(5, &seven);
  }

  TEST_CASE("algorithms on a redistributed vector against a serial reference") {
    const auto ctx = world();
    const int p = ctx.size();
    const std::size_t n = 4099;
    for (const sizes_t& sizes : layouts(n, p)) {
      vec_t v(n, ctx), w(n, ctx);
      REQUIRE(dtl::iota(v, std::int64_t{1}).has_value());
      REQUIRE(v.redistribute(sizes).has_value());
      REQUIRE(w.redistribute(sizes).has_value());
      const auto ref = iota_ref(n, 1);
      const auto N = static_cast<std::int64_t>(n);
      CHECK(dtl::reduce(v, std::int64_t{3}) == 3 + N * (N + 1) / 2);
      CHECK(dtl::reduce(dtl::par{}, v, std::int64_t{0}, dtl::reduce_max<std::int64_t>{}) == N);
      CHECK(dtl::count_if(v, [](std::int64_t x) { return x % 2 == 0; }) == n / 2);
      std::vector<std::int64_t> inc(n), exc(n);
      std::inclusive_scan(ref.begin(), ref.end(), inc.begin(), std::plus<>{}, std::int64_t{5});
      std::exclusive_scan(ref.begin(), ref.end(), exc.begin(), std::int64_t{5});
      REQUIRE(dtl::inclusive_scan(v, w, 5).has_value());
      CHECK(everything(w) == inc);
      REQUIRE(dtl::exclusive_scan(dtl::par{}, v, w, 5, std::plus<>{}).has_value());
      CHECK(everything(w) == exc);
      REQUIRE(dtl::transform(v, w, [](std::int64_t x) { return -2 * x; }).has_value());
      CHECK(dtl::reduce(w, std::int64_t{0}) == -(N * (N + 1)));
      REQUIRE(dtl::fill(w, std::int64_t{4}).has_value());
      CHECK(dtl::reduce(w, std::int64_t{0}) == 4 * N);
      REQUIRE(dtl::copy(v, w).has_value());
      CHECK(everything(w) == ref);
      // iota on the irregular layout numbers by global index.
      REQUIRE(dtl::iota(w, std::int64_t{-5}).has_value());
      CHECK(everything(w) == iota_ref(n, -5));
      // The sort keeps the layout; the search, the extremes and the dot product see it.
      REQUIRE(dtl::transform(v, w, [N](std::int64_t x) { return N + 1 - x; }).has_value());
      CHECK_FALSE(dtl::is_sorted(w));
      REQUIRE(dtl::sort(w).has_value());
      CHECK(w.local_size() == sizes[static_cast<std::size_t>(ctx.rank())]);
      CHECK(everything(w) == ref);
      CHECK(dtl::is_sorted(w));
      const auto middle = static_cast<std::int64_t>(n / 2);
      const auto hit = dtl::find(v, middle + 1);
      REQUIRE(hit.found);
      CHECK(hit.global_index == middle);
      CHECK(hit.owner_rank == v.owner(n / 2).value());
      const auto extremes = dtl::minmax_element(v);
      CHECK(extremes.min.value == 1);
      CHECK(extremes.min.owner_rank == v.owner(0).value());
      CHECK(extremes.max.value == N);
      CHECK(extremes.max.global_index == N - 1);
      CHECK(dtl::dot(v, v) == N * (N + 1) * (2 * N + 1) / 6);
    }
  }

  TEST_CASE("vectors with different layouts are refused on every rank") {
    const auto ctx = world();
    if (ctx.size() < 2) return;  // one rank has one layout per size
    vec_t v(50, ctx), w(50, ctx);
    REQUIRE(v.redistribute(layouts(50, ctx.size()).front()).has_value());
    const auto copied = dtl::copy(v, w);
    REQUIRE_FALSE(copied.has_value());
    CHECK(ctx.allreduce_value(copied.has_value() ? 1 : 0, dtl::reduce_op::max).value() == 0);
    const auto transformed = dtl::transform(v, w, [](std::int64_t x) { return x; });
    CHECK(ctx.allreduce_value(transformed.has_value() ? 1 : 0, dtl::reduce_op::max).value() == 0);
  }

  TEST_CASE("layouts whose blocks match on rank 0 only: dimension_mismatch on every rank, and no rank writes") {
    const auto ctx = world();
    const int p = ctx.size();
    if (p < 2) return;  // one rank has one layout per size
    constexpr std::size_t n = 30;
    // On 3 or more ranks rank 1 gives one element to the last rank: rank 0's block is the same in both
    // layouts (the algorithms used to run there alone). On 2 ranks a block that matches on rank 0
    // matches on both, so rank 0 gives one to rank 1: the blocks differ everywhere.
    sizes_t skewed = even_sizes(n, p);
    const std::size_t giver = p >= 3 ? 1 : 0;
    skewed[giver] -= 1;
    skewed.back() += 1;
    vec_t in(n, ctx), halo_in(n, ctx, dtl::halo{.prev = 1, .next = 1}), out(n, ctx);
    REQUIRE(dtl::iota(in, std::int64_t{0}).has_value());
    REQUIRE(dtl::iota(halo_in, std::int64_t{0}).has_value());
    REQUIRE(dtl::iota(out, std::int64_t{100}).has_value());
    REQUIRE(out.redistribute(skewed).has_value());
    if (p >= 3 && ctx.rank() == 0) CHECK(in.local_range() == out.local_range());
    // Collective checks only (no REQUIRE that one rank alone could leave): a rank that ran is counted.
    const auto mismatch = [&](const auto& r, dtl::status_code expected_code = dtl::status_code::dimension_mismatch) {
      CHECK(ctx.allreduce_value(r.has_value() ? 1 : 0, dtl::reduce_op::sum).value() == 0);
      const int code = r.has_value() ? 0 : static_cast<int>(r.error().code());
      const int expected = static_cast<int>(expected_code);
      CHECK(ctx.allreduce_value(code, dtl::reduce_op::min).value() == expected);
      CHECK(ctx.allreduce_value(code, dtl::reduce_op::max).value() == expected);
      CHECK(everything(out) == iota_ref(n, 100));
    };
    mismatch(dtl::transform(in, out, [](std::int64_t x) { return -x; }));
    mismatch(dtl::transform(dtl::par{}, in, out, [](std::int64_t x) { return -x; }));
    mismatch(dtl::transform(in, in, out, [](std::int64_t x, std::int64_t y) { return x + y; }));
    mismatch(dtl::copy(in, out), dtl::status_code::invalid_argument);  // upstream's code for copy
    mismatch(dtl::stencil_transform(halo_in, out, [](const std::int64_t* q) { return q[-1] + q[1]; }));
    mismatch(dtl::async_transform(in, out, [](std::int64_t x) { return -x; }).get_result());
    // The mismatched vector first, the way round the checks compare them.
    mismatch(dtl::copy(out, in), dtl::status_code::invalid_argument);
    CHECK(everything(in) == iota_ref(n, 0));
  }

  TEST_CASE("bad layouts: the same status on every rank, and the vector as it was") {
    const auto ctx = world();
    const int p = ctx.size();
    vec_t v(30, ctx);
    REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
    REQUIRE(v.redistribute(layouts(30, p).front()).has_value());
    const auto range = v.local_range();
    const std::int64_t* data = v.local_data();
    const auto unchanged = [&] {
      CHECK(v.local_range() == range);
      CHECK(v.local_data() == data);
      CHECK(v.global_size() == 30);
      CHECK(everything(v) == iota_ref(30, 0));
    };
    sizes_t wrong_sum = even_sizes(30, p);
    wrong_sum.back() += 1;
    failed_everywhere(ctx, v.redistribute(wrong_sum), dtl::status_code::invalid_argument);
    unchanged();
    wrong_sum.back() -= 2;
    failed_everywhere(ctx, v.redistribute(wrong_sum), dtl::status_code::invalid_argument);
    unchanged();
    sizes_t too_long = even_sizes(30, p);
    too_long.push_back(0);
    failed_everywhere(ctx, v.redistribute(too_long), dtl::status_code::invalid_argument);
    unchanged();
    failed_everywhere(ctx, v.redistribute(sizes_t{}), dtl::status_code::invalid_argument);
    unchanged();
    failed_everywhere(ctx, v.redistribute(dtl::block_partition<>::create(31, p).value()),
                      dtl::status_code::invalid_argument);
    unchanged();
    failed_everywhere(ctx, v.redistribute(dtl::block_partition<>::create(30, p + 1).value()),
                      dtl::status_code::invalid_argument);
    unchanged();
    if (p > 1) {
      // The ranks disagree: each one's sizes are valid, but not the same.
      sizes_t mine(static_cast<std::size_t>(p), 0);
      mine[static_cast<std::size_t>(ctx.rank())] = 30;
      failed_everywhere(ctx, v.redistribute(mine), dtl::status_code::invalid_argument);
      unchanged();
      // One rank's are also wrong.
      sizes_t odd = even_sizes(30, p);
      if (ctx.rank() == 1) odd[0] += 5;
      failed_everywhere(ctx, v.redistribute(odd), dtl::status_code::invalid_argument);
      unchanged();
      // Ranks that resize to different sizes.
      failed_everywhere(ctx, v.resize(static_cast<std::size_t>(40 + ctx.rank())), dtl::status_code::invalid_argument);
      unchanged();
    }
    // The vector still works.
    REQUIRE(v.redistribute().has_value());
    CHECK(everything(v) == iota_ref(30, 0));
    // A moved-from vector has no context: invalid_state, without communicating.
    vec_t moved = std::move(v);
    CHECK(v.redistribute().error() == dtl::status_code::invalid_state);
    CHECK(v.resize(3).error() == dtl::status_code::invalid_state);
    CHECK(moved.global_size() == 30);
  }

  TEST_CASE("an allocation that fails on one rank fails on every rank and leaves the vector as it was") {
    const auto ctx = world();
    const int p = ctx.size();
    auto space = std::make_shared<failing_space>();
    auto made = vec_t::create(40, ctx, space);
    REQUIRE(made.has_value());
    vec_t v = std::move(made).value();
    REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
    // The new blocks come from the vector's own memory space, empty ranks included.
    REQUIRE(v.redistribute(layouts(40, p).front()).has_value());
    REQUIRE(v.redistribute().has_value());
    CHECK(space->allocations >= 1);
    const auto range = v.local_range();
    const std::int64_t* data = v.local_data();
    space->fail = ctx.rank() == p - 1;  // the last rank holds elements in both layouts tried below
    sizes_t last_heavy(static_cast<std::size_t>(p), 0);
    last_heavy.back() = 40;
    const auto r = p == 1 ? v.resize(41) : v.redistribute(last_heavy);  // one rank: the layout it has
    REQUIRE_FALSE(r.has_value());
    const auto code = static_cast<int>(r.error().code());
    const auto expected =
        static_cast<int>(p == 1 ? dtl::status_code::out_of_memory : dtl::status_code::collective_failure);
    CHECK(ctx.allreduce_value(code, dtl::reduce_op::min).value() == expected);
    CHECK(ctx.allreduce_value(code, dtl::reduce_op::max).value() == expected);
    CHECK(v.local_range() == range);
    CHECK(v.local_data() == data);
    CHECK(everything(v) == iota_ref(40, 0));
    const auto grown = v.resize(80);
    CHECK(ctx.allreduce_value(grown.has_value() ? 1 : 0, dtl::reduce_op::max).value() == 0);
    CHECK(v.global_size() == 40);
    CHECK(everything(v) == iota_ref(40, 0));
    space->fail = false;
    REQUIRE(v.resize(80, std::int64_t{-1}).has_value());
    auto ref = iota_ref(40, 0);
    ref.resize(80, -1);
    CHECK(everything(v) == ref);
  }

  TEST_CASE("a vector with a halo: the plan is made anew, the exchange fills the new neighbours' edges") {
    const auto ctx = world();
    const int p = ctx.size();
    const std::size_t n = 12 * static_cast<std::size_t>(p);
    vec_t v(n, ctx, dtl::halo{.prev = 1, .next = 1});
    REQUIRE(dtl::iota(v, std::int64_t{1}).has_value());
    auto check_ghosts = [&] {
      REQUIRE(v.halo().exchange().has_value());
      if (v.local_size() == 0) {
        CHECK(v.local_size_with_ghosts() == 0);
        return;
      }
      const auto g = v.local_view_with_ghosts();
      REQUIRE(g.size() == v.local_size() + 2);
      const auto first = static_cast<std::int64_t>(v.global_offset());
      const auto end = static_cast<std::int64_t>(v.global_offset() + v.local_size());
      CHECK(g[0] == (first > 0 ? first : 0));  // element first - 1 holds the value first
      CHECK(g[1] == first + 1);
      CHECK(g[g.size() - 1] == (end < static_cast<std::int64_t>(v.global_size()) ? end + 1 : 0));
    };
    check_ghosts();
    for (const sizes_t& sizes : layouts(n, p)) {
      REQUIRE(v.redistribute(sizes).has_value());
      has_layout(v, sizes);
      CHECK(everything(v) == iota_ref(n, 1));
      check_ghosts();
    }
    REQUIRE(v.resize(n + 5, std::int64_t{0}).has_value());
    REQUIRE(dtl::iota(v, std::int64_t{1}).has_value());
    CHECK(everything(v) == iota_ref(n + 5, 1));
    check_ghosts();
    REQUIRE(v.redistribute().has_value());
    check_ghosts();
  }

  TEST_CASE("a vector with a halo: layouts that break its rules are refused on every rank, the vector as it was") {
    const auto ctx = world();
    const int p = ctx.size();
    const std::size_t n = 8 * static_cast<std::size_t>(p);
    vec_t v(n, ctx, dtl::halo{.prev = 2, .next = 2, .granularity = 2});
    REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
    const auto range = v.local_range();
    // Not whole rows of 2.
    sizes_t odd = even_sizes(n, p);
    odd[0] -= 1;
    odd.back() += 1;
    if (p > 1) failed_everywhere(ctx, v.redistribute(odd), dtl::status_code::invalid_argument);
    failed_everywhere(ctx, v.resize(n + 1), dtl::status_code::invalid_argument);
    if (p > 1) {
      // A block of 1 element beside another: the neighbour reads 2 from it (the width rule).
      vec_t w(n, ctx, dtl::halo{.prev = 2, .next = 2});
      sizes_t thin(static_cast<std::size_t>(p), 0);
      thin[0] = n - 1;
      thin[1] = 1;
      failed_everywhere(ctx, w.redistribute(thin), dtl::status_code::invalid_argument);
      CHECK(w.local_range() == range);
    }
    CHECK(v.local_range() == range);
    CHECK(everything(v) == iota_ref(n, 0));
    REQUIRE(v.halo().exchange().has_value());
    REQUIRE(v.resize(n + 2).has_value());  // whole rows: fine
    CHECK(v.global_size() == n + 2);
  }

  TEST_CASE("resize of a halo vector to a size that is not whole rows names the rows, on every rank") {
    const auto ctx = world();
    vec_t v(6 * static_cast<std::size_t>(ctx.size()), ctx, dtl::halo{.prev = 2, .next = 2, .granularity = 2});
    const auto odd = v.resize(v.global_size() + 1);
    failed_everywhere(ctx, odd, dtl::status_code::invalid_argument);
    const std::string_view why = odd.error().message();
    CHECK(why.find("resize") != std::string_view::npos);
    CHECK(why.find("units of 2") != std::string_view::npos);
    CHECK(why.find("sizes given") == std::string_view::npos);
  }

  TEST_CASE("a global_view or halo() made before a change of layout gives invalid_state on every rank") {
    const auto ctx = world();
    vec_t v(20, ctx, dtl::halo{.prev = 1, .next = 1});  // every rank of 1-3 holds an element
    REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
    auto old_view = v.global_view();
    const auto old_halo = v.halo();
    const std::size_t mine = v.global_offset();                            // the owner's own path
    const std::size_t theirs = (v.global_offset() + v.local_size()) % 20;  // another rank's, with 2+ ranks
    REQUIRE(v.resize(30).has_value());                                     // a new block: the old one is freed
    for (const std::size_t i : {mine, theirs}) {
      CAPTURE(i);
      const auto got = old_view[i].get();
      REQUIRE_FALSE(got.has_value());
      CHECK(got.error().code() == dtl::status_code::invalid_state);
      const auto put = old_view[i].put(-1);
      REQUIRE_FALSE(put.has_value());
      CHECK(put.error().code() == dtl::status_code::invalid_state);
    }
    for (const auto& stale :
         {old_halo.exchange(), old_halo.exchange_begin(), old_halo.exchange_end(), old_halo.reduce()}) {
      REQUIRE_FALSE(stale.has_value());
      CHECK(stale.error().code() == dtl::status_code::invalid_state);
    }
    CHECK_FALSE(old_halo.in_flight());
    test_support::still_in_step(ctx);
    // What is made after the change works; the elements kept their values.
    REQUIRE(v.halo().exchange().has_value());
    auto g = v.global_view();
    REQUIRE(ctx.barrier().has_value());
    CHECK(g[mine].get().value() == static_cast<std::int64_t>(mine));
    CHECK(g[25].get().value() == 0);
    REQUIRE(ctx.barrier().has_value());
    // A change to the layout the vector has moves nothing, but views made before are still refused:
    // one rule for every change of layout.
    REQUIRE(v.redistribute().has_value());
    const auto same = g[mine].get();
    REQUIRE_FALSE(same.has_value());
    CHECK(same.error().code() == dtl::status_code::invalid_state);
    REQUIRE(ctx.barrier().has_value());
  }

  TEST_CASE("global_view after redistribute reaches the new owners") {
    const auto ctx = world();
    vec_t v(20, ctx);
    REQUIRE(dtl::iota(v, std::int64_t{0}).has_value());
    {
      auto before = v.global_view();  // opens a window on the old blocks
      REQUIRE(ctx.barrier().has_value());
      CHECK(before[19].get().value() == 19);
      REQUIRE(ctx.barrier().has_value());
    }
    REQUIRE(v.redistribute(layouts(20, ctx.size()).front()).has_value());  // all on rank 0
    auto g = v.global_view();
    REQUIRE(ctx.barrier().has_value());
    for (std::size_t i = 0; i < 20; ++i) CHECK(g[i].get().value() == static_cast<std::int64_t>(i));
    CHECK(g[3].owner().value() == 0);
    REQUIRE(ctx.barrier().has_value());
    if (ctx.rank() == ctx.size() - 1) REQUIRE(g[19].put(-19).has_value());
    REQUIRE(ctx.barrier().has_value());
    CHECK(g[19].get().value() == -19);
    REQUIRE(ctx.barrier().has_value());
    REQUIRE(v.resize(25, std::int64_t{1}).has_value());
    auto after = v.global_view();
    REQUIRE(ctx.barrier().has_value());
    CHECK(after[19].get().value() == -19);
    CHECK(after[24].get().value() == 1);
    REQUIRE(ctx.barrier().has_value());
  }
}
