// SPDX-License-Identifier: MIT
#include <dtl/core/status_boundary.hpp>
#include <dtl/core/status_error.hpp>

#include <fmt/format.h>

#include <exception>
#include <new>
#include <stdexcept>

namespace dtl {

namespace {
// Made when the library loads: reporting that no memory was left must not need memory.
const status no_memory_to_report(status_code::out_of_memory, "out of host memory (while reporting an error)");
}  // namespace

status current_exception_status(std::string_view what) noexcept {
  try {
    try {
      throw;
    } catch (const status_error& e) {
      return e.error();
    } catch (const std::bad_alloc& e) {
      return status(status_code::out_of_memory, fmt::format("{}: out of host memory ({})", what, e.what()));
    } catch (const std::length_error& e) {
      return status(status_code::invalid_argument,
                    fmt::format("{}: more elements than a container can hold ({})", what, e.what()));
    } catch (const std::exception& e) {
      return status(status_code::unknown_error, fmt::format("{} threw: {}", what, e.what()));
    } catch (...) {
      return status(status_code::unknown_error,
                    fmt::format("{} threw an exception not derived from std::exception", what));
    }
  } catch (...) {
    return no_memory_to_report;
  }
}

}  // namespace dtl
