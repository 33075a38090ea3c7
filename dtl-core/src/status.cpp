// SPDX-License-Identifier: MIT
#include <dtl/core/status.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cstdio>

namespace dtl {

struct status::details {
  std::string message;
  bool has_native = false;
  native_error native;
  std::source_location where;
  std::string origin;  // set by with_origin; otherwise where is the origin
};

status::status(status_code code, std::string message, std::source_location where) : code_(code) {
  if (code != status_code::ok)
    details_ = std::make_shared<const details>(details{std::move(message), false, {}, where, {}});
}

status::status(status_code code, std::string message, native_error native, std::source_location where) : code_(code) {
  if (code != status_code::ok)
    details_ = std::make_shared<const details>(details{std::move(message), true, std::move(native), where, {}});
}

status::status(status_code code, rank_t rank, std::string message, std::source_location where)
    : status(code, std::move(message), where) {
  rank_ = rank;
}

std::string_view source_path(std::string_view file) noexcept {
  std::size_t from = std::string_view::npos;  // the last component that names a member
  for (const std::string_view member : {"dtl-core/", "dtl-hip-mem/", "dtl-hip-exec/", "dtl-containers/"}) {
    for (std::size_t at = file.find(member); at != std::string_view::npos; at = file.find(member, at + 1)) {
      const bool whole_component = at == 0 || file[at - 1] == '/';
      if (whole_component && (from == std::string_view::npos || at > from)) from = at;
    }
  }
  if (from != std::string_view::npos) return file.substr(from);
  while (file.starts_with("./") || file.starts_with("../")) file.remove_prefix(file.find('/') + 1);
  return file;
}

const std::string& status::message() const noexcept {
  static const std::string none;
  return details_ ? details_->message : none;
}

const native_error* status::native() const noexcept {
  return details_ && details_->has_native ? &details_->native : nullptr;
}

int status::native_code() const noexcept { return native() ? native()->code : 0; }

std::string_view status::native_name() const noexcept {
  return native() ? std::string_view(native()->name) : std::string_view();
}

std::source_location status::location() const noexcept { return details_ ? details_->where : std::source_location(); }

std::string status::origin() const {
  if (!details_) return {};
  if (!details_->origin.empty()) return details_->origin;
  if (details_->where.line() == 0) return {};
  return fmt::format("{}:{}", source_path(details_->where.file_name()), details_->where.line());
}

status status::with_origin(std::string origin) const {
  if (!details_) return *this;
  status copy = *this;
  details forwarded = *details_;
  forwarded.origin = std::move(origin);
  copy.details_ = std::make_shared<const details>(std::move(forwarded));
  return copy;
}

bool operator==(const status& a, const status& b) noexcept {
  if (a.code_ != b.code_) return false;
  if (a.rank_ != b.rank_ || a.message() != b.message()) return false;
  const native_error* x = a.native();
  const native_error* y = b.native();
  if (x == nullptr || y == nullptr) return x == y;
  return x->code == y->code && x->name == y->name && x->description == y->description;
}

status status::with_context(std::string_view what) const {
  if (!details_) return *this;
  status copy = *this;
  details forwarded = *details_;
  forwarded.message = forwarded.message.empty() ? std::string(what) : fmt::format("{}: {}", what, forwarded.message);
  if (forwarded.origin.empty()) forwarded.origin = origin();
  copy.details_ = std::make_shared<const details>(std::move(forwarded));
  return copy;
}

std::string status::summary() const {
  if (ok()) return "ok";
  std::string text = fmt::format("{} ({}, {})", name(), to_int(code_), category());
  if (rank_ != no_rank) text += fmt::format(" on rank {}", rank_);
  if (!message().empty()) text += fmt::format(": {}", message());
  if (const native_error* n = native()) {
    text += fmt::format(" [{} ({})", n->name, n->code);
    if (!n->description.empty() && n->description != n->name) text += fmt::format(": {}", n->description);
    text += "]";
  }
  return text;
}

std::string status::to_string() const {
  std::string text = summary();
  if (const std::string where = origin(); !where.empty()) text += fmt::format(" at {}", where);
  return text;
}

namespace {

void print_unhandled(const status& s) noexcept {
  try {
    std::fprintf(stderr, "dtl: unhandled error: %s\n", s.to_string().c_str());
  } catch (...) {
    std::fprintf(stderr, "dtl: unhandled error %d (could not format it)\n", to_int(s.code()));
  }
}

std::atomic<unhandled_error_handler> g_unhandled_handler{&print_unhandled};

}  // namespace

void report_unhandled(const status& s) noexcept {
  if (s.ok()) return;
  g_unhandled_handler.load()(s);
}

unhandled_error_handler set_unhandled_error_handler(unhandled_error_handler handler) noexcept {
  return g_unhandled_handler.exchange(handler != nullptr ? handler : &print_unhandled);
}

}  // namespace dtl
