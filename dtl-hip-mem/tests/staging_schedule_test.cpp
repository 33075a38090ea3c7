// SPDX-License-Identifier: MIT
// How staged copies are cut into pieces (src/memory/staging_schedule.hpp): no device needed.
#include "doctest.hpp"

#include "staging_schedule.hpp"

#include <cstddef>

using dtl::hip::detail::smallest_staging_piece;
using dtl::hip::detail::staging_pieces;

namespace {
constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;
}  // namespace

TEST_SUITE("staging") {
  TEST_CASE("pieces cover the copy contiguously, none larger than a chunk") {
    for (const std::size_t chunk : {4 * KiB, 1 * MiB, 8 * MiB, 16 * MiB}) {
      for (const std::size_t bytes :
           {std::size_t{1}, chunk - 1, chunk, chunk + 1, 3 * chunk + 1, 40 * chunk + 7, 64 * MiB + 3}) {
        CAPTURE(chunk);
        CAPTURE(bytes);
        const auto pieces = staging_pieces(bytes, chunk);
        REQUIRE_FALSE(pieces.empty());
        std::size_t next = 0;
        for (const auto& p : pieces) {
          CHECK(p.offset == next);
          CHECK(p.length > 0);
          CHECK(p.length <= chunk);
          next = p.offset + p.length;
        }
        CHECK(next == bytes);
      }
    }
  }

  TEST_CASE("pieces start small, grow to a chunk and shrink again at the end") {
    const auto pieces = staging_pieces(64 * MiB, 16 * MiB);
    REQUIRE(pieces.size() >= 5);
    CHECK(pieces.front().length == 2 * MiB);  // an eighth of a chunk runs alone at the start
    CHECK(pieces[1].length == 4 * MiB);
    CHECK(pieces[2].length == 8 * MiB);
    CHECK(pieces[3].length == 16 * MiB);
    CHECK(pieces.back().length <= 2 * MiB);  // and at the end
    CHECK(smallest_staging_piece(16 * MiB) == 2 * MiB);
    CHECK(smallest_staging_piece(1 * MiB) == 256 * KiB);
    CHECK(smallest_staging_piece(4 * KiB) == 4 * KiB);
    // A copy of a chunk or less is still cut, so that its two halves overlap.
    CHECK(staging_pieces(16 * MiB, 16 * MiB).size() > 1);
    CHECK(staging_pieces(1 * KiB, 16 * MiB).size() == 1);
  }
}
