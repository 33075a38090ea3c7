// SPDX-License-Identifier: MIT
#pragma once
// Helpers for the gpu tests: device memory, host memory mapped for the device, and a gate kernel
// that holds a stream until the host releases it.
#include "doctest.hpp"

#include "test_kernels.hpp"
#include "under_sanitizer.hpp"

#include <dtl/hip/device.hpp>

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <cstdlib>

namespace exec_test {

/// compute-sanitizer serialises kernel launches with the host, so a kernel that spins until the host
/// releases it cannot be released: it runs out its spin budget instead. The gate tests skip themselves
/// there (under_sanitizer.hpp, from the shared test support).
using dtl_test::under_sanitizer;

/// Polls before the gate kernel gives up by itself (about 10-20 s): a failed test cannot hang.
inline constexpr long long gate_max_polls = 10'000'000;

/// The calling thread's current device (which every DTL call must leave unchanged).
inline int current() { return dtl::hip::current_device().value(); }

/// `count` ints of device memory, zeroed. read() copies on the legacy default stream: synchronise the
/// stream that wrote them first.
class device_ints {
 public:
  explicit device_ints(std::size_t count = 1) : count_(count) {
    REQUIRE(hipMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(int)) == hipSuccess);
    REQUIRE(hipMemset(ptr_, 0, count * sizeof(int)) == hipSuccess);
    // hipMemset may return before it is done, on the legacy default stream, which the tests'
    // non-blocking streams do not wait for: finish it here (this does not wait for those streams).
    REQUIRE(hipStreamSynchronize(nullptr) == hipSuccess);
  }
  device_ints(const device_ints&) = delete;
  device_ints& operator=(const device_ints&) = delete;
  ~device_ints() { CHECK(hipFree(ptr_) == hipSuccess); }
  [[nodiscard]] int* get() const noexcept { return ptr_; }
  [[nodiscard]] int read(std::size_t i = 0) const {
    int v = -1;
    REQUIRE(hipMemcpy(&v, ptr_ + i, sizeof(int), hipMemcpyDeviceToHost) == hipSuccess);
    return v;
  }

 private:
  int* ptr_ = nullptr;
  std::size_t count_;
};

/// One pinned host int that kernels can read and write (hipHostMallocMapped).
class mapped_int {
 public:
  mapped_int() {
    REQUIRE(hipHostMalloc(reinterpret_cast<void**>(&host_), sizeof(int), hipHostMallocMapped) == hipSuccess);
    *host_ = 0;
    REQUIRE(hipHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0) == hipSuccess);
  }
  mapped_int(const mapped_int&) = delete;
  mapped_int& operator=(const mapped_int&) = delete;
  ~mapped_int() { CHECK(hipHostFree(host_) == hipSuccess); }
  void set(int v) noexcept { __atomic_store_n(host_, v, __ATOMIC_SEQ_CST); }
  [[nodiscard]] int get() const noexcept { return __atomic_load_n(host_, __ATOMIC_SEQ_CST); }
  [[nodiscard]] int* device() const noexcept { return device_; }

 private:
  int* host_ = nullptr;
  int* device_ = nullptr;
};

/// A kernel that blocks its stream until release() (or until it gives up after gate_max_polls).
class gate {
 public:
  gate() = default;
  gate(const gate&) = delete;
  gate& operator=(const gate&) = delete;
  /// Releases the kernel and waits for it, so that the mapped memory outlives it.
  ~gate() {
    release();
    CHECK(hipDeviceSynchronize() == hipSuccess);
  }
  [[nodiscard]] hipError_t close(hipStream_t stream) {
    return exec_test_spin(flag_.device(), outcome_.device(), gate_max_polls, stream);
  }
  void release() noexcept { flag_.set(1); }
  /// 1 when the kernel saw the release, 2 when it gave up, 0 while it has not finished.
  [[nodiscard]] int outcome() const noexcept { return outcome_.get(); }

 private:
  mapped_int flag_;
  mapped_int outcome_;
};

}  // namespace exec_test
