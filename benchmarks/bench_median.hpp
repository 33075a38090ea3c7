// SPDX-License-Identifier: MIT
#pragma once
// The median every benchmark reports: the middle sample, or the mean of the two middle ones.

#include <algorithm>
#include <cstddef>
#include <vector>

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2.0;
}
