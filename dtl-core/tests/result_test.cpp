// SPDX-License-Identifier: MIT
#include "doctest.hpp"

#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

dtl::result<int> parse_positive(int v) {
  if (v <= 0) return dtl::status(dtl::status_code::invalid_argument, "not positive");
  return v;
}

dtl::result<int> doubled(int v) {
  DTL_ASSIGN_OR_RETURN(const int x, parse_positive(v));
  return 2 * x;
}

dtl::result<void> check_both(int a, int b) {
  DTL_TRY(parse_positive(a));
  DTL_TRY(parse_positive(b));
  return {};
}

/// Moving it throws once `armed`: assigning it into a result that holds an error then leaves the
/// result's variant valueless (the error is gone, the value never arrived).
struct throws_on_move {
  bool armed = false;
  throws_on_move() = default;
  throws_on_move(const throws_on_move&) = default;
  throws_on_move(throws_on_move&& other) : armed(other.armed) {
    if (armed) throw std::runtime_error("move failed");
  }
  throws_on_move& operator=(const throws_on_move&) = default;
  throws_on_move& operator=(throws_on_move&& other) {
    if (other.armed) throw std::runtime_error("move failed");
    return *this;
  }
};

dtl::status check_status(int a) {
  DTL_TRY(parse_positive(a));
  DTL_TRY(dtl::status{});
  return {};
}

}  // namespace

TEST_SUITE("result") {
  TEST_CASE("value and error") {
    dtl::result<int> good = 7;
    CHECK(good.has_value());
    CHECK(static_cast<bool>(good));
    CHECK(good.value() == 7);
    CHECK(*good == 7);
    CHECK(good.error().ok());

    dtl::result<int> bad = dtl::status(dtl::status_code::out_of_range, "too big");
    CHECK_FALSE(bad.has_value());
    CHECK(bad.has_error());
    CHECK(bad.error() == dtl::status_code::out_of_range);
    CHECK(bad.error().message() == "too big");
    CHECK(bad.value_or(-1) == -1);
    CHECK(good.value_or(-1) == 7);
  }

  TEST_CASE("an ok status is never an error") {
    dtl::result<int> r = dtl::status{};
    CHECK_FALSE(r.has_value());
    CHECK(r.error() == dtl::status_code::internal_error);
    CHECK(r.error().message().find("ok status") != std::string_view::npos);

    dtl::result<void> v = dtl::status{};
    CHECK(v.has_value());
    CHECK(dtl::success().has_value());
  }

  TEST_CASE("move-only values and moved-from results") {
    dtl::result<std::unique_ptr<int>> r = std::make_unique<int>(5);
    REQUIRE(r.has_value());
    std::unique_ptr<int> p = std::move(r).value();
    CHECK(*p == 5);
    CHECK(r.has_value());         // NOLINT(bugprone-use-after-move): a moved-from result keeps its state
    CHECK(r.value() == nullptr);  // and holds a moved-from value

    dtl::result<std::string> e = dtl::status(dtl::status_code::timeout, "late");
    dtl::result<std::string> e2 = std::move(e);
    CHECK(e2.error().message() == "late");
    CHECK(e.has_error());  // NOLINT(bugprone-use-after-move)
    CHECK(e.error() == dtl::status_code::timeout);

    dtl::result<std::vector<int>> in_place(std::in_place, 3, 9);
    CHECK(in_place->size() == 3);
  }

  TEST_CASE("a result that lost its value to a throwing move reports an error, never ok") {
    dtl::result<throws_on_move> r = dtl::status(dtl::status_code::timeout, "late");
    dtl::result<throws_on_move> armed = throws_on_move{};
    armed->armed = true;
    CHECK_THROWS_AS(r = std::move(armed), std::runtime_error);
    CHECK_FALSE(r.has_value());
    CHECK(r.has_error());
    CHECK_FALSE(r.error().ok());
    CHECK(r.error().code() == dtl::status_code::internal_error);
    CHECK(r.error().message().find("exception") != std::string_view::npos);
    CHECK_FALSE(std::move(r).error().ok());
    // What is built on it passes the error on.
    CHECK(r.transform([](const throws_on_move&) { return 1; }).error().code() == dtl::status_code::internal_error);
    CHECK(r.and_then([](const throws_on_move&) { return dtl::result<int>(1); }).error().code() ==
          dtl::status_code::internal_error);
    // It can be given a new value.
    r = throws_on_move{};
    CHECK(r.has_value());
  }

  TEST_CASE("and_then, transform, or_else") {
    auto half = [](int v) -> dtl::result<int> {
      if (v % 2 != 0) return dtl::status(dtl::status_code::invalid_argument, "odd");
      return v / 2;
    };
    CHECK(dtl::result<int>(8).and_then(half).value() == 4);
    CHECK(dtl::result<int>(7).and_then(half).error() == dtl::status_code::invalid_argument);
    const dtl::result<int> err = dtl::status(dtl::status_code::timeout);
    CHECK(err.and_then(half).error() == dtl::status_code::timeout);

    CHECK(dtl::result<int>(3).transform([](int v) { return std::to_string(v); }).value() == "3");
    CHECK(err.transform([](int v) { return v + 1; }).error() == dtl::status_code::timeout);
    int seen = 0;
    dtl::result<void> rv = dtl::result<int>(4).transform([&](int v) { seen = v; });
    CHECK(rv.has_value());
    CHECK(seen == 4);

    auto recovered =
        err.or_else([](const dtl::status& s) -> dtl::result<int> { return s == dtl::status_code::timeout ? 0 : -1; });
    CHECK(recovered.value() == 0);
    CHECK(dtl::result<int>(9).or_else([](const dtl::status&) -> dtl::result<int> { return 0; }).value() == 9);

    dtl::result<void> ok;
    CHECK(ok.and_then([] { return dtl::result<int>(1); }).value() == 1);
    CHECK(ok.transform([] { return 2; }).value() == 2);
    dtl::result<void> failed = dtl::status(dtl::status_code::hip_error);
    CHECK(failed.and_then([] { return dtl::result<int>(1); }).error() == dtl::status_code::hip_error);
    CHECK(failed.transform([] { return 2; }).error() == dtl::status_code::hip_error);
    CHECK(failed.or_else([](const dtl::status&) { return dtl::success(); }).has_value());
    CHECK(ok.or_else([](const dtl::status&) -> dtl::result<void> {
              return dtl::status(dtl::status_code::unknown_error);
            }).has_value());
  }

  TEST_CASE("DTL_TRY and DTL_ASSIGN_OR_RETURN propagate the first error") {
    CHECK(doubled(21).value() == 42);
    CHECK(doubled(-1).error() == dtl::status_code::invalid_argument);
    CHECK(check_both(1, 2).has_value());
    CHECK(check_both(1, 0).error() == dtl::status_code::invalid_argument);
    CHECK(check_status(3).ok());
    CHECK(check_status(0) == dtl::status_code::invalid_argument);
  }

  TEST_CASE("result is nodiscard and small") {
    CHECK(sizeof(dtl::result<void>) == sizeof(dtl::status));
    CHECK(dtl::is_result_v<dtl::result<int>>);
    CHECK_FALSE(dtl::is_result_v<int>);
  }
}
