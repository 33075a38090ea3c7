// SPDX-License-Identifier: MIT
// The distributed sort against the vendor's radix sort (CUB DeviceRadixSort on NVIDIA, rocPRIM
// radix_sort on AMD), in the same run, on the same data. Every repetition sorts the same unsorted input:
// it is copied in before each timed call (not timed, and finished before the timer starts), the sort
// itself is timed up to the GPU's finish; raw and DTL both run on a non-blocking stream.
// Median of `runs` (default 11), raw and DTL alternating.
//
//   dtl-sort-bench [runs]                 one rank: 2^28 uint32, 2^28 uint64, 2^28 uint32 key-value pairs
//   mpirun -n 2 dtl-sort-bench [runs]     two ranks (sharing a GPU, or one each): 2^28 uint32 keys in all;
//                                         raw = each rank radix-sorting its own 2^27 (no exchange)
//
// Prints a table (raw, DTL, DTL/raw, target) and writes it as CSV into $DTL_BENCH_CSV_DIR (default .).
// Exits 77 without a GPU.
#include "bench_build.hpp"
#include "bench_support.hpp"

#include <dtl/dtl.hpp>

#if defined(__CUDACC__)
#include <cub/device/device_radix_sort.cuh>
#else
#include <rocprim/rocprim.hpp>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace bench;

const char* vendor() {
#if defined(__CUDACC__)
  return "CUB DeviceRadixSort";
#else
  return "rocPRIM radix_sort";
#endif
}

/// The raw call: keys (and values) from in to out; temp == nullptr asks for the storage size.
template <class K>
hipError_t raw_sort_keys(void* temp, std::size_t& bytes, const K* in, K* out, std::size_t n, hipStream_t s) {
#if defined(__CUDACC__)
  return hipCUDAErrorTohipError(
      cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, static_cast<int>(n), 0, int(sizeof(K) * 8), s));
#else
  return rocprim::radix_sort_keys(temp, bytes, in, out, n, 0, sizeof(K) * 8, s);
#endif
}
template <class K, class V>
hipError_t raw_sort_pairs(void* temp, std::size_t& bytes, const K* kin, K* kout, const V* vin, V* vout, std::size_t n,
                          hipStream_t s) {
#if defined(__CUDACC__)
  return hipCUDAErrorTohipError(cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, static_cast<int>(n),
                                                                0, int(sizeof(K) * 8), s));
#else
  return rocprim::radix_sort_pairs(temp, bytes, kin, kout, vin, vout, n, 0, sizeof(K) * 8, s);
#endif
}

/// Random keys from a hash of the index (the same on every run).
template <class K>
void random_keys(dtl::distributed_vector<K, dtl::device_only_runtime>& v, std::uint64_t seed) {
  check(dtl::for_each_indexed(v,
                              [seed] __device__(std::size_t i, K & x) {
                                std::uint64_t z = (i + seed) * 0x9e3779b97f4a7c15ull;
                                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                                z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                                x = static_cast<K>(z ^ (z >> 31));
                              }),
        "random keys");
}

/// Alternating timed calls of raw and DTL, each after an untimed refresh of its input: {raw, dtl} seconds.
template <class Refresh, class Raw, class Dtl>
std::pair<double, double> timed(const dtl::context& ctx, int runs, Refresh refresh, Raw raw, Dtl dtl_body) {
  std::vector<double> r, d;
  for (int i = 0; i < runs + 2; ++i) {
    refresh();
    const double tr = once(ctx, raw);
    refresh();
    const double td = once(ctx, dtl_body);
    if (i >= 2) {  // two warm-up rounds
      r.push_back(tr);
      d.push_back(td);
    }
  }
  return {median(r), median(d)};
}

/// The untimed refresh: a device-to-device hipMemcpy returns before the copy ends, so wait for the
/// device, or the copy would still run under the timed sort.
void copy_device(void* dst, const void* src, std::size_t bytes) {
  check(hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice), "hipMemcpy");
  check(hipDeviceSynchronize(), "hipDeviceSynchronize");
}

