// SPDX-License-Identifier: MIT
// dtl::context point-to-point and all-to-all on device buffers, the halo exchange, and a 2-D Jacobi
// step (exchange + dtl::stencil_transform), each against the raw calls in the same run, on the same
// buffers. Median of `runs` (default 51) timed calls after warm-up, raw and DTL alternating; every
// timing includes waiting for the GPU, as a caller of a blocking call does.
//
//   DTL_COLLECTIVES=nccl dtl-comm-device-bench [runs]   one rank on the RCCL/NCCL path: send/recv to
//       oneself against raw ncclSend/ncclRecv to oneself in a group, alltoallv against the raw group,
//       the periodic halo self-exchange of one 16384-float row against the raw 4-call group, and a
//       16384^2 float Jacobi step against a hand-written 5-point kernel (+ the raw halo copies)
//   mpirun -n 2 dtl-comm-device-bench [runs]   two ranks sharing the GPU (MPI, staged through pinned
//       memory): sendrecv, alltoallv and the halo exchange against raw MPI staged by hand; global_view
//       get/put of the other rank's device elements (8 B; 1 MiB through its window) against
//       hipMemcpyAsync through the other rank's block opened by hand (HIP IPC)
//
// Prints two tables (rates: higher is better; latencies in microseconds) and writes them as CSV into
// $DTL_BENCH_CSV_DIR. Exits 77 without a GPU.
#include "bench_build.hpp"
#include "bench_support.hpp"
#include "raw_mpi.hpp"

#include <dtl/containers/communication/detail/context_services.hpp>
#include <dtl/dtl.hpp>

#if DTL_CONTAINERS_HAS_NCCL
#include DTL_BENCH_NCCL_HEADER
#endif

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace bench;

struct latency_row {
  std::string what;
  double raw_us;
  double dtl_us;
  std::string raw_name;
  double target_extra_us;  // DTL may take this much longer than raw
};

void report_latency(const dtl::context& ctx, const std::vector<latency_row>& rows, const std::string& csv_name) {
  if (ctx.rank() != 0 || rows.empty()) return;
  std::printf("%-58s %10s %10s %8s %8s\n", "operation (microseconds per call)", "raw", "DTL", "DTL-raw", "target");
  for (const latency_row& r : rows)
    std::printf("%-58s %10.2f %10.2f %8.2f %7s%.2f  (raw = %s)\n", r.what.c_str(), r.raw_us, r.dtl_us,
                r.dtl_us - r.raw_us, "<=", r.target_extra_us, r.raw_name.c_str());
  const char* dir = std::getenv("DTL_BENCH_CSV_DIR");
  const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : ".") + "/" + csv_name;
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fprintf(f, "operation,raw_us,dtl_us,extra_us,target_extra_us,raw_baseline\n");
    for (const latency_row& r : rows)
      std::fprintf(f, "\"%s\",%.3f,%.3f,%.3f,%.2f,\"%s\"\n", r.what.c_str(), r.raw_us, r.dtl_us, r.dtl_us - r.raw_us,
                   r.target_extra_us, r.raw_name.c_str());
    std::fclose(f);
    std::printf("CSV: %s\n", path.c_str());
  }
}

std::string size_name(std::size_t bytes) {
  return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " B";
}

/// A device buffer of `bytes` bytes set to `value` (as bytes).
std::byte* device_bytes(std::size_t bytes, int value) {
  void* p = nullptr;
  check(hipMalloc(&p, std::max<std::size_t>(bytes, 1)), "hipMalloc");
  check(hipMemset(p, value, bytes), "hipMemset");
  return static_cast<std::byte*>(p);
}
std::byte* pinned_bytes(std::size_t bytes) {
  void* p = nullptr;
  check(hipHostMalloc(&p, std::max<std::size_t>(bytes, 1), hipHostMallocDefault), "hipHostMalloc");
  return static_cast<std::byte*>(p);
}

// The 5-point Jacobi update of the owned rows of a row-major grid `w` wide, by hand: `in` and `out`
// point at the first owned element; the row before and the row after are ghosts. Columns 0 and w - 1
// are fixed boundaries.
__global__ void jacobi_raw(const float* in, float* out, std::size_t n, std::size_t w) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t col = i % w;
    out[i] = col == 0 || col == w - 1 ? in[i] : 0.25f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
  }
}

