// SPDX-License-Identifier: MIT
#pragma once
// What upstream DTL's free functions over a communicator share (point_to_point.hpp,
// collective_ops.hpp and the communicator forms of dtl::reduce): the communicator they take, the
// refusal of wildcards, the size rule, and reductions of buffers with upstream's promotions. Not for
// users.
//
// The size rule: a collective compares its spans before anything moves. A span shorter than the call
// needs (a receive span, or the root's send span for scatter) is invalid_argument naming both sizes;
// alltoall's send span must split evenly among the ranks. The sizes may differ between ranks (and only
// the root knows its own), so each rank's verdict goes into the collective's agreement step
// (with_local_failure): every rank then throws the same status, collective_failure naming the rank
// where only some ranks' spans are short (the agreement's rule).

#include <dtl/containers/communication/collective_types.hpp>
#include <dtl/containers/communication/detail/agreement.hpp>
#include <dtl/containers/communication/message.hpp>
#include <dtl/containers/communication/reduction_ops.hpp>
#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace dtl::detail {

/// Upstream's free functions take any communicator; DTL HIP has mpi_comm_adapter and null_communicator (one
/// rank), which derives from it.
template <class C>
concept upstream_comm = std::derived_from<std::remove_cvref_t<C>, mpi::mpi_comm_adapter>;

template <class T>
inline constexpr bool is_span_v = false;
template <class T, std::size_t N>
inline constexpr bool is_span_v<std::span<T, N>> = true;

/// Throws what upstream's communicator throws when `r` failed.
inline void throw_if_failed(const result<void>& r) {
  if (!r) throw communication_error(r.error());
}

/// A context's receive names its source and tag, so a wildcard would match nothing and hang: refused
/// at once (before any communication), on every rank that passes one.
inline void refuse_wildcards(const char* name, rank_t source, int tag) {
  if (source != any_source && tag != any_tag) return;
  throw communication_error(
      status{status_code::not_supported, std::string(name) + ": any_source and any_tag are not supported by DTL HIP; "
                                                             "name the source rank and the tag"});
}

/// The source and tag a receive of Comm names. A communicator of one rank that says so
/// (Comm::resolves_wildcards: null_communicator) takes any_source and any_tag as rank 0 and tag 0, as
/// upstream's; on a context a wildcard throws (refuse_wildcards).
struct named_peer {
  rank_t source;
  int tag;
};
template <class Comm>
named_peer name_peer(const char* name, rank_t source, int tag) {
  if constexpr (requires { requires Comm::resolves_wildcards; }) {
    return {source == any_source ? 0 : source, tag == any_tag ? 0 : tag};
  } else {
    refuse_wildcards(name, source, tag);
    return {source, tag};
  }
}

/// Runs `collective` (a call of the communicator's context, returning result<void>) with this rank's
/// verdict on its spans, `local`, carried into its agreement step; throws the agreed failure.
template <class Collective>
void collect(const status& local, Collective&& collective) {
  throw_if_failed(with_local_failure(local, std::forward<Collective>(collective)));
}

/// The size rule for one span: `name` of `call` has `has` elements where the call moves `needs` (`why`)
/// through it. ok when it holds them.
[[nodiscard]] inline status span_holds(const char* call, const char* name, std::size_t has, std::size_t needs,
                                       const std::string& why) {
  if (has >= needs) return {};
  return status(status_code::invalid_argument, std::string(call) + ": " + name + " has " + std::to_string(has) +
                                                   " elements; the call needs " + std::to_string(needs) + " (" + why +
                                                   ")");
}

/// The size rule for a span that holds one block of `block` elements per rank: ok, invalid_argument, or
/// out_of_range where the blocks together pass the address space.
[[nodiscard]] inline status holds_blocks(const char* call, const char* name, std::size_t has, std::size_t ranks,
                                         std::size_t block) {
  if (ranks != 0 && block > std::numeric_limits<std::size_t>::max() / ranks)
    return status(status_code::out_of_range, std::string(call) + ": " + std::to_string(ranks) + " blocks of " +
                                                 std::to_string(block) + " elements pass the address space");
  return span_holds(call, name, has, ranks * block,
                    std::to_string(ranks) + " ranks' blocks of " + std::to_string(block));
}