template <class K>
row keys_row(const dtl::context& ctx, int runs, std::size_t n, const char* what, double target) {
  using vector = dtl::distributed_vector<K, dtl::device_only_runtime>;
  vector src(n, ctx), keys(n, ctx), out(n, ctx);
  random_keys(src, 12345 + static_cast<std::uint64_t>(ctx.rank()) * n);
  const std::size_t local = src.local_size();
  hipStream_t s = nullptr;
  check(hipStreamCreateWithFlags(&s, hipStreamNonBlocking), "hipStreamCreate");
  std::size_t bytes = 0;
  check(raw_sort_keys<K>(nullptr, bytes, src.local_data(), out.local_data(), local, s), "raw sort (size)");
  void* temp = nullptr;
  check(hipMalloc(&temp, bytes), "hipMalloc");
  const auto [raw, dtl_s] = timed(
      ctx, runs, [&] { copy_device(keys.local_data(), src.local_data(), local * sizeof(K)); },
      [&] {
        check(raw_sort_keys<K>(temp, bytes, src.local_data(), out.local_data(), local, s), "raw sort");
        check(hipStreamSynchronize(s), "sync");
      },
      [&] {
        check(dtl::sort(keys), "dtl::sort");
        check(ctx.synchronize(), "synchronize");  // the sort is enqueued: time it to the GPU's finish
      });
  if (!dtl::is_sorted(keys)) fail("dtl::sort left the keys unsorted");
  check(hipFree(temp), "hipFree");
  check(hipStreamDestroy(s), "hipStreamDestroy");
  const double g = static_cast<double>(n) / 1e9;
  return {what, g / raw, g / dtl_s, "GKeys/s", vendor(), target};
}

row pairs_row(const dtl::context& ctx, int runs, std::size_t n) {
  using vector = dtl::distributed_vector<std::uint32_t, dtl::device_only_runtime>;
  vector src_k(n, ctx), src_v(n, ctx), keys(n, ctx), values(n, ctx), out_k(n, ctx), out_v(n, ctx);
  random_keys(src_k, 777);
  random_keys(src_v, 999);
  const std::size_t local = src_k.local_size();
  hipStream_t s = nullptr;
  check(hipStreamCreateWithFlags(&s, hipStreamNonBlocking), "hipStreamCreate");
  std::size_t bytes = 0;
  check(raw_sort_pairs(nullptr, bytes, src_k.local_data(), out_k.local_data(), src_v.local_data(), out_v.local_data(),
                       local, s),
        "raw pairs (size)");
  void* temp = nullptr;
  check(hipMalloc(&temp, bytes), "hipMalloc");
  const auto [raw, dtl_s] = timed(
      ctx, runs,
      [&] {
        copy_device(keys.local_data(), src_k.local_data(), local * 4);
        copy_device(values.local_data(), src_v.local_data(), local * 4);
      },
      [&] {
        check(raw_sort_pairs(temp, bytes, src_k.local_data(), out_k.local_data(), src_v.local_data(),
                             out_v.local_data(), local, s),
              "raw pairs");
        check(hipStreamSynchronize(s), "sync");
      },
      [&] {
        check(dtl::sort_by_key(keys, values), "dtl::sort_by_key");
        check(ctx.synchronize(), "synchronize");
      });
  check(hipFree(temp), "hipFree");
  check(hipStreamDestroy(s), "hipStreamDestroy");
  const double g = static_cast<double>(n) / 1e9;
  return {"sort_by_key 2^28 uint32 keys + uint32 values", g / raw, g / dtl_s, "GPairs/s", vendor(), 0.97};
}

}  // namespace

int main(int argc, char** argv) {
  if (dtl::hip::device_count() == 0) {
    std::printf("no HIP device: skipping the sort benchmark\n");
    return 77;
  }
  dtl::environment env(argc, argv);
  const auto ctx = env.make_world_context();
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 11;
  if (ctx.rank() == 0) {
    warn_if_unoptimized_build();
    const auto props = dtl::hip::get_device_properties(ctx.device()).value();
    std::printf("sort benchmark: %d rank(s), rank 0 on %s (%s), %s build, median of %d runs\n", ctx.size(),
                props.name.c_str(), props.arch.c_str(), DTL_BENCH_BUILD, runs);
    std::printf("device collectives: %s (%s)\n",
                std::string(dtl::collective_path_name(ctx.device_collective_path())).c_str(),
                ctx.device_collective_reason().c_str());
  }
  const std::size_t n = std::size_t{1} << 28;
  std::vector<row> rows;
  if (ctx.size() == 1) {
    rows.push_back(keys_row<std::uint32_t>(ctx, runs, n, "sort 2^28 uint32", 0.97));
    rows.push_back(keys_row<std::uint64_t>(ctx, runs, n, "sort 2^28 uint64", 0.97));
    rows.push_back(pairs_row(ctx, runs, n));
    report(ctx, rows, "sort-1gpu.csv");
  } else {
    // Informational: the exchange's cost over each rank's local sort (no target; keys/s is the figure).
    rows.push_back(
        keys_row<std::uint32_t>(ctx, runs, n, "sort 2^28 uint32 over the ranks (raw: local 2^28/p each)", 0.0));
    report(ctx, rows, "sort-" + std::to_string(ctx.size()) + "ranks.csv");
  }
  return 0;
}
