#include <dtl/core/result.hpp>

#include <cstdio>
#include <cstdlib>

namespace dtl::detail {

void bad_result_access(const status& error, std::source_location where) noexcept {
  std::string text;
  try {
    text = error.to_string();
  } catch (...) {
    text = "(could not format the status)";
  }
  std::fprintf(stderr, "dtl: result::value() called on an error at %s:%u (%s): %s\n", where.file_name(),
               static_cast<unsigned>(where.line()), where.function_name(), text.c_str());
  std::fflush(stderr);
  std::abort();
}

status ok_status_as_error(std::source_location where) {
  return status(status_code::internal_error, "a result was given an ok status instead of a value", where);
}

}  // namespace dtl::detail
