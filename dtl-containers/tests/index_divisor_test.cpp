// SPDX-License-Identifier: MIT
// dtl::detail::index_divisor against the division operator: small divisors with every small index, the
// edges of the 32-bit range, powers of two and their neighbours, and random pairs.
#include <dtl/containers/detail/index_divisor.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using dtl::detail::index_divisor;

void check_divisor(std::uint32_t d, const std::vector<std::uint32_t>& indices) {
  const index_divisor div(d);
  CHECK(div.divisor() == d);
  for (const std::uint32_t n : indices) {
    if (div.divide(n) != n / d) {
      FAIL_CHECK("index_divisor(" << d << ").divide(" << n << ") = " << div.divide(n) << ", not " << n / d);
      return;
    }
  }
}

}  // namespace

TEST_SUITE("index_divisor") {
  TEST_CASE("small divisors, every index below 4096 and the top of the range") {
    std::vector<std::uint32_t> indices;
    for (std::uint32_t n = 0; n < 4096; ++n) indices.push_back(n);
    for (std::uint32_t k = 0; k < 4096; ++k) indices.push_back(UINT32_MAX - k);
    for (std::uint32_t d = 1; d <= 1000; ++d) check_divisor(d, indices);
  }

  TEST_CASE("powers of two, their neighbours and the largest divisors") {
    std::vector<std::uint32_t> divisors = {UINT32_MAX, UINT32_MAX - 1, 0x80000001u, 0x7fffffffu, 3u * 0x55555555u};
    for (int k = 0; k < 32; ++k) {
      const std::uint32_t p = std::uint32_t{1} << k;
      divisors.push_back(p);
      divisors.push_back(p + 1);
      if (p > 1) divisors.push_back(p - 1);
    }
    for (const std::uint32_t d : divisors) {
      std::vector<std::uint32_t> indices = {0, 1, d - 1, d, UINT32_MAX, UINT32_MAX - 1, 0x80000000u, 0x7fffffffu};
      if (d <= UINT32_MAX / 2) indices.insert(indices.end(), {2 * d - 1, 2 * d, 2 * d + 1});
      if (d < UINT32_MAX) indices.push_back(d + 1);
      check_divisor(d, indices);
    }
  }

  TEST_CASE("random divisors and indices") {
    std::mt19937 gen(12345);
    std::uniform_int_distribution<std::uint32_t> any(1, UINT32_MAX);
    std::uniform_int_distribution<std::uint32_t> small(1, 1u << 16);
    for (int i = 0; i < 2000; ++i) {
      const std::uint32_t d = i % 2 == 0 ? any(gen) : small(gen);
      std::vector<std::uint32_t> indices;
      for (int k = 0; k < 256; ++k) indices.push_back(any(gen));
      check_divisor(d, indices);
    }
  }

  TEST_CASE("0 is taken as 1, and the default divides by 1") {
    CHECK(index_divisor(0).divisor() == 1);
    CHECK(index_divisor().divide(UINT32_MAX) == UINT32_MAX);
    CHECK(index_divisor(0).divide(77) == 77);
    static_assert(index_divisor(7).divide(700) == 100, "constexpr on the host");
  }
}
