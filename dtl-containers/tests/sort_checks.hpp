// SPDX-License-Identifier: MIT
#pragma once
// The checks of the distributed sort for one placement, against a serial reference of the whole input
// (every rank makes the same global input and keeps its block): sort_test.cpp runs them on host_only
// over 1-3 ranks, gpu_sort_test.hip on the device placements. Comparators are function objects callable
// on the host and the device.
#include "test_environment.hpp"

#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/algorithms/sort.hpp>
#include <dtl/containers/distributed_vector.hpp>
#include <dtl/containers/host_device.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace sort_checks {

inline const std::vector<std::size_t> sizes{0, 1, 2, 3, 7, 1000, 100003};

/// A record sorted by key only: stability shows in `origin` (its global index before the sort).
struct record {
  std::int32_t key;
  std::uint32_t origin;
  friend bool operator==(const record&, const record&) = default;
};
struct by_key {
  DTL_HOST_DEVICE bool operator()(const record& a, const record& b) const { return a.key < b.key; }
};
/// A comparator no radix sort can take: by the low byte, then descending.
struct low_byte_then_descending {
  DTL_HOST_DEVICE bool operator()(std::uint32_t a, std::uint32_t b) const {
    return (a & 0xffu) != (b & 0xffu) ? (a & 0xffu) < (b & 0xffu) : b < a;
  }
};

/// Lowers the splitter rounds' sample budgets for a scope, on every rank alike (each runs the same
/// case), so that 2 or 3 ranks take the refinement rounds a thousand ranks take.
class small_budgets {
 public:
  explicit small_budgets(dtl::detail::sort_plan::round_limits lowered) { dtl::detail::sort_plan::limits() = lowered; }
  small_budgets(const small_budgets&) = delete;
  small_budgets& operator=(const small_budgets&) = delete;
  ~small_budgets() { dtl::detail::sort_plan::limits() = saved_; }

 private:
  dtl::detail::sort_plan::round_limits saved_ = dtl::detail::sort_plan::limits();
};
/// One sample a rank in round one, eight a refinement round: several rounds from 2 ranks on.
inline constexpr dtl::detail::sort_plan::round_limits tiny_budgets{1, 8};

enum class shape { random, equal, sorted, reversed, few_values };

template <class T>
std::vector<T> make_input(std::size_t n, shape s, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = gen();
    switch (s) {
      case shape::random:
        if constexpr (std::is_floating_point_v<T>)
          v[i] = static_cast<T>(static_cast<double>(r % 2000001) / 1000.0 - 1000.0);
        else
          v[i] = static_cast<T>(r);
        break;
      case shape::equal: v[i] = static_cast<T>(42); break;
      case shape::sorted: v[i] = static_cast<T>(i); break;
      case shape::reversed: v[i] = static_cast<T>(n - i); break;
      case shape::few_values: v[i] = static_cast<T>(r % 5); break;
    }
  }
  return v;
}

template <class T, class P>
dtl::distributed_vector<T, P> make_vector(const dtl::context& ctx, const std::vector<T>& global) {
  dtl::distributed_vector<T, P> v(global.size(), ctx);
  const auto begin = global.begin() + static_cast<std::ptrdiff_t>(v.global_offset());
  const std::vector<T> mine(begin, begin + static_cast<std::ptrdiff_t>(v.local_size()));
  REQUIRE(v.copy_from_host(mine.data(), mine.size()).has_value());
  return v;
}

/// This rank's block of `global` equals its elements.
template <class T, class P>
void check_block(const dtl::distributed_vector<T, P>& v, const std::vector<T>& global) {
  const std::vector<T> mine = v.copy_to_host().value();
  const auto begin = global.begin() + static_cast<std::ptrdiff_t>(v.global_offset());
  CHECK(mine == std::vector<T>(begin, begin + static_cast<std::ptrdiff_t>(v.local_size())));
}

/// Every rank checks its block; the collective outcome is also checked on every rank.
template <class T, class P, class Policy, class Comp>
void sort_one(const dtl::context& ctx, const Policy& policy, std::size_t n, shape s, Comp comp, bool stable) {
  CAPTURE(n);
  CAPTURE(static_cast<int>(s));
  const std::vector<T> global = make_input<T>(n, s, static_cast<unsigned>(n * 7 + static_cast<std::size_t>(s)));
  auto v = make_vector<T, P>(ctx, global);
  const std::size_t local_before = v.local_size();
  auto done = stable ? dtl::stable_sort(policy, v, comp) : dtl::sort(policy, v, comp);
  if constexpr (dtl::is_result_v<decltype(done)>)
    REQUIRE(done.has_value());
  else
    REQUIRE(done.get_result().has_value());
  CHECK(v.local_size() == local_before);
  std::vector<T> expected = global;
  std::stable_sort(expected.begin(), expected.end(), comp);  // a permutation of the input, in order
  check_block(v, expected);
  CHECK(dtl::is_sorted(v, comp));
}

