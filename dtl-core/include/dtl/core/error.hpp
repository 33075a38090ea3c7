// SPDX-License-Identifier: MIT
#pragma once
// dtl::error and make_error: upstream DTL's error value (its <dtl/error/error_type.hpp>), a status with
// upstream's accessors for where it was made, and make_error<T>, a result<T> holding one. Our status keeps its source
// location already; an error is one wrapped, and it converts to `const status&` wherever a status is taken (a result's
// error side too).

#include <dtl/core/result.hpp>
#include <dtl/core/status.hpp>
#include <dtl/core/types.hpp>

#include <cstdint>
#include <source_location>
#include <string>
#include <utility>

namespace dtl {

class error {
 public:
  explicit error(status s) : status_(std::move(s)) {}
  error(status_code code, rank_t rank = no_rank, std::string message = {},
        std::source_location where = std::source_location::current())
      : status_(code, rank, std::move(message), where) {}

  [[nodiscard]] const status& get_status() const noexcept { return status_; }
  [[nodiscard]] status_code code() const noexcept { return status_.code(); }
  [[nodiscard]] rank_t rank() const noexcept { return status_.rank(); }
  [[nodiscard]] const std::string& message() const noexcept { return status_.message(); }

  /// Where the error was made (the status's location).
  [[nodiscard]] std::source_location location() const noexcept { return status_.location(); }
  [[nodiscard]] const char* file_name() const noexcept { return location().file_name(); }
  [[nodiscard]] std::uint_least32_t line() const noexcept { return location().line(); }
  [[nodiscard]] const char* function_name() const noexcept { return location().function_name(); }

  /// The status's text ("timeout (106, communication): ... at file.cpp:12") and the function.
  [[nodiscard]] std::string to_string() const { return status_.to_string() + " in " + function_name(); }

  operator const status&() const noexcept { return status_; }  // NOLINT: implicit, as upstream's

 private:
  status status_;
};

[[nodiscard]] inline error make_error(status_code code, std::string message,
                                      std::source_location where = std::source_location::current()) {
  return error{code, no_rank, std::move(message), where};
}
[[nodiscard]] inline error make_error(status_code code, rank_t rank, std::string message,
                                      std::source_location where = std::source_location::current()) {
  return error{code, rank, std::move(message), where};
}
[[nodiscard]] inline error make_error(status_code code, std::source_location where = std::source_location::current()) {
  return error{code, no_rank, {}, where};
}

/// A result<T> holding such an error (make_error<T>(code, message) and (code, rank, message)).
template <class T>
[[nodiscard]] result<T> make_error(status_code code, std::string message,
                                   std::source_location where = std::source_location::current()) {
  return result<T>(status(code, no_rank, std::move(message), where));
}
template <class T>
[[nodiscard]] result<T> make_error(status_code code, rank_t rank, std::string message,
                                   std::source_location where = std::source_location::current()) {
  return result<T>(status(code, rank, std::move(message), where));
}

}  // namespace dtl
