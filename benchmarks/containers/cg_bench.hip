// SPDX-License-Identifier: MIT
// The conjugate-gradient solver of examples/containers/cg_poisson.hpp (written with DTL as a user writes
// it) against the same solver by hand in HIP, on one GPU, in the same run: per iteration the same six
// kernels (5-point stencil, two dots, three axpys) and the same two 8-byte read-backs of the dots; the
// hand version launches its stencil and axpys asynchronously on one stream and waits only for the dots
// (memset, kernel, read-back into pinned memory). One rank: grids 256², 1024², 4096², 8192². Two
// ranks (sharing the GPU): 1024², the hand version exchanging its edge rows through pinned host memory
// and MPI and summing its dots with MPI_Allreduce. Each sample times `iterations` iterations (more on
// small grids); medians of 7 samples, hand and DTL alternating. Both solvers must agree on the residual.
// Prints µs per iteration and hand/DTL, and a CSV into $DTL_BENCH_CSV_DIR. Exits 77 without a GPU.
//
//   dtl-cg-bench [largest nx]            one rank (default 8192)
//   mpirun -n 2 dtl-cg-bench             two ranks, 1024²
#include "bench_build.hpp"
#include "bench_support.hpp"
#include "cg_poisson.hpp"
#include "raw_mpi.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace bench;

constexpr int block = 256;

// The owned rows of q start one row in: the row above and below are ghosts (0 at the grid's edge).
__global__ void laplacian_kernel(const double* q, double* aq, unsigned nx, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned column = static_cast<unsigned>(i % nx);
  const double* c = q + nx + i;
  double v = 4.0 * c[0] - c[-static_cast<std::ptrdiff_t>(nx)] - c[nx];
  if (column > 0) v -= c[-1];
  if (column + 1 < nx) v -= c[1];
  aq[i] = v;
}

__global__ void axpy_kernel(double* y, const double* x, double a, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
__global__ void xpby_kernel(double* p, const double* r, double beta, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = r[i] + beta * p[i];
}

// Grid-stride partial sums in shared memory, one atomicAdd per block.
__global__ void dot_kernel(const double* a, const double* b, std::size_t n, double* out) {
  __shared__ double partial[block];
  double s = 0.0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    s += a[i] * b[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = block / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

/// The same CG by hand: this rank's rows of the grid (ny / ranks), p with a ghost row on each side, one
/// stream, a pinned slot for the dots. Between ranks (raw_mpi.cpp) the edge rows are staged through
/// pinned host memory and the dots summed with MPI_Allreduce, as a HIP user without a GPU-aware MPI does.
class hand_cg {
 public:
  hand_cg(std::size_t nx, std::size_t ny, int rank, int ranks)
      : nx_(nx), n_(nx * (ny / static_cast<std::size_t>(ranks))), rank_(rank), ranks_(ranks) {
    for (double** v : {&x_, &r_, &ap_}) check(hipMalloc(v, n_ * sizeof(double)), "hipMalloc");
    check(hipMalloc(&p_, (n_ + 2 * nx_) * sizeof(double)), "hipMalloc");
    check(hipMalloc(&d_dot_, sizeof(double)), "hipMalloc");
    check(hipHostMalloc(&h_dot_, sizeof(double)), "hipHostMalloc");
    check(hipHostMalloc(&h_rows_, 4 * nx_ * sizeof(double)), "hipHostMalloc");
    check(hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking), "hipStreamCreate");
    int device = 0, sms = 0;
    check(hipGetDevice(&device), "hipGetDevice");
    check(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device), "hipDeviceGetAttribute");
    dot_blocks_ = static_cast<unsigned>(sms) * 4;
    const std::vector<double> ones(n_, 1.0);
    check(hipMemset(x_, 0, n_ * sizeof(double)), "hipMemset");
    check(hipMemset(p_, 0, (n_ + 2 * nx_) * sizeof(double)), "hipMemset");
    check(hipMemcpy(r_, ones.data(), n_ * sizeof(double), hipMemcpyHostToDevice), "hipMemcpy");
    check(hipMemcpy(p_ + nx_, ones.data(), n_ * sizeof(double), hipMemcpyHostToDevice), "hipMemcpy");
    rr_ = dot(r_, r_);
  }
  hand_cg(const hand_cg&) = delete;
  hand_cg& operator=(const hand_cg&) = delete;
  ~hand_cg() {
    (void)hipStreamDestroy(stream_);
    (void)hipHostFree(h_dot_);
    (void)hipHostFree(h_rows_);
    for (double* v : {x_, r_, p_, ap_, d_dot_}) (void)hipFree(v);
  }

  void iterate() {
    const dim3 grid(static_cast<unsigned>((n_ + block - 1) / block));
    exchange_p();
    hipLaunchKernelGGL(laplacian_kernel, grid, dim3(block), 0, stream_, p_, ap_, static_cast<unsigned>(nx_), n_);
    const double alpha = rr_ / dot(p_ + nx_, ap_);
    hipLaunchKernelGGL(axpy_kernel, grid, dim3(block), 0, stream_, x_, p_ + nx_, alpha, n_);
    hipLaunchKernelGGL(axpy_kernel, grid, dim3(block), 0, stream_, r_, ap_, -alpha, n_);
    const double rr_next = dot(r_, r_);
    hipLaunchKernelGGL(xpby_kernel, grid, dim3(block), 0, stream_, p_ + nx_, r_, rr_next / rr_, n_);
    rr_ = rr_next;
  }
  void finish() { check(hipStreamSynchronize(stream_), "hipStreamSynchronize"); }
  [[nodiscard]] double residual() const { return std::sqrt(rr_); }

 private:
  double dot(const double* a, const double* b) {
    check(hipMemsetAsync(d_dot_, 0, sizeof(double), stream_), "hipMemsetAsync");
    hipLaunchKernelGGL(dot_kernel, dim3(dot_blocks_), dim3(block), 0, stream_, a, b, n_, d_dot_);
    check(hipMemcpyAsync(h_dot_, d_dot_, sizeof(double), hipMemcpyDeviceToHost, stream_), "hipMemcpyAsync");
    check(hipStreamSynchronize(stream_), "hipStreamSynchronize");
    return ranks_ == 1 ? *h_dot_ : raw_mpi::allreduce_sum(*h_dot_);
  }

  // p's edge rows to the neighbours' ghost rows, through pinned host memory.
  void exchange_p() {
    if (ranks_ == 1) return;
    const std::size_t row = nx_ * sizeof(double);
    double *send_up = h_rows_, *send_down = h_rows_ + nx_, *recv_up = h_rows_ + 2 * nx_, *recv_down = h_rows_ + 3 * nx_;
    check(hipMemcpyAsync(send_up, p_ + nx_, row, hipMemcpyDeviceToHost, stream_), "hipMemcpyAsync");
    check(hipMemcpyAsync(send_down, p_ + n_, row, hipMemcpyDeviceToHost, stream_), "hipMemcpyAsync");
    check(hipStreamSynchronize(stream_), "hipStreamSynchronize");
    raw_mpi::exchange_rows(send_up, recv_up, send_down, recv_down, row);
    if (rank_ > 0) check(hipMemcpyAsync(p_, recv_up, row, hipMemcpyHostToDevice, stream_), "hipMemcpyAsync");
    if (rank_ < ranks_ - 1)
      check(hipMemcpyAsync(p_ + nx_ + n_, recv_down, row, hipMemcpyHostToDevice, stream_), "hipMemcpyAsync");
  }

  std::size_t nx_, n_;
  int rank_, ranks_;
  double *x_ = nullptr, *r_ = nullptr, *p_ = nullptr, *ap_ = nullptr, *d_dot_ = nullptr, *h_dot_ = nullptr,
         *h_rows_ = nullptr;
  hipStream_t stream_ = nullptr;
  unsigned dot_blocks_ = 0;
  double rr_ = 0.0;
};

/// Seconds per iteration of `iterations` calls of step(), then finish() (the wait for the last one).
template <class Step, class Finish>
double per_iteration(int iterations, Step&& step, Finish&& finish) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < iterations; ++i) step();
  finish();
  return std::chrono::duration<double>(clock_type::now() - t0).count() / iterations;
}