#if DTL_CONTAINERS_HAS_NCCL
struct raw_nccl {
  ncclComm_t comm = nullptr;
  explicit raw_nccl(const dtl::context& ctx) {
    ncclUniqueId id{};
    if (ctx.rank() == 0) ncclGetUniqueId(&id);
    check(ctx.broadcast(&id, 1, 0), "broadcast of the NCCL id");
    auto guard = dtl::hip::device_guard::enter(ctx.device()).value();
    if (ncclCommInitRank(&comm, ctx.size(), id, ctx.rank()) != ncclSuccess) fail("ncclCommInitRank");
  }
  ~raw_nccl() { ncclCommDestroy(comm); }
  void sendrecv(const void* send, void* recv, std::size_t bytes, int peer, hipStream_t s) const {
    if (ncclGroupStart() != ncclSuccess || ncclSend(send, bytes, ncclChar, peer, comm, s) != ncclSuccess ||
        ncclRecv(recv, bytes, ncclChar, peer, comm, s) != ncclSuccess || ncclGroupEnd() != ncclSuccess)
      fail("raw ncclSend/ncclRecv");
  }
};
#endif

void one_rank(const dtl::context& ctx, int runs) {
  std::vector<row> rows;
  std::vector<latency_row> latency;
  auto stream =
      dtl::hip::hip_stream::create(dtl::hip::stream_flags::non_blocking, dtl::stream_priority::normal, ctx.device())
          .value();
  const hipStream_t s = stream.native_handle();
  const bool on_nccl = ctx.device_collective_path() == dtl::collective_path::nccl;
  if (ctx.rank() == 0)
    std::printf("one rank, device collective path %s (%s)\n",
                std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                ctx.device_collective_reason().c_str());
#if DTL_CONTAINERS_HAS_NCCL
  if (on_nccl) {
    const raw_nccl raw(ctx);
    // Point-to-point to oneself: raw is a group of ncclSend + ncclRecv, waited for on the stream.
    for (const std::size_t bytes :
         {std::size_t{8}, std::size_t{1} << 20, std::size_t{64} << 20, std::size_t{256} << 20}) {
      std::byte* a = device_bytes(bytes, 1);
      std::byte* b = device_bytes(bytes, 0);
      const auto [raw_s, dtl_s] = compare(
          ctx, runs,
          [&] {
            raw.sendrecv(a, b, bytes, 0, s);
            check(hipStreamSynchronize(s), "sync");
          },
          [&] { check(ctx.sendrecv(a, bytes, 0, b, bytes, 0, 0), "context sendrecv"); });
      if (bytes < (1u << 20))
        latency.push_back({"sendrecv to oneself, " + size_name(bytes) + " (device, nccl)", raw_s * 1e6, dtl_s * 1e6,
                           "ncclSend+ncclRecv to self, grouped", 1.0});
      else
        rows.push_back({"sendrecv to oneself, " + size_name(bytes) + " (device, nccl)", bytes / raw_s / 1e9,
                        bytes / dtl_s / 1e9, "GB/s", "ncclSend+ncclRecv to self, grouped", 0.95});
      // The same, ordered on the stream (no handshake wait on the device side).
      if (bytes >= (1u << 20)) {
        const auto [raw2, dtl2] = compare(
            ctx, runs,
            [&] {
              raw.sendrecv(a, b, bytes, 0, s);
              check(hipStreamSynchronize(s), "sync");
            },
            [&] {
              auto done = ctx.sendrecv(a, bytes, 0, b, bytes, 0, 0, stream);
              check(hipStreamSynchronize(s), "sync");
              check(done.get_result(), "context sendrecv (stream)");
            });
        rows.push_back({"sendrecv to oneself on a stream, " + size_name(bytes) + " (nccl)", bytes / raw2 / 1e9,
                        bytes / dtl2 / 1e9, "GB/s", "ncclSend+ncclRecv to self, grouped", 0.95});
      }
      // alltoallv: one peer (oneself), the same group underneath.
      const std::vector<std::size_t> counts{bytes}, displs{0};
      const auto [raw3, dtl3] = compare(
          ctx, runs,
          [&] {
            raw.sendrecv(a, b, bytes, 0, s);
            check(hipStreamSynchronize(s), "sync");
          },
          [&] { check(ctx.alltoallv(a, counts, displs, b, counts, displs), "context alltoallv"); });
      if (bytes >= (1u << 20))
        rows.push_back({"alltoallv, 1 rank, " + size_name(bytes) + " per peer (nccl)", bytes / raw3 / 1e9,
                        bytes / dtl3 / 1e9, "GB/s", "grouped ncclSend/ncclRecv", 0.90});
      check(hipFree(a), "hipFree");
      check(hipFree(b), "hipFree");
    }
  }
#endif
  static_cast<void>(on_nccl);

  // The halo of a 16384-wide float grid, one row each way, periodic: on one rank it is its own
  // neighbour. Raw: the two row copies the exchange amounts to (ncclSend/ncclRecv to self on nccl).
  constexpr std::size_t w = 16384;
  constexpr std::size_t rows_total = 16384;
  using grid = dtl::distributed_vector<float, dtl::device_only_runtime>;
  const dtl::halo one_row{.prev = w, .next = w, .periodic = true, .granularity = w};
  grid a(rows_total * w, ctx, one_row), b(rows_total * w, ctx, one_row);
  check(dtl::fill(a, 1.0f), "fill");
  float* raw_a = nullptr;
  float* raw_b = nullptr;
  const std::size_t owned = rows_total * w;
  check(hipMalloc(reinterpret_cast<void**>(&raw_a), (owned + 2 * w) * sizeof(float)), "hipMalloc");
  check(hipMalloc(reinterpret_cast<void**>(&raw_b), (owned + 2 * w) * sizeof(float)), "hipMalloc");
  check(hipMemset(raw_a, 0, (owned + 2 * w) * sizeof(float)), "hipMemset");
  check(hipMemset(raw_b, 0, (owned + 2 * w) * sizeof(float)), "hipMemset");
  auto raw_halo = [&](float* base) {  // base: the first ghost; owned rows start at base + w
    check(hipMemcpyAsync(base, base + owned, w * sizeof(float), hipMemcpyDeviceToDevice, s), "hipMemcpyAsync");
    check(hipMemcpyAsync(base + w + owned, base + w, w * sizeof(float), hipMemcpyDeviceToDevice, s), "hipMemcpyAsync");
  };
  {
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {
          raw_halo(raw_a);
          check(hipStreamSynchronize(s), "sync");
        },
        [&] {
          // Timed as the raw group is, to its end: the exchange is stream-ordered (it returns once enqueued).
          check(a.halo().exchange(), "halo exchange");
          check(ctx.synchronize(), "synchronize");
        });
    latency.push_back({"halo exchange, 1 row of 16384 float each way, periodic, 1 rank (" +
                           std::string(dtl::collective_path_name(ctx.device_collective_path())) + ")",
                       raw_s * 1e6, dtl_s * 1e6, "two hipMemcpyAsync D2D row copies", 10.0 - raw_s * 1e6});
    // As a solver's time step meets it: exchanges back to back (each stream-ordered, returning once
    // enqueued), one wait at the end, time per exchange. The goal of <= 10 us a call is for this form:
    // the row above is bounded below by a launch and a host wait.
    constexpr int batch = 32;
    const auto [raw_b_s, dtl_b_s] = compare(
        ctx, runs,
        [&] {
          for (int i = 0; i < batch; ++i) raw_halo(raw_a);
          check(hipStreamSynchronize(s), "sync");
        },
        [&] {
          for (int i = 0; i < batch; ++i) check(a.halo().exchange(), "halo exchange");
          check(ctx.synchronize(), "synchronize");
        });
    latency.push_back({"halo exchange, 1 row of 16384 float, 1 rank, 32 back to back, per call", raw_b_s / batch * 1e6,
                       dtl_b_s / batch * 1e6, "two hipMemcpyAsync D2D row copies, 32 back to back",
                       10.0 - raw_b_s / batch * 1e6});
  }
  // The Jacobi step: exchange, then the 5-point update of every owned element.
  {
    const float* a_base = a.local_data();
    const float* b_base = b.local_data();
    std::size_t width = w;  // captured: clang warns when a lambda captures a constexpr
    const auto from_a = [a_base, width] __device__(const float* p) {
      const std::size_t col = static_cast<std::size_t>(p - a_base) % width;
      return col == 0 || col == width - 1 ? *p
                                          : 0.25f * (p[-1] + p[1] + p[-static_cast<std::ptrdiff_t>(width)] + p[width]);
    };
    const auto from_b = [b_base, width] __device__(const float* p) {
      const std::size_t col = static_cast<std::size_t>(p - b_base) % width;
      return col == 0 || col == width - 1 ? *p
                                          : 0.25f * (p[-1] + p[1] + p[-static_cast<std::ptrdiff_t>(width)] + p[width]);
    };
    bool dtl_flip = false, raw_flip = false;
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {
          float* in = raw_flip ? raw_b : raw_a;
          float* out = raw_flip ? raw_a : raw_b;
          raw_halo(in);
          jacobi_raw<<<4096, 256, 0, s>>>(in + w, out + w, owned, w);
          check(hipGetLastError(), "jacobi_raw launch");
          check(hipStreamSynchronize(s), "sync");
          raw_flip = !raw_flip;
        },
        [&] {
          if (!dtl_flip) {
            check(a.halo().exchange(), "halo exchange");
            check(dtl::stencil_transform(a, b, from_a), "stencil_transform");
          } else {
            check(b.halo().exchange(), "halo exchange");
            check(dtl::stencil_transform(b, a, from_b), "stencil_transform");
          }
          check(ctx.synchronize(), "synchronize");  // to the step's end, as the raw step is timed
          dtl_flip = !dtl_flip;
        });
    const double bytes = 2.0 * owned * sizeof(float);  // one read and one write of the grid
    rows.push_back({"Jacobi step 16384^2 float (exchange + stencil_transform)", bytes / raw_s / 1e12,
                    bytes / dtl_s / 1e12, "TB/s read+write", "hand-written 5-point kernel + the halo copies", 0.95});
    // The card's copy bandwidth beside it.
    const double copy_s = seconds(ctx, runs, [&] {
      check(hipMemcpyAsync(raw_b, raw_a, owned * sizeof(float), hipMemcpyDeviceToDevice, s), "hipMemcpyAsync");
      check(hipStreamSynchronize(s), "sync");
    });
    rows.push_back({"  (D2D copy of the same 1 GiB, for scale)", bytes / copy_s / 1e12, bytes / copy_s / 1e12,
                    "TB/s read+write", "hipMemcpy D2D", 0.0});
  }
  check(hipFree(raw_a), "hipFree");
  check(hipFree(raw_b), "hipFree");
  report(ctx, rows, "comm-device-1rank.csv");
  report_latency(ctx, latency, "comm-device-1rank-latency.csv");
}

