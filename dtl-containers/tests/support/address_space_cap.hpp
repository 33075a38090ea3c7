// SPDX-License-Identifier: MIT
#pragma once
// A cap on this process's address space for the tests of allocations that must fail cleanly: while an
// address_space_cap lives, the process may map `headroom` bytes more than it has mapped now, so that an
// allocation larger than that fails (std::bad_alloc, a failed status) instead of taking the machine's
// memory. Under AddressSanitizer, which reserves address space of its own and aborts instead of failing
// an allocation, no cap is set (active() is false): such tests skip their checks there.

#include <sys/resource.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace test_support {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool address_sanitizer = true;
#else
inline constexpr bool address_sanitizer = false;
#endif
#else
inline constexpr bool address_sanitizer = false;
#endif

/// This process's mapped memory, in bytes (the first field of /proc/self/statm, in pages).
inline std::uint64_t mapped_bytes() {
  unsigned long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return static_cast<std::uint64_t>(pages) * 4096u;
}

class address_space_cap {
 public:
  explicit address_space_cap(std::uint64_t headroom) {
    if (address_sanitizer || getrlimit(RLIMIT_AS, &before_) != 0) return;
    rlimit tight = before_;
    tight.rlim_cur = mapped_bytes() + headroom;
    set_ = setrlimit(RLIMIT_AS, &tight) == 0;
  }
  address_space_cap(const address_space_cap&) = delete;
  address_space_cap& operator=(const address_space_cap&) = delete;
  ~address_space_cap() {
    if (set_) setrlimit(RLIMIT_AS, &before_);
  }
  /// Whether the cap is set.
  [[nodiscard]] bool active() const noexcept { return set_; }

 private:
  rlimit before_{};
  bool set_ = false;
};

}  // namespace test_support