/// The size rule for a span of a v-form: it must reach the end of every block its counts and
/// displacements name. A block whose end passes size_t, and counts or displacements of the wrong
/// length, are left to the context's own checks (out_of_range, invalid_argument).
[[nodiscard]] inline status holds_displaced(const char* call, const char* name, std::size_t has,
                                            std::span<const size_type> counts, std::span<const size_type> displs) {
  std::size_t end = 0;
  for (std::size_t r = 0; r < std::min(counts.size(), displs.size()); ++r)
    if (counts[r] != 0 && displs[r] <= std::numeric_limits<std::size_t>::max() - counts[r])
      end = std::max(end, displs[r] + counts[r]);
  return span_holds(call, name, has, end, "the end of the furthest block its counts and displacements name");
}

/// A span's elements as the bytes the communicator moves.
template <class T>
const std::byte* bytes_of(std::span<const T> s) noexcept {
  return static_cast<const std::byte*>(static_cast<const void*>(s.data()));
}
template <class T>
std::byte* bytes_of(std::span<T> s) noexcept {
  return static_cast<std::byte*>(static_cast<void*>(s.data()));
}

[[nodiscard]] inline message_status received(rank_t source, int tag, size_type count) {
  message_status s;
  s.source = source;
  s.tag = tag;
  s.count = count;
  return s;
}

/// The reduce_op of an upstream operator: reduce_sum / std::plus, reduce_product / std::multiplies,
/// reduce_min, reduce_max, and (integers only) reduce_land / std::logical_and, reduce_lor /
/// std::logical_or, reduce_band / std::bit_and, reduce_bor / std::bit_or, reduce_bxor / std::bit_xor.
/// Other operators are refused at compile time.
template <class Op>
struct reduce_op_of {
  static constexpr bool known = false;
};
template <class X>
struct reduce_op_of<std::plus<X>> {
  static constexpr bool known = true;
  static constexpr reduce_op op = reduce_op::sum;
};
template <class X>
struct reduce_op_of<std::multiplies<X>> {
  static constexpr bool known = true;
  static constexpr reduce_op op = reduce_op::product;
};
template <class X>
struct reduce_op_of<reduce_sum<X>> : reduce_op_of<std::plus<X>> {};
template <class X>
struct reduce_op_of<reduce_product<X>> : reduce_op_of<std::multiplies<X>> {};
template <class X>
struct reduce_op_of<reduce_min<X>> {
  static constexpr bool known = true;
  static constexpr reduce_op op = reduce_op::min;
};
template <class X>
struct reduce_op_of<reduce_max<X>> {
  static constexpr bool known = true;
  static constexpr reduce_op op = reduce_op::max;
};
template <reduce_op Op>
struct native_reduce_op {
  static constexpr bool known = true;
  static constexpr reduce_op op = Op;
};
template <class X>
struct reduce_op_of<std::logical_and<X>> : native_reduce_op<reduce_op::land> {};
template <class X>
struct reduce_op_of<std::logical_or<X>> : native_reduce_op<reduce_op::lor> {};
template <class X>
struct reduce_op_of<std::bit_and<X>> : native_reduce_op<reduce_op::band> {};
template <class X>
struct reduce_op_of<std::bit_or<X>> : native_reduce_op<reduce_op::bor> {};
template <class X>
struct reduce_op_of<std::bit_xor<X>> : native_reduce_op<reduce_op::bxor> {};
template <class X>
struct reduce_op_of<reduce_land<X>> : native_reduce_op<reduce_op::land> {};
template <class X>
struct reduce_op_of<reduce_lor<X>> : native_reduce_op<reduce_op::lor> {};
template <class X>
struct reduce_op_of<reduce_band<X>> : native_reduce_op<reduce_op::band> {};
template <class X>
struct reduce_op_of<reduce_bor<X>> : native_reduce_op<reduce_op::bor> {};
template <class X>
struct reduce_op_of<reduce_bxor<X>> : native_reduce_op<reduce_op::bxor> {};

