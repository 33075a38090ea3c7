// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's vocabulary types (its dtl/core/types.hpp names): what upstream programs spell
// dtl::size_type, dtl::index_t, dtl::rank_t, the special ranks, span and the tag types; dtl::extents is in
// extents.hpp (included at the end, as upstream's types.hpp has it). Ours use the std types directly;
// these are the same types, so both spellings mix freely.

#include <cstddef>
#include <span>

namespace dtl {

/// A global or local element index (signed, as upstream's).
using index_t = std::ptrdiff_t;
/// A rank in a communicator.
using rank_t = int;
/// A count of elements.
using size_type = std::size_t;
/// The difference of two indices.
using difference_type = std::ptrdiff_t;

/// No rank (an owner that does not exist, a search that found nothing).
inline constexpr rank_t no_rank = -1;
/// Every rank (a collective's "all" target).
inline constexpr rank_t all_ranks = -2;
/// The rank that roots collectives by default.
inline constexpr rank_t root_rank = 0;
/// An extent known only at run time.
inline constexpr size_type dynamic_extent = static_cast<size_type>(-1);

/// Upstream's contiguous view of elements (a pointer and a count): std::span.
template <class T, std::size_t Extent = std::dynamic_extent>
using span = std::span<T, Extent>;

// Upstream's tag types (empty, explicit: no tag converts to another) and their instances; async's
// instance is async_v, since dtl::async is the execution policy.
/// Tags an operation on this rank alone (no communication).
struct local_tag {
  explicit local_tag() = default;
};
/// Tags an operation over every rank (it may communicate).
struct global_tag {
  explicit global_tag() = default;
};
/// Tags a synchronous operation.
struct sync_tag {
  explicit sync_tag() = default;
};
/// Tags an asynchronous operation.
struct async_tag {
  explicit async_tag() = default;
};
/// Tags a blocking operation.
struct blocking_tag {
  explicit blocking_tag() = default;
};
/// Tags a non-blocking operation.
struct nonblocking_tag {
  explicit nonblocking_tag() = default;
};
/// Tags an operation in place.
struct in_place_tag {
  explicit in_place_tag() = default;
};
/// Tags read-only access.
struct read_only_tag {
  explicit read_only_tag() = default;
};
/// Tags write-only access.
struct write_only_tag {
  explicit write_only_tag() = default;
};
/// Tags read-write access.
struct read_write_tag {
  explicit read_write_tag() = default;
};

inline constexpr local_tag local{};
inline constexpr global_tag global{};
inline constexpr sync_tag sync{};
inline constexpr async_tag async_v{};
inline constexpr blocking_tag blocking{};
inline constexpr nonblocking_tag nonblocking{};
inline constexpr in_place_tag in_place{};
inline constexpr read_only_tag read_only{};
inline constexpr write_only_tag write_only{};
inline constexpr read_write_tag read_write{};

}  // namespace dtl

#include <dtl/core/extents.hpp>  // after the types it uses
