// SPDX-License-Identifier: MIT
#include <dtl/containers/algorithms/ops.hpp>  // first: the header compiles on its own with the C++ compiler

#include "doctest.hpp"

#include <initializer_list>
#include <limits>

TEST_SUITE("ops") {
  TEST_CASE("reduce_min and reduce_max: the operator and its identity") {
    CHECK(dtl::reduce_min<int>{}(3, -2) == -2);
    CHECK(dtl::reduce_max<int>{}(3, -2) == 3);
    CHECK(dtl::reduce_min<>{}(2.5, 1.0) == 1.0);
    CHECK(dtl::reduce_max<>{}(2.5, 1.0) == 2.5);
    CHECK(dtl::reduce_min<float>::identity() == std::numeric_limits<float>::infinity());
    CHECK(dtl::reduce_max<float>::identity() == -std::numeric_limits<float>::infinity());
    CHECK(dtl::reduce_min<int>::identity() == std::numeric_limits<int>::max());
    CHECK(dtl::reduce_max<int>::identity() == std::numeric_limits<int>::lowest());
    static_assert(dtl::reduce_min<int>{}(4, 7) == 4, "usable in constant expressions");
    // The identity changes nothing.
    for (const int x : {-5, 0, 9}) {
      CHECK(dtl::reduce_min<int>{}(dtl::reduce_min<int>::identity(), x) == x);
      CHECK(dtl::reduce_max<int>{}(dtl::reduce_max<int>::identity(), x) == x);
    }
  }

  TEST_CASE("reduce_sum and reduce_product: the operator and its identity") {
    CHECK(dtl::reduce_sum<int>{}(3, -2) == 1);
    CHECK(dtl::reduce_product<int>{}(3, -2) == -6);
    CHECK(dtl::reduce_sum<>{}(2.5, 1) == 3.5);
    CHECK(dtl::reduce_product<>{}(2.5, 2) == 5.0);
    static_assert(dtl::reduce_sum<long>::identity() == 0 && dtl::reduce_product<long>::identity() == 1);
    for (const int x : {-5, 0, 9}) {
      CHECK(dtl::reduce_sum<int>{}(dtl::reduce_sum<int>::identity(), x) == x);
      CHECK(dtl::reduce_product<int>{}(dtl::reduce_product<int>::identity(), x) == x);
    }
  }
}