/// Op's reduce_op_of, refused at compile time unless the context's collectives have it natively.
template <class Op, class Kind = reduce_op_of<std::remove_cvref_t<Op>>>
struct known_reduce_op : Kind {
  static_assert(Kind::known,
                "DTL HIP reduces and scans over a communicator with dtl::reduce_sum, reduce_product, reduce_min, "
                "reduce_max, std::plus or std::multiplies, and integers with the logical and bitwise operators "
                "(docs/upstream.md)");
};
/// Refuses, at compile time, a logical or bitwise reduction of non-integers.
template <class Kind, class T>
inline constexpr bool reduces_v = !integers_only(Kind::op) || std::is_integral_v<T>;

/// What upstream reduces a T as: int, long and double as themselves, other integers as long,
/// anything else (float too) as double.
template <class T>
using reduce_wire_t = std::conditional_t<std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, double>,
                                         T, std::conditional_t<std::is_integral_v<T>, long, double>>;

/// recv = op over the ranks of send, on `root` only, or on every rank when root is all_ranks.
/// Counts in elements (send.size()), as upstream's; recv (where it is written) must hold as many.
template <class Op, class T>
void reduce_buffers(const char* call, const mpi::mpi_comm_adapter& comm, std::span<const T> send, std::span<T> recv,
                    rank_t root) {
  using Kind = known_reduce_op<Op>;
  static_assert(reduces_v<Kind, T>, "the logical and bitwise reductions take integers");
  using W = reduce_wire_t<T>;
  const context& ctx = comm.dtl_context();
  const bool everyone = root == all_ranks;
  const bool writes = everyone || comm.rank() == root;
  const status local = writes ? span_holds(call, "recv_data", recv.size(), send.size(), "send_data's size") : status{};
  if constexpr (std::is_same_v<W, T>) {
    collect(local, [&] {
      return everyone ? ctx.allreduce(send.data(), recv.data(), send.size(), Kind::op)
                      : ctx.reduce(send.data(), recv.data(), send.size(), Kind::op, root);
    });
  } else {
    const std::vector<W> wide(send.begin(), send.end());
    std::vector<W> out(send.size());
    collect(local, [&] {
      return everyone ? ctx.allreduce(wide.data(), out.data(), wide.size(), Kind::op)
                      : ctx.reduce(wide.data(), out.data(), wide.size(), Kind::op, root);
    });
    if (writes) std::transform(out.begin(), out.end(), recv.begin(), [](const W& w) { return static_cast<T>(w); });
  }
}

/// op's identity in T (the wire type's, converted, would be wrong for min and max of a narrower T).
template <reduce_op Op, class T>
constexpr T identity_of() {
  if constexpr (Op == reduce_op::sum) {
    return T{0};
  } else if constexpr (Op == reduce_op::product) {
    return T{1};
  } else if constexpr (Op == reduce_op::min) {
    return reduce_min<T>::identity();
  } else if constexpr (Op == reduce_op::max) {
    return reduce_max<T>::identity();
  } else if constexpr (Op == reduce_op::land) {
    return reduce_land<T>::identity();
  } else if constexpr (Op == reduce_op::band) {
    return reduce_band<T>::identity();
  } else {
    return T{0};  // lor, bor, bxor
  }
}

/// recv[i] = op over ranks 0..rank() (inclusive) or 0..rank()-1 (exclusive; rank 0 gets op's
/// identity) of send[i]. Host buffers, promoted as reduce_buffers; recv must hold send.size().
template <class Op, class T>
void scan_buffers(const mpi::mpi_comm_adapter& comm, std::span<const T> send, std::span<T> recv, bool exclusive) {
  using Kind = known_reduce_op<Op>;
  static_assert(reduces_v<Kind, T>, "the logical and bitwise reductions take integers");
  using W = reduce_wire_t<T>;
  const context& ctx = comm.dtl_context();
  const std::vector<W> wide(send.begin(), send.end());
  std::vector<W> out(send.size());
  collect(span_holds(exclusive ? "exscan" : "scan", "recv_data", recv.size(), send.size(), "send_data's size"), [&] {
    return exclusive ? ctx.exscan(wide.data(), out.data(), wide.size(), Kind::op)
                     : ctx.scan(wide.data(), out.data(), wide.size(), Kind::op);
  });
  std::transform(out.begin(), out.end(), recv.begin(), [](const W& w) { return static_cast<T>(w); });
  if (exclusive && comm.rank() == 0) std::fill_n(recv.begin(), send.size(), identity_of<Kind::op, T>());
}

}  // namespace dtl::detail
