// SPDX-License-Identifier: MIT
#pragma once
// dtl::thread_fence(order): std::atomic_thread_fence, in one place. GCC warns that ThreadSanitizer does not
// model fences (-Wtsan, an error under -Werror in the sanitizer builds); the fence is still what the
// consistency policies promise, so the warning is silenced here and nowhere else.

#include <atomic>

namespace dtl {

inline void thread_fence(std::memory_order order) noexcept {
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
  std::atomic_thread_fence(order);
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif
}

}  // namespace dtl
