// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's debugging aids (its <dtl/utility/debugging.hpp>): leveled debug output, assertions that
// abort with where they failed, and scope timers.
//
//   dtl::set_debug_level(dtl::debug_level::info);  dtl::set_debug_rank(ctx.rank());
//   dtl::debug_info("halo of ", n, " elements");  // "[INFO][R1] file.cpp:12 (fn): halo of 8 elements"
//   DTL_TIMED_SCOPE("exchange");                   // at info level: "exchange took 0.0012s" at scope end
//   DTL_ASSERT_MSG(n > 0, "empty halo");           // prints the condition and where, then aborts
//
// The settings are process-wide and safe to change from any thread; lines go whole to the stream
// (std::cerr unless set_debug_stream names another, which must outlive its use). The default level is
// warning (debug when DTL_DEBUG is defined). DTL_DEBUG_ASSERT* check only when DTL_DEBUG is defined.

#include <dtl/core/types.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <ostream>
#include <source_location>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

namespace dtl {

enum class debug_level { none = 0, error = 1, warning = 2, info = 3, debug = 4, trace = 5 };

/// The level's tag in an output line (NONE, ERROR, WARN, INFO, DEBUG, TRACE).
[[nodiscard]] constexpr std::string_view to_string(debug_level level) noexcept {
  switch (level) {
    case debug_level::none: return "NONE";
    case debug_level::error: return "ERROR";
    case debug_level::warning: return "WARN";
    case debug_level::info: return "INFO";
    case debug_level::debug: return "DEBUG";
    case debug_level::trace: return "TRACE";
  }
  return "UNKNOWN";
}

namespace detail {
struct debug_settings {
#ifdef DTL_DEBUG
  std::atomic<debug_level> level{debug_level::debug};
#else
  std::atomic<debug_level> level{debug_level::warning};
#endif
  std::atomic<rank_t> rank{no_rank};
  std::atomic<bool> show_rank{true};
  std::atomic<bool> show_location{true};
  std::mutex stream_mutex;         // one line at a time; guards stream
  std::ostream* stream = nullptr;  // null: std::cerr
};
inline debug_settings& debug_config() noexcept {
  static debug_settings settings;
  return settings;
}
}  // namespace detail

/// Lines above `level` are dropped.
inline void set_debug_level(debug_level level) noexcept {
  detail::debug_config().level.store(level, std::memory_order_relaxed);
}
[[nodiscard]] inline debug_level get_debug_level() noexcept {
  return detail::debug_config().level.load(std::memory_order_relaxed);
}
/// The rank lines name ([R<rank>]); no_rank names none.
inline void set_debug_rank(rank_t rank) noexcept { detail::debug_config().rank.store(rank, std::memory_order_relaxed); }
/// Whether lines name the rank and the source location.
inline void configure_debug(bool show_rank, bool show_location) noexcept {
  detail::debug_config().show_rank.store(show_rank, std::memory_order_relaxed);
  detail::debug_config().show_location.store(show_location, std::memory_order_relaxed);
}
/// Where lines go from now on; it must outlive the lines written to it.
inline void set_debug_stream(std::ostream& stream) {
  auto& config = detail::debug_config();
  const std::lock_guard lock(config.stream_mutex);
  config.stream = &stream;
}

namespace detail {
/// Writes one line at `level` made of `args` (each streamed with <<), if the level lets it through.
template <class... Args>
void debug_output(debug_level level, const std::source_location& where, Args&&... args) {
  auto& config = debug_config();
  if (level == debug_level::none || level > config.level.load(std::memory_order_relaxed)) return;
  std::ostringstream line;
  line << '[' << to_string(level) << ']';
  const rank_t rank = config.rank.load(std::memory_order_relaxed);
  if (config.show_rank.load(std::memory_order_relaxed) && rank != no_rank) line << "[R" << rank << ']';
  if (config.show_location.load(std::memory_order_relaxed)) {
    line << ' ' << where.file_name() << ':' << where.line();
    if (*where.function_name() != '\0') line << " (" << where.function_name() << ')';
  }
  line << ": ";
  (line << ... << std::forward<Args>(args));
  line << '\n';
  const std::lock_guard lock(config.stream_mutex);
  std::ostream& out = config.stream != nullptr ? *config.stream : std::cerr;
  out << line.str() << std::flush;
}
}  // namespace detail

// debug_error(args...) and its kin: a line at their level, naming the caller's location. (Each is a
// type so that the location can follow the arguments: `dtl::debug_info("n = ", n);` is a statement.)
#define DTL_DEBUG_LEVEL_FUNCTION_(name, level)                                                           \
  template <class... Args>                                                                               \
  struct name {                                                                                          \
    explicit name(Args&&... args, const std::source_location& where = std::source_location::current()) { \
      detail::debug_output(level, where, std::forward<Args>(args)...);                                   \
    }                                                                                                    \
  };                                                                                                     \
  template <class... Args>                                                                               \
  name(Args&&...)->name<Args...>
DTL_DEBUG_LEVEL_FUNCTION_(debug_error, debug_level::error);
DTL_DEBUG_LEVEL_FUNCTION_(debug_warning, debug_level::warning);
DTL_DEBUG_LEVEL_FUNCTION_(debug_info, debug_level::info);
DTL_DEBUG_LEVEL_FUNCTION_(debug_msg, debug_level::debug);
DTL_DEBUG_LEVEL_FUNCTION_(debug_trace, debug_level::trace);
#undef DTL_DEBUG_LEVEL_FUNCTION_

/// An info line, written only where the debug rank is 0 or unset.
template <class... Args>
struct debug_root {
  explicit debug_root(Args&&... args, const std::source_location& where = std::source_location::current()) {
    const rank_t rank = detail::debug_config().rank.load(std::memory_order_relaxed);
    if (rank == 0 || rank == no_rank) detail::debug_output(debug_level::info, where, std::forward<Args>(args)...);
  }
};
template <class... Args>
debug_root(Args&&...) -> debug_root<Args...>;

/// An info line, written only where the debug rank is `rank`.
template <class... Args>
struct debug_rank {
  explicit debug_rank(rank_t rank, Args&&... args,
                      const std::source_location& where = std::source_location::current()) {
    if (detail::debug_config().rank.load(std::memory_order_relaxed) == rank)
      detail::debug_output(debug_level::info, where, std::forward<Args>(args)...);
  }
};
template <class... Args>
debug_rank(rank_t, Args&&...) -> debug_rank<Args...>;

/// Prints the failed condition, the message, where and the debug rank to std::cerr, then aborts.
[[noreturn]] inline void assertion_failed(std::string_view condition, std::string_view message,
                                          const std::source_location& where) noexcept {
  std::ostringstream report;
  report << "DTL Assertion Failed!\n  Condition: " << condition << '\n';
  if (!message.empty()) report << "  Message: " << message << '\n';
  report << "  Location: " << where.file_name() << ':' << where.line() << "\n  Function: " << where.function_name()
         << '\n';
  const rank_t rank = detail::debug_config().rank.load(std::memory_order_relaxed);
  if (rank != no_rank) report << "  Rank: " << rank << '\n';
  std::cerr << report.str() << std::flush;
  std::abort();
}

/// Measures a scope; its end writes "<name> took <seconds>s" at its level.
class scoped_timer {
 public:
  using clock = std::chrono::steady_clock;
  using time_point = clock::time_point;
  using duration = std::chrono::duration<double>;

