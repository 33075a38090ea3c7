// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's pointer utilities: what memory a pointer refers to, whether MPI takes device pointers,
// and a staging buffer that hands MPI host memory in place of device memory when it does not.
//
//   dtl::device_staging_buffer buf(d_ptr, bytes, /*for_send=*/true);   // device -> pinned host copy
//   MPI_Send(buf.data(), ...);
//
// HIP builds ask the HIP runtime (dtl::hip::query_pointer). Without HIP nothing is known about a pointer:
// query_pointer_kind gives unknown (nullptr always does), which counts as host memory, as upstream's does
// without CUDA, and nothing is ever staged.

#include <dtl/containers/config.hpp>
#include <dtl/containers/export.hpp>
#include <dtl/core/config.hpp>  // upstream's header gives its DTL_ENABLE_* macros too
#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/status_error.hpp>
#include <dtl/core/types.hpp>

#include <memory>
#include <utility>

#if DTL_CONTAINERS_HAS_HIP
#include <dtl/hip/hip_memory_transfer.hpp>
#include <dtl/hip/hip_pinned_memory_space.hpp>
#include <dtl/hip/pointer.hpp>
#endif

namespace dtl {

enum class pointer_kind {
  host,          // page-locked host memory the GPU runtime knows (hipHostMalloc, hipHostRegister)
  device,        // device memory
  managed,       // managed memory, reachable from host and device
  unregistered,  // ordinary host memory the runtime does not know
  unknown,       // nullptr, a build without HIP, or a runtime that could not answer
};

[[nodiscard]] inline pointer_kind query_pointer_kind(const void* ptr) {
  if (ptr == nullptr) return pointer_kind::unknown;
#if DTL_CONTAINERS_HAS_HIP
  const result<hip::pointer_attributes> attributes = hip::query_pointer(ptr);
  if (!attributes) return pointer_kind::unknown;  // no device, or the runtime failed
  switch (attributes->kind) {
    case hip::memory_kind::host_pageable: return pointer_kind::unregistered;
    case hip::memory_kind::host_pinned: return pointer_kind::host;
    case hip::memory_kind::device: return pointer_kind::device;
    case hip::memory_kind::managed: return pointer_kind::managed;
  }
#endif
  return pointer_kind::unknown;
}

/// Device or managed memory.
[[nodiscard]] inline bool is_device_accessible(const void* ptr) {
  const pointer_kind kind = query_pointer_kind(ptr);
  return kind == pointer_kind::device || kind == pointer_kind::managed;
}

/// Everything but device memory (what is unknown is taken for host memory).
[[nodiscard]] inline bool is_host_accessible(const void* ptr) {
  return query_pointer_kind(ptr) != pointer_kind::device;
}

namespace detail {
/// What the MPI library says about device pointers of this build's GPU platform (Open MPI's
/// MPIX_Query_rocm_support / MPIX_Query_cuda_support), asked once. False without HIP or MPI.
[[nodiscard]] DTL_CONTAINERS_API bool mpi_claims_gpu_awareness() noexcept;
}  // namespace detail

/// Whether MPI takes device pointers, as the MPI library claims (contexts confirm the claim with a probe
/// before they rely on it; docs/containers.md). False without HIP.
[[nodiscard]] inline bool is_gpu_aware_mpi() {
#if DTL_CONTAINERS_HAS_HIP
  return detail::mpi_claims_gpu_awareness();
#else
  return false;
#endif
}

/// Host memory for MPI in place of device memory when MPI does not take device pointers: for a send, a
/// pinned copy of the device bytes; for a receive, pinned memory whose bytes go to the device memory at
/// copy_back() or, at the latest, when the buffer is destroyed. Any other pointer is used as it is.
class device_staging_buffer {
 public:
  /// Throws dtl::status_error when the pinned memory or the copy to it fails.
  device_staging_buffer(const void* ptr, size_type bytes, bool for_send)
      : original_(const_cast<void*>(ptr)), bytes_(bytes), for_send_(for_send) {
#if DTL_CONTAINERS_HAS_HIP
    if (bytes == 0 || !is_device_accessible(ptr) || is_gpu_aware_mpi()) return;
    pinned_ = std::make_unique<hip::hip_pinned_memory_space>();  // the current device's
    staged_ = value_or_throw(pinned_->allocate(bytes));
    if (for_send) {
      const result<void> copied =
          hip::hip_memory_transfer::copy(staged_, original_, bytes, transfer_kind::device_to_host);
      if (!copied) {
        release();
        throw status_error(copied.error());
      }
    }
#endif
  }
  device_staging_buffer(device_staging_buffer&& other) noexcept
      : original_(other.original_),
        bytes_(other.bytes_),
        for_send_(other.for_send_),
        copied_back_(other.copied_back_),
        staged_(std::exchange(other.staged_, nullptr))
#if DTL_CONTAINERS_HAS_HIP
        ,
        pinned_(std::move(other.pinned_))
#endif
  {
  }
  device_staging_buffer(const device_staging_buffer&) = delete;
  device_staging_buffer& operator=(const device_staging_buffer&) = delete;
  device_staging_buffer& operator=(device_staging_buffer&&) = delete;
  /// A receive's bytes go to the device memory here unless copy_back() ran (a failure is reported with
  /// dtl::report_unhandled()).
  ~device_staging_buffer() {
    if (status s = copy_back(); !s.ok()) report_unhandled(s);
    release();
  }

  /// What to hand MPI: the pinned copy when staged, the pointer given otherwise.
  [[nodiscard]] void* data() noexcept { return staged_ != nullptr ? staged_ : original_; }
  [[nodiscard]] const void* data() const noexcept { return staged_ != nullptr ? staged_ : original_; }
  [[nodiscard]] bool is_staged() const noexcept { return staged_ != nullptr; }
  [[nodiscard]] size_type size() const noexcept { return bytes_; }

  /// For a staged receive: copies the received bytes to the device memory (once; nothing otherwise).
  [[nodiscard]] status copy_back() {
    if (staged_ == nullptr || for_send_ || copied_back_) return {};
    copied_back_ = true;
#if DTL_CONTAINERS_HAS_HIP
    if (result<void> r = hip::hip_memory_transfer::copy(original_, staged_, bytes_, transfer_kind::host_to_device); !r)
      return std::move(r).error();
#endif
    return {};
  }

 private:
  void release() noexcept {
#if DTL_CONTAINERS_HAS_HIP
    if (staged_ != nullptr) pinned_->deallocate(std::exchange(staged_, nullptr), bytes_);
#endif
  }

  void* original_ = nullptr;
  size_type bytes_ = 0;
  bool for_send_ = false;
  bool copied_back_ = false;
  void* staged_ = nullptr;
#if DTL_CONTAINERS_HAS_HIP
  std::unique_ptr<hip::hip_pinned_memory_space> pinned_;  // what staged_ came from
#endif
};

}  // namespace dtl