/// global_view get/put of one element to the other rank's device block (8 B) and the device window under
/// it (1 MiB, to and from pinned memory), through HIP IPC, against hipMemcpyAsync + hipStreamSynchronize
/// through the other rank's block opened by hand (hipIpcOpenMemHandle).
void one_sided_ipc(const dtl::context& ctx, int runs, std::vector<row>& rows, std::vector<latency_row>& latency) {
  constexpr std::size_t mib = std::size_t{1} << 20, per_rank = mib / sizeof(double);
  const int me = ctx.rank(), peer = 1 - me;
  dtl::distributed_vector<double, dtl::device_only_runtime> v(2 * per_rank, 1.0 + me, ctx);
  auto g = v.global_view();
  const std::size_t theirs = v.partition().local_range(peer).value().begin;
  auto opened = dtl::detail::open_device_window(ctx, v.device_id(), v.local_data(), mib);
  if (!opened) fail("open_device_window: " + opened.error().to_string());
  const std::shared_ptr<dtl::detail::window> w = *opened;
  // The raw side: the other rank's block, opened by hand (the vector's space gives whole hipMalloc blocks).
  hipIpcMemHandle_t mine{}, other{};
  check(hipIpcGetMemHandle(&mine, v.local_data()), "hipIpcGetMemHandle");
  raw_mpi::sendrecv(&mine, &other, sizeof mine, peer);
  void* opened_raw = nullptr;
  check(hipIpcOpenMemHandle(&opened_raw, other, hipIpcMemLazyEnablePeerAccess), "hipIpcOpenMemHandle");
  auto* remote = static_cast<std::byte*>(opened_raw);
  hipStream_t stream = nullptr;
  check(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking), "hipStreamCreateWithFlags");
  const auto raw_copy = [&](void* dst, const void* src, std::size_t bytes) {
    check(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, stream), "hipMemcpyAsync");
    check(hipStreamSynchronize(stream), "hipStreamSynchronize");
  };
  auto ok = [](const dtl::status& s, const char* what) {
    if (!s.ok()) fail(std::string(what) + ": " + s.to_string());
  };

  double x = 0;
  const auto [raw_get, dtl_get] = compare(
      ctx, runs, [&] { raw_copy(&x, remote + sizeof(double), sizeof(double)); },
      [&] { x = g[theirs + 1].get().value(); });
  const auto [raw_put, dtl_put] = compare(
      ctx, runs, [&] { raw_copy(remote + sizeof(double), &x, sizeof(double)); },
      [&] {
        if (auto put = g[theirs + 1].put(x); !put) ok(put.error(), "global_view put");
      });
  const std::string where = ", the other rank's device block, 2 ranks sharing the GPU (IPC)";
  latency.push_back({"global_view get, 8 B" + where, raw_get * 1e6, dtl_get * 1e6, "hipMemcpyAsync + sync (IPC)", 2.0});
  latency.push_back({"global_view put, 8 B" + where, raw_put * 1e6, dtl_put * 1e6, "hipMemcpyAsync + sync (IPC)", 2.0});

  std::byte* host = pinned_bytes(mib);
  const auto [raw_big_get, dtl_big_get] = compare(
      ctx, runs, [&] { raw_copy(host, remote, mib); }, [&] { ok(w->get(peer, 0, host, mib), "window get"); });
  const auto [raw_big_put, dtl_big_put] = compare(
      ctx, runs, [&] { raw_copy(remote, host, mib); }, [&] { ok(w->put(peer, 0, host, mib), "window put"); });
  rows.push_back({"global_view's window get, 1 MiB to pinned" + where, mib / raw_big_get / 1e9, mib / dtl_big_get / 1e9,
                  "GB/s", "hipMemcpyAsync + sync (IPC)", 0.95});
  rows.push_back({"global_view's window put, 1 MiB from pinned" + where, mib / raw_big_put / 1e9,
                  mib / dtl_big_put / 1e9, "GB/s", "hipMemcpyAsync + sync (IPC)", 0.95});

  raw_mpi::barrier();  // every access is done before the mappings go
  check(hipIpcCloseMemHandle(opened_raw), "hipIpcCloseMemHandle");
  check(hipStreamDestroy(stream), "hipStreamDestroy");
  check(hipHostFree(host), "hipHostFree");
  w->release();  // collective
}