/// One row: `iterations` iterations of both solvers on an nx x nx grid, medians of 7 samples after a
/// warm-up one, the slowest rank's time; the solvers must agree on the residual.
row cg_row(const dtl::context& ctx, std::size_t nx, double target, const std::string& raw_name) {
  const int iterations = nx <= 1024 ? 200 : 20;
  std::vector<double> hand_us, dtl_us;
  double hand_residual = 0.0, dtl_residual = 0.0;
  auto timed = [&](auto&& step, auto&& finish) {
    check(ctx.barrier(), "barrier");
    double s = per_iteration(iterations, step, finish);
    if (ctx.size() > 1) s = ctx.allreduce_value(s, dtl::reduce_op::max).value();
    return s;
  };
  for (int sample = 0; sample < 8; ++sample) {
    hand_cg hand(nx, nx, ctx.rank(), ctx.size());
    const double h = timed([&] { hand.iterate(); }, [&] { hand.finish(); });
    cg::solver dtl_cg(ctx, nx, nx);
    const double d = timed([&] { dtl_cg.iterate(); }, [&] { check(ctx.synchronize(), "synchronize"); });
    hand_residual = hand.residual();
    dtl_residual = dtl_cg.residual();
    if (sample == 0) continue;
    hand_us.push_back(1e6 * h);
    dtl_us.push_back(1e6 * d);
  }
  if (std::abs(hand_residual - dtl_residual) > 1e-3 * std::max(hand_residual, 1e-30))
    fail("the hand and DTL solvers disagree: residual " + std::to_string(hand_residual) + " against " +
         std::to_string(dtl_residual));
  char what[160];
  std::snprintf(what, sizeof what, "CG Poisson %zu^2, %d rank(s), us/iter %.1f hand, %.1f DTL", nx, ctx.size(),
                median(hand_us), median(dtl_us));
  // The rate is iterations per millisecond, so that DTL/raw reads as hand time over DTL time.
  return {what, 1e3 / median(hand_us), 1e3 / median(dtl_us), "iterations/ms", raw_name, target};
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("SKIP: no HIP device\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  if (ctx.rank() == 0) warn_if_unoptimized_build();
  std::vector<row> rows;
  if (ctx.size() == 1) {
    const std::size_t largest = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 8192;
    const std::pair<std::size_t, double> grids[] = {{256, 0.90}, {1024, 0.95}, {4096, 0.98}, {8192, 0.98}};
    for (const auto& [nx, target] : grids)
      if (nx <= largest) rows.push_back(cg_row(ctx, nx, target, "the same CG by hand in HIP"));
    report(ctx, rows, "cg-1gpu.csv");
  } else {
    if (1024 % ctx.size() != 0) {
      if (ctx.rank() == 0) std::printf("SKIP: 1024 rows do not split evenly over %d ranks\n", ctx.size());
      return 77;
    }
    rows.push_back(cg_row(ctx, 1024, 0.90, "the same CG by hand in HIP + MPI, staged"));
    report(ctx, rows, "cg-" + std::to_string(ctx.size()) + "ranks.csv");
  }
  return 0;
}
