// SPDX-License-Identifier: MIT
#include <dtl/core/result.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#if __has_include(<execinfo.h>)
#include <execinfo.h>
#include <unistd.h>
#define DTL_HAS_BACKTRACE 1
#endif

namespace dtl::detail {

namespace {

std::string describe(const status& error) noexcept {
  try {
    return error.to_string();
  } catch (...) {
    return "(could not format the status)";
  }
}

}  // namespace

void bad_result_access(const status& error, std::source_location where) noexcept {
  const std::string text = describe(error);
  const std::string_view file = source_path(where.file_name());
  std::fprintf(stderr, "dtl: result::value() called on an error at %.*s:%u (%s): %s\n", static_cast<int>(file.size()),
               file.data(), static_cast<unsigned>(where.line()), where.function_name(), text.c_str());
  std::fflush(stderr);
  std::abort();
}

void bad_result_dereference(const status& error, const char* op) noexcept {
  const std::string text = describe(error);
  std::fprintf(stderr, "dtl: result::%s called on an error: %s\n", op, text.c_str());
#if defined(DTL_HAS_BACKTRACE)
  // An operator cannot take the caller's std::source_location; the stack names the caller instead
  // (addr2line -e <binary> <+offset> gives its file and line). Frame 0 is this function.
  std::fprintf(stderr, "dtl: the caller is in this stack (result::value() would name its file and line):\n");
  std::fflush(stderr);
  void* frames[16];
  const int n = ::backtrace(frames, 16);
  if (n > 1) ::backtrace_symbols_fd(frames + 1, n - 1, STDERR_FILENO);
#else
  std::fprintf(stderr, "dtl: call result::value() instead to have the caller's file and line named\n");
#endif
  std::fflush(stderr);
  std::abort();
}

const status& valueless_result_error() noexcept {
  static const status lost(status_code::internal_error,
                           "the result lost its value: an exception was thrown while a value was moved or "
                           "copied into it");
  return lost;
}

status ok_status_as_error(std::source_location where) {
  return status(status_code::internal_error, "a result was given an ok status instead of a value", where);
}

}  // namespace dtl::detail
