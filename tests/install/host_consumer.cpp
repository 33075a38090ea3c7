// SPDX-License-Identifier: MIT
// A program built against an installed dtl with the README's one-liner (check_install.py, mode prefix):
//   c++ -std=c++20 $(pkg-config --cflags dtl-containers) app.cpp $(pkg-config --libs dtl-containers)
// and run without LD_LIBRARY_PATH. A single-process context: it needs no MPI launcher and no device.
#include <dtl/dtl.hpp>

#include <cstdio>

int main() {
  const auto ctx = dtl::make_cpu_context();
  dtl::distributed_vector<double> v(1000, ctx);
  if (!dtl::iota(v, 1.0)) return 1;
  const double sum = dtl::reduce(v, 0.0);  // 1 + 2 + ... + 1000
  std::printf("installed dtl-containers: the sum of 1..1000 is %.0f\n", sum);
  return sum == 500500.0 ? 0 : 1;
}