  explicit scoped_timer(std::string name, debug_level level = debug_level::info,
                        const std::source_location& where = std::source_location::current())
      : name_(std::move(name)), level_(level), where_(where), start_(clock::now()) {}
  scoped_timer(const scoped_timer&) = delete;
  scoped_timer& operator=(const scoped_timer&) = delete;
  ~scoped_timer() {
    try {
      detail::debug_output(level_, where_, name_, " took ", elapsed(), "s");
    } catch (...) {  // a destructor must not throw (the stream may)
    }
  }
  /// Seconds since the timer started.
  [[nodiscard]] double elapsed() const { return duration(clock::now() - start_).count(); }

 private:
  std::string name_;
  debug_level level_;
  std::source_location where_;
  time_point start_;
};

}  // namespace dtl

#define DTL_ASSERT_MSG(condition, message)                                                           \
  do {                                                                                               \
    if (!(condition)) ::dtl::assertion_failed(#condition, message, std::source_location::current()); \
  } while (false)
#define DTL_ASSERT(condition) DTL_ASSERT_MSG(condition, "")
#ifdef DTL_DEBUG
#define DTL_DEBUG_ASSERT(condition) DTL_ASSERT(condition)
#define DTL_DEBUG_ASSERT_MSG(condition, message) DTL_ASSERT_MSG(condition, message)
#else
#define DTL_DEBUG_ASSERT(condition) ((void)0)
#define DTL_DEBUG_ASSERT_MSG(condition, message) ((void)0)
#endif
#define DTL_PRECONDITION(condition) DTL_ASSERT_MSG(condition, "Precondition violated")
#define DTL_POSTCONDITION(condition) DTL_ASSERT_MSG(condition, "Postcondition violated")
#define DTL_INVARIANT(condition) DTL_ASSERT_MSG(condition, "Invariant violated")
#define DTL_UNREACHABLE() \
  ::dtl::assertion_failed("unreachable", "Code path should be unreachable", std::source_location::current())

#define DTL_DEBUG_CONCAT_IMPL_(a, b) a##b
#define DTL_DEBUG_CONCAT_(a, b) DTL_DEBUG_CONCAT_IMPL_(a, b)
/// Times the rest of the scope at info level.
#define DTL_TIMED_SCOPE(name) const ::dtl::scoped_timer DTL_DEBUG_CONCAT_(dtl_timed_scope_, __LINE__)(name)

#define DTL_INSPECT(value) ::dtl::debug_msg(#value, " = ", value)
#define DTL_INSPECT2(v1, v2) ::dtl::debug_msg(#v1, " = ", v1, ", ", #v2, " = ", v2)
#define DTL_INSPECT3(v1, v2, v3) ::dtl::debug_msg(#v1, " = ", v1, ", ", #v2, " = ", v2, ", ", #v3, " = ", v3)
