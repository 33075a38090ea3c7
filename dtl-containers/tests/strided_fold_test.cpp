// SPDX-License-Identifier: MIT
// The per-thread loop of the one-kernel reduction (gpu/strided_fold.hpp), run on the host: the same fold,
// in the same order, as one index at a time, and no index at or past n.
#include <dtl/containers/gpu/strided_fold.hpp>  // first: the header compiles on its own

#include "doctest.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace {

/// An order-sensitive fold (a polynomial hash), so a reordering shows.
struct hash_fold {
  std::uint64_t operator()(std::uint64_t acc, std::uint64_t x) const { return acc * 1000003u + x; }
};

/// A value over the batching limit (the one-at-a-time path).
struct wide {
  std::array<std::uint64_t, 4> words{};
};
struct wide_fold {
  wide operator()(wide acc, const wide& x) const {
    acc.words[0] = acc.words[0] * 1000003u + x.words[0];
    acc.words[3] += 1;
    return acc;
  }
};

/// index_op(i) = i * 7 + 1, remembering the largest index asked for.
struct recording_index {
  std::size_t* largest;
  std::uint64_t operator()(std::size_t i) const {
    *largest = std::max(*largest, i);
    return static_cast<std::uint64_t>(i) * 7u + 1u;
  }
};

std::uint64_t one_at_a_time(std::size_t i, std::size_t n, std::size_t stride) {
  std::uint64_t acc = static_cast<std::uint64_t>(i) * 7u + 1u;
  while (n - i > stride) {
    i += stride;
    acc = hash_fold{}(acc, static_cast<std::uint64_t>(i) * 7u + 1u);
  }
  return acc;
}

}  // namespace

TEST_SUITE("strided_fold") {
  TEST_CASE("the same fold as one index at a time, for every start, stride and length around the batch edges") {
    using dtl::detail::gpu::strided_fold;
    for (const std::size_t stride : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{256}}) {
      for (std::size_t n = 1; n <= 12 * stride + 3; n += (stride > 3 ? stride / 4 : 1)) {
        for (std::size_t i = 0; i < std::min(n, stride); ++i) {
          std::size_t largest = 0;
          const std::uint64_t got = strided_fold<std::uint64_t>(i, n, stride, hash_fold{}, recording_index{&largest});
          REQUIRE(got == one_at_a_time(i, n, stride));
          REQUIRE(largest < n);
          // The last index folded is the last one of the thread's stride below n.
          CHECK(largest == i + (n - 1 - i) / stride * stride);
        }
      }
    }
  }

  TEST_CASE("values over the batch size take the one-at-a-time loop, with the same result") {
    using dtl::detail::gpu::strided_fold;
    static_assert(sizeof(wide) > dtl::detail::gpu::strided_fold_batch_max_bytes);
    const auto index = [](std::size_t i) {
      wide w;
      w.words[0] = static_cast<std::uint64_t>(i) * 7u + 1u;
      return w;
    };
    for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}, std::size_t{1000}}) {
      const wide got = strided_fold<wide>(0, n, 4, wide_fold{}, index);
      CHECK(got.words[0] == one_at_a_time(0, n, 4));
      CHECK(got.words[3] == (n - 1) / 4);  // folded once per index after the first
    }
  }

  TEST_CASE("near the top of size_t: no index wraps past n") {
    using dtl::detail::gpu::strided_fold;
    const std::size_t n = static_cast<std::size_t>(-1) - 2;
    const std::size_t stride = std::size_t{1} << 20;
    const std::size_t i = n - 5 * stride - 1;  // six indices below n: one batch of four, then one more
    std::size_t largest = 0;
    const std::uint64_t got = strided_fold<std::uint64_t>(i, n, stride, hash_fold{}, recording_index{&largest});
    CHECK(got == one_at_a_time(i, n, stride));
    CHECK(largest == i + 5 * stride);
  }
}
