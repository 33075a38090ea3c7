// SPDX-License-Identifier: MIT
#pragma once
// Checks for the tests written in upstream DTL's spellings, where a failure is a communication_error
// thrown (on every rank, for a collective) rather than a returned status.

#include "doctest.hpp"

#include <dtl/containers/communication/upstream_communicator.hpp>
#include <dtl/core/status.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace test_support {

/// Runs `call`; the status of the communication_error it threw (ok if it threw none).
template <class F>
dtl::status thrown_by(F&& call) {
  try {
    call();
  } catch (const dtl::communication_error& e) {
    return e.error();
  }
  return {};
}

/// This rank's `s` has `code`, and so has every other rank's (each compares `code` with the least and
/// the greatest over the ranks). A collective: call it on every rank of `comm`.
inline void same_on_every_rank(dtl::mpi::mpi_comm_adapter& comm, const dtl::status& s, dtl::status_code code) {
  CHECK(s.code() == code);
  const int mine = static_cast<int>(s.code());
  CHECK(comm.allreduce_min_value<int>(mine) == static_cast<int>(code));
  CHECK(comm.allreduce_max_value<int>(mine) == static_cast<int>(code));
}

/// A call refused for a span too short on `short_ranks` of the ranks: every rank got the same status,
/// invalid_argument where every rank's span is short (or there is one rank), collective_failure naming
/// the rank otherwise (the agreement's rule), and its message says each of `words` (the sizes).
inline void refused_on_every_rank(dtl::mpi::mpi_comm_adapter& comm, const dtl::status& s, int short_ranks,
                                  std::initializer_list<std::string_view> words) {
  same_on_every_rank(
      comm, s, short_ranks == comm.size() ? dtl::status_code::invalid_argument : dtl::status_code::collective_failure);
  const std::string_view message = s.message();
  for (std::string_view w : words) CHECK_MESSAGE(message.find(w) != std::string_view::npos, message, " lacks ", w);
  const long hash = static_cast<long>(std::hash<std::string_view>{}(message) >> 1);
  CHECK(comm.allreduce_min_value<long>(hash) == hash);
  CHECK(comm.allreduce_max_value<long>(hash) == hash);
}

/// A buffer of `size` elements followed by a guard region of sentinels: a call that writes past span()
/// changes the guard (the guard is long enough for every overrun the tests provoke, so that the code
/// before the fix failed a check instead of corrupting the heap).
template <class T>
struct guarded {
  static constexpr std::size_t guard_elems = 64;
  static constexpr T sentinel = T(-99);

  explicit guarded(std::size_t n, T fill = sentinel) : storage(n + guard_elems, sentinel), size(n) {
    std::fill_n(storage.begin(), n, fill);
  }
  [[nodiscard]] std::span<T> span() { return {storage.data(), size}; }
  [[nodiscard]] std::span<const T> const_span() const { return {storage.data(), size}; }
  /// The span's elements, and whether every one is still `fill` / the guard is intact.
  [[nodiscard]] std::vector<T> values() const { return {storage.begin(), storage.begin() + size}; }
  [[nodiscard]] bool all(T fill) const {
    return std::all_of(storage.begin(), storage.begin() + size, [&](const T& v) { return v == fill; });
  }
  [[nodiscard]] bool guard_intact() const {
    return std::all_of(storage.begin() + size, storage.end(), [](const T& v) { return v == sentinel; });
  }

  std::vector<T> storage;
  std::size_t size;
};

}  // namespace test_support