template <class P, class Policy>
void sort_cases(const dtl::context& ctx, const Policy& policy) {
  for (const std::size_t n : sizes) {
    for (const shape s : {shape::random, shape::equal, shape::sorted, shape::reversed, shape::few_values}) {
      sort_one<std::uint32_t, P>(ctx, policy, n, s, std::less<>{}, false);
      sort_one<std::uint32_t, P>(ctx, policy, n, s, std::greater<>{}, true);
    }
    sort_one<std::int64_t, P>(ctx, policy, n, shape::random, std::less<std::int64_t>{}, false);
    sort_one<std::uint64_t, P>(ctx, policy, n, shape::random, std::greater<std::uint64_t>{}, false);
    sort_one<double, P>(ctx, policy, n, shape::random, std::less<>{}, false);
    sort_one<float, P>(ctx, policy, n, shape::few_values, std::greater<>{}, true);
    sort_one<std::uint32_t, P>(ctx, policy, n, shape::random, low_byte_then_descending{}, false);
    sort_one<std::uint32_t, P>(ctx, policy, n, shape::few_values, low_byte_then_descending{}, true);
  }
}

/// stable_sort of records by key keeps equal keys in their global order, across the ranks.
template <class P>
void stable_records(const dtl::context& ctx) {
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    std::vector<record> global(n);
    std::mt19937 gen(static_cast<unsigned>(n));
    for (std::size_t i = 0; i < n; ++i)
      global[i] = {static_cast<std::int32_t>(gen() % 7) - 3, static_cast<std::uint32_t>(i)};
    auto v = make_vector<record, P>(ctx, global);
    REQUIRE(dtl::stable_sort(v, by_key{}).has_value());
    std::vector<record> expected = global;
    std::stable_sort(expected.begin(), expected.end(), by_key{});
    check_block(v, expected);
  }
}

/// sort_by_key: keys sorted, values (the keys' global indices) moved with them, stably.
template <class P, class Comp>
void by_key_cases(const dtl::context& ctx, Comp comp) {
  for (const std::size_t n : sizes) {
    for (const shape s : {shape::random, shape::few_values, shape::equal}) {
      CAPTURE(n);
      CAPTURE(static_cast<int>(s));
      const std::vector<std::uint32_t> keys = make_input<std::uint32_t>(n, s, static_cast<unsigned>(n + 3));
      std::vector<std::uint64_t> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = 1000000007ull * i;
      auto k = make_vector<std::uint32_t, P>(ctx, keys);
      auto v = make_vector<std::uint64_t, P>(ctx, values);
      REQUIRE(dtl::sort_by_key(k, v, comp).has_value());
      std::vector<std::size_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return comp(keys[a], keys[b]); });
      std::vector<std::uint32_t> sorted_keys(n);
      std::vector<std::uint64_t> sorted_values(n);
      for (std::size_t i = 0; i < n; ++i) {
        sorted_keys[i] = keys[order[i]];
        sorted_values[i] = values[order[i]];
      }
      check_block(k, sorted_keys);
      check_block(v, sorted_values);
    }
  }
}

/// is_sorted: sorted input, a violation inside a block, and one exactly at the first rank boundary.
template <class P>
void is_sorted_cases(const dtl::context& ctx) {
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    std::vector<std::int64_t> global(n);
    for (std::size_t i = 0; i < n; ++i) global[i] = static_cast<std::int64_t>(i) - 5;
    CHECK(dtl::is_sorted(make_vector<std::int64_t, P>(ctx, global)));
    CHECK(dtl::try_is_sorted(make_vector<std::int64_t, P>(ctx, global), std::greater<>{}).value() == (n < 2));
    if (n < 2) continue;
    // The last element of rank 0's block above the first of the next block: every block stays sorted.
    dtl::distributed_vector<std::int64_t, P> probe(n, ctx);
    const std::size_t boundary = probe.partition().local_range(0).value().size();
    std::vector<std::int64_t> broken = global;
    if (boundary >= 1 && boundary < n) {
      broken[boundary - 1] = global[boundary] + 1;
      CHECK_FALSE(dtl::is_sorted(make_vector<std::int64_t, P>(ctx, broken)));
    }
    broken = global;
    std::swap(broken[n - 1], broken[n - 2]);  // a violation inside the last block (or at a boundary)
    CHECK_FALSE(dtl::is_sorted(make_vector<std::int64_t, P>(ctx, broken)));
  }
}

/// distributed_sort: sorts as sort does, and says what this rank moved. All-equal keys move nothing
/// (the (key, rank, position) order keeps every element where it is); what leaves the ranks arrives.
template <class P>
void traffic_cases(const dtl::context& ctx) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{1000}, std::size_t{100003}}) {
    for (const shape s : {shape::equal, shape::random, shape::few_values}) {
      CAPTURE(n);
      CAPTURE(static_cast<int>(s));
      const std::vector<std::uint32_t> global = make_input<std::uint32_t>(n, s, 11);
      auto v = make_vector<std::uint32_t, P>(ctx, global);
      const dtl::distributed_sort_result r = dtl::distributed_sort(v);
      CHECK(r.success);
      std::vector<std::uint32_t> expected = global;
      std::sort(expected.begin(), expected.end());
      check_block(v, expected);
      if (s == shape::equal || ctx.size() == 1) {
        CHECK(r.elements_sent == 0);
        CHECK(r.elements_received == 0);
      }
      CHECK(ctx.allreduce_value(r.elements_sent, dtl::reduce_op::sum).value() ==
            ctx.allreduce_value(r.elements_received, dtl::reduce_op::sum).value());
    }
  }
  auto v = make_vector<std::uint32_t, P>(ctx, make_input<std::uint32_t>(1000, shape::random, 5));
  const auto r = dtl::try_distributed_sort(v, std::greater<>{});
  REQUIRE(r.has_value());
  CHECK(dtl::is_sorted(v, std::greater<>{}));
}

}  // namespace sort_checks
