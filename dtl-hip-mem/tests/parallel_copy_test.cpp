// SPDX-License-Identifier: MIT
// The staged copies' host side (src/memory/parallel_copy.cpp): no device needed.
#include "doctest.hpp"

#include "gpu_support.hpp"  // fill_never_zero, guarded_buffer (host-only helpers; no device is used)
#include "parallel_copy.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <thread>
#include <vector>

using dtl::hip::detail::copy_crew;

namespace {

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;

/// `n` bytes of test data, none of them zero.
std::vector<unsigned char> source(std::size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  dtl_test::fill_never_zero(v.data(), n, seed);
  return v;
}

/// Copies `bytes` from src + src_skew to dst + dst_skew with `crew` and checks dst byte for byte, and
/// that nothing around it was written (the skew before dst stays zero, the guards stay intact).
void check_copy(copy_crew& crew, std::size_t bytes, std::size_t src_skew, std::size_t dst_skew, copy_crew::stores kind,
                unsigned seed) {
  CAPTURE(bytes);
  CAPTURE(src_skew);
  CAPTURE(dst_skew);
  CAPTURE(static_cast<int>(kind));
  const std::vector<unsigned char> src = source(src_skew + bytes, seed);
  dtl_test::guarded_buffer dst(dst_skew + bytes);
  crew.copy(dst.data() + dst_skew, src.data() + src_skew, bytes, kind);
  CHECK(std::memcmp(dst.data() + dst_skew, src.data() + src_skew, bytes) == 0);
  CHECK(std::all_of(dst.data(), dst.data() + dst_skew, [](unsigned char b) { return b == 0; }));
  CHECK(dst.guards_intact());
}

}  // namespace

TEST_SUITE("staging") {
  TEST_CASE("a crew copies every size exactly, aligned or not, with cached and with streaming stores") {
    // Around the 16-byte and 64-byte steps of the streaming loop, and around the 256 KiB parts.
    const std::vector<std::size_t> sizes{
        0, 1, 15, 16, 17, 63, 64, 65, 4 * KiB + 9, 256 * KiB - 1, 256 * KiB, 256 * KiB + 1, MiB + 17, 5 * MiB + 3};
    unsigned seed = 1;
    for (const unsigned threads : {1u, 2u, 4u, 16u}) {
      CAPTURE(threads);
      copy_crew crew(threads);
      CHECK(crew.threads() >= 1);
      CHECK(crew.threads() <= threads);
      for (const auto kind : {copy_crew::stores::cached, copy_crew::stores::streaming})
        for (const std::size_t bytes : sizes)
          for (const std::size_t skew : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{15}})
            check_copy(crew, bytes, (skew * 3) % 16, skew, kind, seed++);
    }
  }

  TEST_CASE("one crew copies many pieces in a row, as a staged copy does") {
    copy_crew crew(4);
    for (unsigned piece = 0; piece < 40; ++piece)
      check_copy(crew, 512 * KiB + piece * 4099, piece % 5, piece % 16,
                 piece % 2 == 0 ? copy_crew::stores::streaming : copy_crew::stores::cached, 100 + piece);
  }

  TEST_CASE("one crew holds the helpers: a second one copies alone, and gets them once the first is gone") {
    {
      copy_crew first(4);
      CHECK(first.threads() == 4);  // the caller and 3 helpers, started by the constructor
      copy_crew second(4);
      CHECK(second.threads() == 1);
      check_copy(second, 2 * MiB + 5, 3, 1, copy_crew::stores::streaming, 7);
      check_copy(first, 2 * MiB + 5, 1, 3, copy_crew::stores::cached, 8);
    }
    copy_crew again(4);
    CHECK(again.threads() == 4);
    check_copy(again, 3 * MiB, 0, 0, copy_crew::stores::streaming, 9);
  }

  TEST_CASE("crews on 4 threads at once: each copy is exact, whoever has the helpers") {
    std::vector<std::thread> threads;
    std::vector<int> wrong(4, 0);
    for (unsigned t = 0; t < 4; ++t) {
      threads.emplace_back([t, &wrong] {
        for (unsigned round = 0; round < 10; ++round) {
          copy_crew crew(4);
          const std::size_t bytes = MiB + t * 1001 + round * 17;
          const std::vector<unsigned char> src = source(bytes, 1000 + t * 10 + round);
          dtl_test::guarded_buffer dst(bytes + 1);
          crew.copy(dst.data() + 1, src.data(), bytes,
                    round % 2 == 0 ? copy_crew::stores::streaming : copy_crew::stores::cached);
          wrong[t] += std::memcmp(dst.data() + 1, src.data(), bytes) != 0;
          wrong[t] += dst.data()[0] != 0 || !dst.guards_intact();
        }
      });
    }
    for (auto& th : threads) th.join();
    for (unsigned t = 0; t < 4; ++t) {
      CAPTURE(t);
      CHECK(wrong[t] == 0);
    }
  }
}
