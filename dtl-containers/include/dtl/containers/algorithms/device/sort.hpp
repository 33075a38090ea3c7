// SPDX-License-Identifier: MIT
#pragma once
// The device path of the distributed sort (device placements): host_sort.hpp's sample sort with every
// element staying on the GPU. Not for users.
//
//   1. local sort: radix (CUB / rocPRIM) for std::less / std::greater on arithmetic keys, else a stable
//      merge sort; alternate buffers and temporary storage from the lane's scratch;
//   2. the splitter rounds of host_sort.hpp (sort_rounds.hpp), with the block's work on the device:
//      samples taken by a kernel and copied to the host; samples sorted on the device by comp (which
//      may be device-only), their order copied back; the splitter arithmetic on the host;
//   3. a kernel cuts the block at the splitters (two binary searches each): one small device-to-host
//      copy of the ranks - 1 cuts; counts all to all; the buckets by alltoallv on device buffers (the
//      context's device path) into a receive buffer from the vector's own memory space;
//   4. the received runs sorted again as one range (radix, or the stable merge sort), which keeps equal
//      keys in rank order;
//   5. the neighbour shift by alltoallv back to the old sizes (layout_moves.hpp).
// On several ranks blocking under every policy (the counts go through the host); on one rank the local
// sort is left on the stream as any call whose result stays on the device (outcome.hpp).

#include <dtl/containers/algorithms/detail/host_sort.hpp>
#include <dtl/containers/algorithms/detail/outcome.hpp>
#include <dtl/containers/algorithms/detail/sort_plan.hpp>
#include <dtl/containers/algorithms/detail/sort_rounds.hpp>
#include <dtl/containers/communication/context.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/detail/layout_moves.hpp>
#include <dtl/containers/detail/segment_ops.hpp>
#include <dtl/containers/algorithms/device/support.hpp>
#include <dtl/containers/placement_traits.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/try.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <numeric>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#if DTL_CONTAINERS_DEVICE_ALGORITHMS
#include <dtl/containers/algorithms/device/sort_kernels.hpp>
#endif

namespace dtl::detail::device {

#if DTL_CONTAINERS_DEVICE_ALGORITHMS

/// Device memory of a vector's memory space for the length of one sort (freed on every path).
template <class P>
struct sort_buffer {
  segment_allocation storage;
  static result<sort_buffer> make(int device, std::size_t bytes) {
    if (bytes == 0) return sort_buffer{};
    DTL_ASSIGN_OR_RETURN(auto space, placement_traits<P>::space(device));
    DTL_ASSIGN_OR_RETURN(void* data, space->allocate(bytes, 256));
    return sort_buffer{segment_allocation(std::move(space), data, bytes)};
  }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(storage.data());
  }
};

/// Sorts keys[0, n) (and values alongside, when V is not void) on the device, by comp.
template <class K, class V, class Comp>
status device_local_sort(K* keys, V* values, std::size_t n, const Comp& comp, gpu::device_scratch& scratch,
                         hipStream_t stream) {
  using Val = std::conditional_t<std::is_void_v<V>, unsigned char, V>;
  Val* vals = nullptr;
  if constexpr (!std::is_void_v<V>) vals = values;
  constexpr int radix = radix_order<Comp, K>();
  if constexpr (radix != 0)
    return gpu::radix_sort(keys, vals, n, radix == 2, scratch, stream);
  else
    return gpu::merge_sort(keys, vals, n, to_portable(comp), scratch, stream);
}

/// Copies `bytes` between two device buffers on `stream`.
inline status device_copy(void* dst, const void* src, std::size_t bytes, hipStream_t stream) {
  if (bytes == 0) return {};
  DTL_HIP_TRY(hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, stream));
  return {};
}

/// Copies `count` Ts from the host to device memory on `stream`.
template <class T>
status upload(T* device_ptr, const T* host, std::size_t count, hipStream_t stream) {
  if (count == 0) return {};
  DTL_HIP_TRY(hipMemcpyAsync(device_ptr, host, count * sizeof(T), hipMemcpyHostToDevice, stream));
  return {};
}

/// The splitter rounds' access to this rank's sorted block keys[0, n) on the device (sort_rounds.hpp's
/// Ops): kernels over the block, the small arrays (samples, their order, points, cuts) in the scratch's
/// result slot, copied to and from the host.
template <class K, class DeviceComp>
struct device_sort_ops {
  const K* keys;
  std::size_t n, me;
  DeviceComp comp;
  gpu::device_scratch& scratch;
  hipStream_t stream;
  static constexpr bool fallible = true;

