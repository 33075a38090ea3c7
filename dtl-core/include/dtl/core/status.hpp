// SPDX-License-Identifier: MIT
#pragma once
// dtl::status: a status code plus what caused it (message, native backend error, source location).
// An ok status holds no allocation; the details of an error are shared and immutable, so copies are cheap.

#include <dtl/core/export.hpp>
#include <dtl/core/status_code.hpp>
#include <dtl/core/types.hpp>

#include <memory>
#include <source_location>
#include <string>
#include <string_view>
#include <utility>

// nvcc's front end reports an assignment to a status or result as discarding a [[nodiscard]] value
// (warning 2810, on the reference that operator= returns); GCC and Clang do not. Off here, once, so
// that assignments need no (void).
#if defined(__NVCC__)
#pragma nv_diag_suppress 2810
#endif

namespace dtl {

/// The backend error behind a status, e.g. {2, "hipErrorOutOfMemory", "out of memory"}.
struct native_error {
  int code = 0;
  std::string name;
  std::string description;
};

class [[nodiscard]] DTL_CORE_API status {
 public:
  /// An ok status.
  status() noexcept = default;

  /// An error (or ok) status. The source location defaults to the caller's.
  explicit status(status_code code, std::string message = {},
                  std::source_location where = std::source_location::current());

  /// An error caused by a backend call; keeps the backend's own code and name.
  status(status_code code, std::string message, native_error native,
         std::source_location where = std::source_location::current());

  /// Upstream DTL's form: the rank the error happened on (no_rank when unknown), then the message.
  status(status_code code, rank_t rank, std::string message = {},
         std::source_location where = std::source_location::current());

  [[nodiscard]] bool ok() const noexcept { return code_ == status_code::ok; }
  [[nodiscard]] bool is_error() const noexcept { return !ok(); }
  /// True when ok, as upstream's (explicit: `if (s)` reads "if it succeeded").
  [[nodiscard]] explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] status_code code() const noexcept { return code_; }
  [[nodiscard]] std::string_view category() const noexcept { return status_category(code_); }
  [[nodiscard]] std::string_view name() const noexcept { return status_code_name(code_); }
  /// A std::string, as upstream's: `"context: " + s.message()` compiles.
  [[nodiscard]] const std::string& message() const noexcept;
  /// The rank given at construction; no_rank when none was.
  [[nodiscard]] rank_t rank() const noexcept { return rank_; }

  /// The backend error that caused this status, or nullptr when there was none.
  [[nodiscard]] const native_error* native() const noexcept;
  [[nodiscard]] bool has_native() const noexcept { return native() != nullptr; }
  /// The backend's error number (0 when there is none).
  [[nodiscard]] int native_code() const noexcept;
  [[nodiscard]] std::string_view native_name() const noexcept;

  /// Where the status was made (a default location for ok statuses).
  [[nodiscard]] std::source_location location() const noexcept;

  /// Where the failure was found, as "dtl-containers/src/halo/plan.cpp:113": location() by default; a
  /// status that forwards another rank's or call's failure carries its cause's origin (with_origin). ""
  /// for an ok status.
  [[nodiscard]] std::string origin() const;

  /// A copy that names `origin` as where the failure was found, for a status that forwards a failure found
  /// elsewhere (on another rank, say), so that its text names the cause's place once, not its own.
  [[nodiscard]] status with_origin(std::string origin) const;

  /// A copy whose message is "what: " and this message: the way to forward a failure with the caller's
  /// context, keeping its code, native error and origin (not the forwarding line's).
  [[nodiscard]] status with_context(std::string_view what) const;

  /// "hip_error (520, backend): hipMalloc(1024) failed [hipErrorOutOfMemory (2): out of memory]": the
  /// text without the origin, for a message that quotes this status inside another's.
  [[nodiscard]] std::string summary() const;

  /// summary() and " at " origin(): "hip_error (520, backend): hipMalloc(1024) failed [...] at file.cpp:12"
  [[nodiscard]] std::string to_string() const;

  /// Two statuses are equal when they say the same thing: the same code, message and native error
  /// (as absl::Status compares code, message and payloads). Where they were made is not compared.
  friend bool operator==(const status& a, const status& b) noexcept;
  /// Against a bare code only the code can be compared: `s == status_code::timeout` is shorthand for
  /// `s.code() == status_code::timeout`.
  friend bool operator==(const status& s, status_code c) noexcept { return s.code_ == c; }

 private:
  struct details;
  status_code code_ = status_code::ok;
  rank_t rank_ = no_rank;  // kept outside details_ so an ok status keeps it too, as upstream's does
  std::shared_ptr<const details> details_;
};

// The friend above, declared again to export it (a class's attribute does not reach its friends).
DTL_CORE_API bool operator==(const status& a, const status& b) noexcept;

/// A source file's path as status texts give it: from the last dtl-core/, dtl-hip-mem/, dtl-hip-exec/ or
/// dtl-containers/ component ("../../w/subprojects/dtl-containers/src/agreement.cpp" gives
/// "dtl-containers/src/agreement.cpp"); a path without one loses its leading "./" and "../" components only.
[[nodiscard]] DTL_CORE_API std::string_view source_path(std::string_view file) noexcept;

/// An ok status, for symmetry with error factories.
[[nodiscard]] inline status ok_status() noexcept { return status{}; }

/// Upstream DTL's spelling of status{code, rank, message}.
[[nodiscard]] inline status error_status(status_code code, rank_t rank = no_rank, std::string message = {},
                                         std::source_location where = std::source_location::current()) {
  return status{code, rank, std::move(message), where};
}

/// Reports an error that cannot be returned (from a destructor or a noexcept deallocate).
/// The default handler prints status.to_string() to stderr; never silent.
DTL_CORE_API void report_unhandled(const status& s) noexcept;

using unhandled_error_handler = void (*)(const status&) noexcept;
/// Installs a handler for report_unhandled() and returns the previous one (nullptr restores the default).
DTL_CORE_API unhandled_error_handler set_unhandled_error_handler(unhandled_error_handler handler) noexcept;

}  // namespace dtl
