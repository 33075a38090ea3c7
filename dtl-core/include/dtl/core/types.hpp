// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's vocabulary types (its dtl/core/types.hpp names): what upstream programs spell
// dtl::size_type, dtl::index_t, dtl::rank_t and the special ranks. Ours use the std types directly;
// these are the same types, so both spellings mix freely.

#include <cstddef>

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

}  // namespace dtl
