// SPDX-License-Identifier: MIT
#pragma once
// One-sided access to the memory region every rank of a context exposes (an MPI window; a plain
// region for a single process): part of a context (context_services.hpp), used by
// distributed_vector::global_view().

#include <dtl/core/result.hpp>

#include <cstddef>

namespace dtl::detail {

class window {
 public:
  window() = default;
  window(const window&) = delete;
  window& operator=(const window&) = delete;
  virtual ~window() = default;
  /// Copies `bytes` at byte `offset` of `owner`'s region into `dst` (host memory).
  virtual status get(int owner, std::size_t offset, void* dst, std::size_t bytes) = 0;
  /// Copies `bytes` from `src` (host memory) to byte `offset` of `owner`'s region.
  virtual status put(int owner, std::size_t offset, const void* src, std::size_t bytes) = 0;
  /// Frees the window (collective); later get/put return invalid_state. Idempotent.
  virtual void release() noexcept = 0;
};

}  // namespace dtl::detail
