// SPDX-License-Identifier: MIT
// redistribute and resize: element i holds key(seed, i). The vector moves to uneven blocks drawn from the
// seed (weights 0 to 3, so some ranks end up empty), back to the even blocks, then grows by a third.
// After each step every rank checks its block's place in the global order and every element it holds.
#include "scale_support.hpp"

namespace {

/// The blocks of `n` elements for weights drawn per rank: cut[r] = where rank r's block begins.
std::vector<std::size_t> uneven_cuts(std::uint64_t seed, std::size_t ranks, std::size_t n) {
  std::vector<std::size_t> weight_before(ranks + 1, 0);
  for (std::size_t r = 0; r < ranks; ++r) weight_before[r + 1] = weight_before[r] + scale::key(seed ^ 0xd15u, r) % 4;
  const std::size_t total = std::max<std::size_t>(1, weight_before[ranks]);
  std::vector<std::size_t> cut(ranks + 1);
  for (std::size_t r = 0; r <= ranks; ++r) cut[r] = weight_before[r] * n / total;
  cut[ranks] = n;  // every weight 0: the last rank holds everything
  return cut;
}

void check_block(scale::verdict& v, const char* step, const dtl::distributed_vector<std::uint64_t>& vec,
                 std::size_t begin, std::size_t count, std::uint64_t seed, std::size_t drawn_up_to) {
  v.expect(vec.global_offset() == begin && vec.local_size() == count,
           std::string(step) + ": the block is [" + std::to_string(vec.global_offset()) + ", +" +
               std::to_string(vec.local_size()) + "), expected [" + std::to_string(begin) + ", +" +
               std::to_string(count) + ")");
  for (std::size_t j = 0; j < vec.local_size() && v.ok(); ++j) {
    const std::size_t i = vec.global_offset() + j;
    v.expect(vec.local_data()[j] == (i < drawn_up_to ? scale::key(seed, i) : 0),
             std::string(step) + ": element " + std::to_string(i) + " is wrong");
  }
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const dtl::context ctx = env.make_world_context();
  const scale::options opt = scale::parse(argc, argv);
  const std::size_t per_rank = opt.elements(std::size_t{1} << 16, 4096);
  const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());
  const std::size_t n = per_rank * p;
  scale::verdict v("redistribute");

  dtl::distributed_vector<std::uint64_t> vec(n, ctx);
  const std::size_t even_begin = vec.global_offset(), even_count = vec.local_size();
  for (std::size_t j = 0; j < even_count; ++j) vec.local_data()[j] = scale::key(opt.seed, even_begin + j);

  const std::vector<std::size_t> cut = uneven_cuts(opt.seed, p, n);
  std::vector<std::size_t> sizes(p);
  for (std::size_t r = 0; r < p; ++r) sizes[r] = cut[r + 1] - cut[r];
  std::size_t empty = 0;
  for (const std::size_t s : sizes) empty += s == 0 ? 1 : 0;
  if (v.expect_ok(vec.redistribute(sizes), "redistribute to uneven blocks"))
    check_block(v, "uneven blocks", vec, cut[me], sizes[me], opt.seed, n);
  if (v.expect_ok(vec.redistribute(), "redistribute back to even blocks"))
    check_block(v, "even blocks", vec, even_begin, even_count, opt.seed, n);
  const std::size_t grown = n + n / 3;
  if (v.expect_ok(vec.resize(grown), "resize")) {
    const auto range = dtl::block_partition<>::create(grown, ctx.size()).value().local_range(ctx.rank()).value();
    check_block(v, "resized", vec, range.begin, range.size(), opt.seed, n);
  }
  return v.finish("elements=" + std::to_string(n) + " empty-ranks=" + std::to_string(empty));
}
