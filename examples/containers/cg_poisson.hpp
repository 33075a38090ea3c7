// SPDX-License-Identifier: MIT
#pragma once
// The conjugate-gradient solver of cg_poisson.hip as a user writes it with DTL: the 2-D Poisson equation
// -Δu = 1 on an nx x ny grid with u = 0 outside it, its rows split over the ranks. Per iteration one
// halo exchange, one 5-point stencil, two dots and three axpys; the two dots bring their scalars to the
// host. The benchmark cg-1gpu times this same solver against the same six kernels written by hand.

#include <dtl/dtl.hpp>

#include <cmath>
#include <cstddef>

namespace cg {

using vector = dtl::distributed_vector<double, dtl::device_only_runtime>;

/// (A q) at the element q points at: 4 q - its four neighbours. Columns outside the grid are 0 by the
/// column test; rows outside it are the halo's ghosts at the grid's edge, which stay 0 (T{}).
struct laplacian {
  const double* base;  // the first owned element of the vector the stencil reads
  unsigned nx;         // 32-bit: a block holds fewer than 2^32 elements (the example checks it)
  __host__ __device__ double operator()(const double* q) const {
    const unsigned column = static_cast<unsigned>(q - base) % nx;
    const auto row = static_cast<std::ptrdiff_t>(nx);
    const double left = column == 0 ? 0.0 : q[-1];
    const double right = column == nx - 1 ? 0.0 : q[1];
    return 4.0 * q[0] - left - right - q[-row] - q[row];
  }
};

/// CG from x = 0 with b = 1: r = b, p = r.
class solver {
 public:
  solver(const dtl::context& ctx, std::size_t nx, std::size_t ny)
      : nx_(nx),
        x_(nx * ny, ctx, dtl::halo{.granularity = nx}),
        r_(nx * ny, 1.0, ctx, dtl::halo{.granularity = nx}),
        p_(nx * ny, 1.0, ctx, dtl::halo{.prev = nx, .next = nx, .periodic = false, .granularity = nx}),
        ap_(nx * ny, ctx, dtl::halo{.granularity = nx}),
        rr_(dtl::dot(r_, r_)) {}

  void iterate() {
    dtl::value_or_throw(p_.halo().exchange());
    dtl::value_or_throw(dtl::stencil_transform(p_, ap_, laplacian{p_.local_data(), static_cast<unsigned>(nx_)}));
    const double alpha = rr_ / dtl::dot(p_, ap_);
    dtl::value_or_throw(
        dtl::transform(x_, p_, x_, [alpha] __host__ __device__(double x, double p) { return x + alpha * p; }));
    dtl::value_or_throw(
        dtl::transform(r_, ap_, r_, [alpha] __host__ __device__(double r, double ap) { return r - alpha * ap; }));
    const double rr_next = dtl::dot(r_, r_);
    const double beta = rr_next / rr_;
    rr_ = rr_next;
    dtl::value_or_throw(
        dtl::transform(r_, p_, p_, [beta] __host__ __device__(double r, double p) { return r + beta * p; }));
  }

  /// |r|, the residual's norm, as of the last iteration.
  [[nodiscard]] double residual() const { return std::sqrt(rr_); }
  [[nodiscard]] const vector& solution() const { return x_; }
  [[nodiscard]] const char* halo_path() const { return p_.halo().path(); }

 private:
  std::size_t nx_;
  vector x_, r_, p_, ap_;
  double rr_;
};

}  // namespace cg