void two_ranks_sharing(const dtl::context& ctx, int runs) {
  std::vector<row> rows;
  std::vector<latency_row> latency;
  const int me = ctx.rank(), peer = 1 - me;
  if (me == 0)
    std::printf("%d ranks, device collective path %s (%s)\n", ctx.size(),
                std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                ctx.device_collective_reason().c_str());
  if (!raw_mpi::available()) fail("MPI is not running");
  for (const std::size_t bytes : {std::size_t{8}, std::size_t{1} << 20, std::size_t{64} << 20}) {
    std::byte* a = device_bytes(bytes, 1 + me);
    std::byte* b = device_bytes(bytes, 0);
    std::byte* ha = pinned_bytes(bytes);
    std::byte* hb = pinned_bytes(bytes);
    // Raw: what a HIP user without a GPU-aware MPI writes: copy out, MPI, copy in.
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {
          check(hipMemcpy(ha, a, bytes, hipMemcpyDeviceToHost), "hipMemcpy");
          raw_mpi::sendrecv(ha, hb, bytes, peer);
          check(hipMemcpy(b, hb, bytes, hipMemcpyHostToDevice), "hipMemcpy");
        },
        [&] { check(ctx.sendrecv(a, bytes, peer, b, bytes, peer, 0), "context sendrecv"); });
    if (bytes < (1u << 20))
      latency.push_back({"sendrecv, 2 ranks sharing the GPU, " + size_name(bytes) + " (device, staged)", raw_s * 1e6,
                         dtl_s * 1e6, "hipMemcpy + MPI_Sendrecv + hipMemcpy", 1.0});
    else
      rows.push_back({"sendrecv, 2 ranks sharing the GPU, " + size_name(bytes) + " (device, staged)",
                      bytes / raw_s / 1e9, bytes / dtl_s / 1e9, "GB/s", "hipMemcpy + MPI_Sendrecv + hipMemcpy", 0.95});
    // alltoallv: `bytes` to each of the two ranks.
    std::byte* a2 = device_bytes(2 * bytes, 1 + me);
    std::byte* b2 = device_bytes(2 * bytes, 0);
    std::byte* ha2 = pinned_bytes(2 * bytes);
    std::byte* hb2 = pinned_bytes(2 * bytes);
    const std::vector<std::size_t> counts{bytes, bytes}, displs{0, bytes};
    const auto [raw2, dtl2] = compare(
        ctx, runs,
        [&] {
          check(hipMemcpy(ha2, a2, 2 * bytes, hipMemcpyDeviceToHost), "hipMemcpy");
          raw_mpi::alltoall(ha2, hb2, bytes);
          check(hipMemcpy(b2, hb2, 2 * bytes, hipMemcpyHostToDevice), "hipMemcpy");
        },
        [&] { check(ctx.alltoallv(a2, counts, displs, b2, counts, displs), "context alltoallv"); });
    if (bytes >= (1u << 20))
      rows.push_back({"alltoallv, 2 ranks sharing the GPU, " + size_name(bytes) + " per peer (staged)",
                      2 * bytes / raw2 / 1e9, 2 * bytes / dtl2 / 1e9, "GB/s", "hipMemcpy + MPI_Alltoallv + hipMemcpy",
                      0.90});
    for (std::byte* p : {a, b, a2, b2}) check(hipFree(p), "hipFree");
    for (std::byte* p : {ha, hb, ha2, hb2}) check(hipHostFree(p), "hipHostFree");
  }
  // The halo of a 16384-wide float grid, one row each way, periodic over the two ranks.
  {
    constexpr std::size_t w = 16384;
    using grid = dtl::distributed_vector<float, dtl::device_only_runtime>;
    grid g(64 * w, ctx, dtl::halo{.prev = w, .next = w, .periodic = true, .granularity = w});
    float* base = g.local_data();
    const std::size_t owned = g.local_size();
    std::byte* h = pinned_bytes(4 * w * sizeof(float));
    const std::size_t row_bytes = w * sizeof(float);
    const auto [raw_s, dtl_s] = compare(
        ctx, runs,
        [&] {  // both neighbours are the other rank: edges out, ghosts in
          check(hipMemcpy(h, base, row_bytes, hipMemcpyDeviceToHost), "hipMemcpy");
          check(hipMemcpy(h + row_bytes, base + owned - w, row_bytes, hipMemcpyDeviceToHost), "hipMemcpy");
          raw_mpi::sendrecv(h, h + 2 * row_bytes, 2 * row_bytes, peer);
          check(hipMemcpy(base - w, h + 3 * row_bytes, row_bytes, hipMemcpyHostToDevice), "hipMemcpy");
          check(hipMemcpy(base + owned, h + 2 * row_bytes, row_bytes, hipMemcpyHostToDevice), "hipMemcpy");
        },
        [&] {
          check(g.halo().exchange(), "halo exchange");
          check(ctx.synchronize(), "synchronize");  // the ghosts' last copies, as the raw hipMemcpy waits
        });
    latency.push_back({"halo exchange, 1 row of 16384 float each way, 2 ranks sharing the GPU (staged)", raw_s * 1e6,
                       dtl_s * 1e6, "hipMemcpy x4 + MPI_Sendrecv", 1.0});
    check(hipHostFree(h), "hipHostFree");
  }
  one_sided_ipc(ctx, runs, rows, latency);
  report(ctx, rows, "comm-device-2ranks.csv");
  report_latency(ctx, latency, "comm-device-2ranks-latency.csv");
}

}  // namespace

int main(int argc, char** argv) {
  dtl::environment env(argc, argv);
  const int runs = argc > 1 ? std::max(5, std::atoi(argv[1])) : 51;
  if (dtl::hip::device_count() == 0) {
    if (env.rank() == 0) std::printf("SKIP: no GPU\n");
    return 77;
  }
  const dtl::context ctx = env.make_world_context();
  if (ctx.rank() == 0) warn_if_unoptimized_build();
  if (ctx.size() == 1)
    one_rank(ctx, runs);
  else if (ctx.size() == 2)
    two_ranks_sharing(ctx, runs);
  else if (ctx.rank() == 0)
    std::printf("SKIP: one or two ranks\n");
  return ctx.size() <= 2 ? 0 : 77;
}