  /// The result slot cut in two arrays of `first` As and `second` Bs.
  template <class A, class B>
  result<std::pair<A*, B*>> slot(std::size_t first, std::size_t second) {
    const std::size_t first_bytes = gpu::primitives_detail::aligned(first * sizeof(A));
    DTL_ASSIGN_OR_RETURN(void* base, scratch.result_slot(first_bytes + second * sizeof(B)));
    auto* bytes = static_cast<unsigned char*>(base);
    return std::pair<A*, B*>{reinterpret_cast<A*>(bytes), reinterpret_cast<B*>(bytes + first_bytes)};
  }
  status take(std::span<const std::size_t> positions, K* out) {
    if (positions.empty()) return {};
    DTL_ASSIGN_OR_RETURN(const auto arrays, (slot<std::size_t, K>(positions.size(), positions.size())));
    DTL_TRY(upload(arrays.first, positions.data(), positions.size(), stream));
    DTL_TRY(gpu::launch_each(positions.size(), gather_body<K>{keys, arrays.first, arrays.second}, stream,
                             "sort: sample kernel launch"));
    return read_back(out, arrays.second, positions.size(), stream);
  }
  /// A stable sort of (key, index) pairs by comp.
  status order(const std::vector<K>& samples, std::vector<std::size_t>& order) {
    order.resize(samples.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (samples.empty()) return {};
    DTL_ASSIGN_OR_RETURN(const auto arrays, (slot<K, std::size_t>(samples.size(), samples.size())));
    DTL_TRY(upload(arrays.first, samples.data(), samples.size(), stream));
    DTL_TRY(upload(arrays.second, order.data(), order.size(), stream));
    DTL_TRY(gpu::merge_sort(arrays.first, arrays.second, samples.size(), comp, scratch, stream));
    return read_back(order.data(), arrays.second, order.size(), stream);
  }
  status cut(std::span<const sort_plan::keyed_point<K>> points, std::size_t* cuts) {
    if (n == 0) {
      std::fill(cuts, cuts + points.size(), std::size_t{0});
      return {};
    }
    if (points.empty()) return {};
    DTL_ASSIGN_OR_RETURN(const auto arrays,
                         (slot<sort_plan::keyed_point<K>, std::size_t>(points.size(), points.size())));
    DTL_TRY(upload(arrays.first, points.data(), points.size(), stream));
    DTL_TRY(gpu::launch_each(points.size(), cut_body<K, DeviceComp>{keys, n, me, arrays.first, comp, arrays.second},
                             stream, "sort: cut kernel launch"));
    return read_back(cuts, arrays.second, points.size(), stream);
  }
};

/// The distributed sort of keys[0, n) on every rank (values alongside when V is not void), on the
/// device of the caller's vector. P is the vector's placement (its memory space holds the receive buffers).
/// The outcome is of result<void>, or with Traffic of result<sort_traffic> (what this rank moved).
template <bool Stable, class P, bool Traffic = false, class Policy, class K, class V, class Comp>
auto sort(const Policy& policy, const context& ctx, int device, K* keys, V* values, std::size_t n, Comp comp) {
  using Pol = std::remove_cvref_t<Policy>;
  using R = std::conditional_t<Traffic, sort_traffic, void>;
  // Stable or not, the device sorts here are stable (radix sorts are, and the merge sort is).
  constexpr bool has_values = !std::is_void_v<V>;
  using Val = std::conditional_t<has_values, V, unsigned char>;
  const bool many = ctx.size() > 1;
  auto agreed = [&](const status& local, const char* what) { return agree_before(many, ctx, local, what); };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, R>(agreed(session.error(), "sort (the local sorts)"));
  const hipStream_t stream = session->stream;
  gpu::device_scratch& scratch = *session->scratch;

  auto compute = [&]() -> result<sort_traffic> {
    const status sorted_here = device_local_sort(keys, values, n, comp, scratch, stream);
    sort_traffic traffic;
    if (!many) {
      DTL_TRY(sorted_here);
      return traffic;
    }
    const std::size_t p = static_cast<std::size_t>(ctx.size()), me = static_cast<std::size_t>(ctx.rank());
    device_sort_ops<K, decltype(to_portable(comp))> ops{keys, n, me, to_portable(comp), scratch, stream};
    // Round one of the splitters carries a failed local sort to every rank.
    auto found = find_cuts<K>(ctx, n, sorted_here, ops);
    if (found && layout_offsets(found->sizes).back() == 0) return traffic;
    DTL_TRY(agreed(found ? status{} : found.error(), "sort (the splitters)"));
    const std::vector<std::size_t>& sizes = found->sizes;
    const std::vector<std::size_t> offsets = layout_offsets(sizes);
    traffic.rounds = found->rounds;
    const sort_plan::bucket_counts send = sort_plan::buckets_from_cuts(found->cuts, n);
    std::vector<std::size_t> recv_counts(p);
    DTL_TRY(ctx.alltoall(send.counts.data(), recv_counts.data(), 1));
    const std::vector<std::size_t> recv_displs = sort_plan::displacements(recv_counts);
    const std::size_t received = recv_displs.back() + recv_counts.back();

    // The bucket, in the vector's memory space (its buffers then take one path in the alltoallv).
    auto bucket_keys = sort_buffer<P>::make(device, received * sizeof(K));
    auto bucket_values = sort_buffer<P>::make(device, has_values ? received * sizeof(Val) : 0);
    DTL_TRY(agreed(!bucket_keys     ? bucket_keys.error()
                   : !bucket_values ? bucket_values.error()
                                    : status{},
                   "sort (the receive buffer)"));
    K* bk = bucket_keys->template as<K>();
    Val* bv = bucket_values->template as<Val>();
    DTL_TRY(ctx.alltoallv(keys, send.counts, send.displs, bk, recv_counts, recv_displs));
    if constexpr (has_values) DTL_TRY(ctx.alltoallv(values, send.counts, send.displs, bv, recv_counts, recv_displs));
    count_traffic(traffic, me, send.counts, recv_counts);

    // The received runs, in rank order, sorted as one range (stable: equal keys stay in rank order).
    const status merged = [&]() -> status {
      if constexpr (has_values)
        DTL_TRY(device_local_sort(bk, bv, received, comp, scratch, stream));
      else
        DTL_TRY(device_local_sort(bk, static_cast<void*>(nullptr), received, comp, scratch, stream));
      return hip::stream_ref(stream).synchronize().error();
    }();
    DTL_TRY(agreed(merged, "sort (merging the received runs)"));

    // The neighbour shift back to the sizes the ranks had.
    std::vector<std::size_t> bucket_sizes(p);
    DTL_TRY(ctx.allgather(&received, bucket_sizes.data(), 1));
    if (bucket_sizes == sizes) {
      DTL_TRY(device_copy(keys, bk, n * sizeof(K), stream));
      if constexpr (has_values) DTL_TRY(device_copy(values, bv, n * sizeof(Val), stream));
      DTL_TRY(hip::stream_ref(stream).synchronize());
      return traffic;
    }
    const layout_moves moves = moves_between(layout_offsets(bucket_sizes), offsets, me);
    DTL_TRY(ctx.alltoallv(bk, moves.send_counts, moves.send_displs, keys, moves.recv_counts, moves.recv_displs));
    if constexpr (has_values)
      DTL_TRY(ctx.alltoallv(bv, moves.send_counts, moves.send_displs, values, moves.recv_counts, moves.recv_displs));
    count_traffic(traffic, me, moves.send_counts, moves.recv_counts);
    return traffic;
  };
  auto done = compute();
  if (!done) return failed_outcome<Pol, R>(std::move(done).error());
  if constexpr (Traffic) {
    return outcome_on_stream<Pol>(*session->lane, stream, [traffic = *done](result<void> sorted) -> result<R> {
      if (!sorted) return std::move(sorted).error();
      return traffic;
    });
  } else {
    return outcome_on_stream<Pol>(*session->lane, stream, nothing_to_read{});
  }
}

/// Whether a sort under Policy of K keys by Comp may adopt its alternate buffer (sort_adopting): a radix
/// sort on the lane's stream (the vector's spare block is ordered by that stream alone).
template <class Policy, class K, class Comp>
inline constexpr bool adopts_alternate_v = radix_order<Comp, K>() != 0 && !is_on_stream_v<Policy>;

/// One rank's radix sort of a vector's whole block (no ghosts, nothing registered on it), which may
/// move: the keys are sorted between the block and the vector's spare block of the same size and memory
/// space (made by the first sort, kept for the next), and when an odd number of passes leaves them in the
/// spare, the vector adopts it (its old block becomes the spare) instead of copying them back. Returns
/// once enqueued, as any call whose result stays on the device.
template <class Policy, class K, class Comp>
auto sort_adopting(const Policy& policy, const context& ctx, int device, segment_allocation& block,
                   segment_allocation& spare, std::size_t n, std::size_t alignment) {
  using Pol = std::remove_cvref_t<Policy>;
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, void>(std::move(session).error());
  device_lane& lane = *session->lane;
  const hipStream_t stream = session->stream;
  const status sorted = [&]() -> status {
    if (!spare.same_space(block) || spare.bytes() != block.bytes()) {
      if (spare.data() != nullptr) DTL_TRY(lane.settle());  // an earlier sort may still use the block this frees
      spare = segment_allocation();
      DTL_ASSIGN_OR_RETURN(spare, block.allocate_like(block.bytes(), alignment));
    }
    bool in_alternate = false;
    DTL_TRY(gpu::radix_sort_keys_between(static_cast<K*>(block.data()), static_cast<K*>(spare.data()), n,
                                         radix_order<Comp, K>() == 2, in_alternate, *session->scratch, stream));
    if (in_alternate) std::swap(block, spare);
    return {};
  }();
  if (!sorted.ok()) return failed_outcome<Pol, void>(sorted);
  return outcome_on_stream<Pol>(lane, stream, nothing_to_read{});
}

/// Whether keys[0, n) of every rank, in rank order, are sorted by comp (collective, on the device).
template <class Policy, class K, class Comp>
auto is_sorted(const Policy& policy, const context& ctx, int device, const K* keys, std::size_t n, Comp comp) {
  using Pol = std::remove_cvref_t<Policy>;
  const bool many = ctx.size() > 1;
  auto agreed = [&](const status& local) { return agree_before(many, ctx, local, "is_sorted (the local checks)"); };
  auto session = enter_lane(policy, ctx, device);
  if (!session) return failed_outcome<Pol, bool>(agreed(session.error()));
  const hipStream_t stream = session->stream;
  gpu::device_scratch& scratch = *session->scratch;
  const auto dcomp = to_portable(comp);

  // A descent anywhere in data[0, count): one flag, set by a kernel, read back.
  auto has_descent = [&](const K* data, std::size_t count, int* d_flag) -> result<bool> {
    int flag = 0;
    if (count < 2) return false;
    DTL_TRY(upload(d_flag, &flag, 1, stream));
    DTL_TRY(gpu::launch_each(count - 1, descent_body<K, decltype(dcomp)>{data, dcomp, d_flag}, stream,
                             "is_sorted: descent kernel launch"));
    DTL_TRY(read_back(&flag, d_flag, 1, stream));
    return flag != 0;
  };
  struct edge {
    K first, last;
    int present, sorted;
  };
  auto compute = [&]() -> result<bool> {
    const std::size_t p = static_cast<std::size_t>(ctx.size());
    const std::size_t edges_bytes = gpu::primitives_detail::aligned(2 * p * sizeof(K));
    edge mine{K{}, K{}, n != 0 ? 1 : 0, 1};
    int* d_flag = nullptr;
    K* d_edges = nullptr;
    DTL_TRY(agreed([&]() -> status {
      DTL_ASSIGN_OR_RETURN(void* slot, scratch.result_slot(edges_bytes + sizeof(int)));
      d_edges = static_cast<K*>(slot);
      d_flag = reinterpret_cast<int*>(static_cast<unsigned char*>(slot) + edges_bytes);
      DTL_ASSIGN_OR_RETURN(const bool descent, has_descent(keys, n, d_flag));
      mine.sorted = descent ? 0 : 1;
      if (n != 0) {
        DTL_TRY(read_back(&mine.first, keys, 1, stream));
        DTL_TRY(read_back(&mine.last, keys + (n - 1), 1, stream));
      }
      return {};
    }()));
    if (!many) return mine.sorted != 0;
    std::vector<edge> all(p);
    DTL_TRY(ctx.allgather(&mine, all.data(), 1));
    // Every rank checks the same boundaries: first and last of each non-empty rank, in rank order.
    std::vector<K> ends;
    for (const edge& e : all) {
      if (e.sorted == 0) return false;
      if (e.present == 0) continue;
      ends.push_back(e.first);
      ends.push_back(e.last);
    }
    DTL_TRY(upload(d_edges, ends.data(), ends.size(), stream));
    DTL_ASSIGN_OR_RETURN(const bool descent, has_descent(d_edges, ends.size(), d_flag));
    return !descent;
  };
  return to_outcome<Pol, bool>(compute());
}

#else  // no kernel compiler: say so at compile time

template <class Policy, class K, class Comp>
inline constexpr bool adopts_alternate_v = false;
template <class Policy, class K, class Comp, class... Args>
auto sort_adopting(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>, "dtl::sort on a device placement launches kernels");
  return result<void>();
}

template <bool Stable, class P, bool Traffic = false, class... Args>
auto sort(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::sort / stable_sort / sort_by_key on a device placement launches kernels: compile this file "
                "with the kernel compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<std::conditional_t<Traffic, sort_traffic, void>>();
}
template <class... Args>
auto is_sorted(Args&&...) {
  static_assert(needs_kernel_compiler_v<Args...>,
                "dtl::is_sorted on a device placement launches kernels: compile this file with the kernel "
                "compiler (hipcc or nvcc, through dtl-hip-kc; see docs/containers.md)");
  return result<bool>(false);
}

#endif

}  // namespace dtl::detail::device
