// SPDX-License-Identifier: MIT
// never_device_memory (dtl/hip/pointer.hpp): address ranges that the operating system has given to the
// host's own memory, where no device allocation can be mapped while they are. Linux only; elsewhere
// nothing is known this way and every pointer goes to the runtime.
#include <dtl/hip/pointer.hpp>

#include <cstdint>

#if defined(__linux__)
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#endif

namespace dtl::hip {

namespace {

#if defined(__linux__)

struct address_range {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  [[nodiscard]] bool holds(std::uintptr_t a) const noexcept { return a >= begin && a < end; }
};

/// The calling thread's stack, read once per thread.
address_range thread_stack() noexcept {
  address_range r;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return r;
  void* base = nullptr;
  std::size_t size = 0;
  if (pthread_attr_getstack(&attr, &base, &size) == 0) {
    r.begin = reinterpret_cast<std::uintptr_t>(base);
    r.end = r.begin + size;
  }
  pthread_attr_destroy(&attr);
  return r;
}

/// Where the brk heap starts (field 47 of /proc/self/stat, start_brk); 0 when it cannot be read.
std::uintptr_t heap_start() noexcept {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (f == nullptr) return 0;
  char line[2048];
  const bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  if (!read) return 0;
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const char* at = std::strrchr(line, ')');
  if (at == nullptr) return 0;
  int field = 2;
  unsigned long long value = 0;
  for (const char* c = at + 1; *c != '\0'; ++c) {
    if (*c != ' ') continue;
    if (++field == 47) {
      if (std::sscanf(c + 1, "%llu", &value) != 1) return 0;
      return static_cast<std::uintptr_t>(value);
    }
  }
  return 0;
}

#endif

}  // namespace

bool never_device_memory(const void* ptr) noexcept {
#if defined(__linux__)
  const auto a = reinterpret_cast<std::uintptr_t>(ptr);
  thread_local const address_range stack = thread_stack();
  if (stack.holds(a)) return true;
  // The brk heap up to its current end (sbrk(0) reads glibc's cached break: no system call).
  static const std::uintptr_t heap = heap_start();
  if (heap == 0) return false;
  const auto brk_end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  return address_range{heap, brk_end}.holds(a);
#else
  static_cast<void>(ptr);
  return false;
#endif
}

}  // namespace dtl::hip
