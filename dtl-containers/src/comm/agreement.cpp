// SPDX-License-Identifier: MIT
// The agreement step (detail/agreement.hpp): one allreduce of an agreement message on the fast path (which
// may carry the collective's counts and data: agreement_record.hpp); a second round, only when some rank
// failed or the ranks disagree, finds out who and why.
#include "comm/agreement_record.hpp"
#include "comm/state.hpp"

#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtl::detail {

namespace {

constexpr std::size_t name_bytes = 48;
constexpr std::size_t message_bytes = 480;
constexpr std::size_t origin_bytes = 160;

// The call's name and arguments, hashed: equal on every rank that makes the same call. The arguments
// go in a word at a time (a byte at a time, FNV-1a's chain of multiplies was a measurable part of a
// small collective).
std::uint64_t fingerprint(const call_signature& call) {
  std::uint64_t h = fnv1a(call.what, std::strlen(call.what));
  for (const std::int64_t arg : call.args) {
    h = (h ^ static_cast<std::uint64_t>(arg)) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
  }
  return h;
}

/// This rank's message: its status, its call, and what the call's rider sends.
void fill_message(agreement_message& message, const status& local, int rank, const call_signature& call,
                  agreement_rider* rider) {
  agreement_record& record = message.record();
  const std::uint64_t mine = fingerprint(call);
  record.call_max = mine;
  record.not_call_max = ~mine;
  record.failing = local.ok() ? 0 : INT_MAX - rank;
  if (rider == nullptr) return;
  record.counts_sum = rider->counts_check;
  record.maxima = rider->maxima;
  record.flags = rider->flags;
  const payload_kind kind = rider->kind();
  if (kind == payload_kind::none) return;
  record.wanted = static_cast<std::uint32_t>(std::min<std::size_t>(rider->wanted_bytes(), UINT32_MAX));
  if (local.ok() && rider->put(message.payload()))
    record.kind = kind;
  else
    record.flags |= not_carried_flag;
}

/// What every rank found, for the call's rider; the data, when it all travelled in the message.
void settle_rider(agreement_message& message, agreement_rider& rider) {
  const agreement_record& record = message.record();
  rider.settled = true;
  rider.counts_sum = record.counts_sum;
  rider.maxima_of_all = record.maxima;
  rider.flags_of_all = static_cast<std::uint16_t>(record.flags & ~not_carried_flag);
  rider.carried = rider.kind() != payload_kind::none && record.kind == rider.kind() &&
                  (record.flags & not_carried_flag) == 0 && record.counts_sum == 0;
  if (rider.carried) rider.take(message.payload());
}

// What each rank tells the others in the second round.
struct rank_report {
  std::int32_t failed = 0;
  std::int32_t code = 0;
  std::int64_t args[6] = {};
  char what[name_bytes] = {};
};

// The lowest failing rank's failure, broadcast to the others.
struct failure_text {
  char message[message_bytes] = {};
  char origin[origin_bytes] = {};
};

std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) out += fmt::format("{}{}", i == 0 ? "" : ", ", ranks[i]);
  if (ranks.size() > 8) out += fmt::format(", ... ({} in all)", ranks.size());
  return out;
}

// The ranks disagree on the call: say on what, rank by rank. (Only what every rank knows goes into the
// message, so that it is the same on every rank: the labels of a call that every rank makes alike.)
status disagreement(const call_signature& call, const std::vector<rank_report>& reports) {
  const char* what = reports[0].what;
  std::string detail;
  const bool same_call =
      std::all_of(reports.begin(), reports.end(), [&](const rank_report& r) { return std::strcmp(r.what, what) == 0; });
  if (!same_call) {
    for (std::size_t r = 0; r < reports.size() && r < 8; ++r)
      detail += fmt::format("{}rank {} calls {}", r == 0 ? "" : ", ", r, reports[r].what);
    return status(status_code::invalid_argument,
                  fmt::format("the ranks call different collectives ({}); every rank must make the same collective "
                              "calls, in the same order",
                              detail));
  }
  for (std::size_t i = 0; i < call.labels.size() && call.labels[i] != nullptr; ++i) {
    const bool differs = std::any_of(reports.begin(), reports.end(),
                                     [&](const rank_report& r) { return r.args[i] != reports[0].args[i]; });
    if (!differs) continue;
    detail += fmt::format("{}{}:", detail.empty() ? "" : "; ", call.labels[i]);
    for (std::size_t r = 0; r < reports.size() && r < 8; ++r)
      detail += fmt::format("{} {} on rank {}", r == 0 ? "" : ",", reports[r].args[i], r);
  }
  return status(
      status_code::invalid_argument,
      fmt::format("{}: the ranks pass different arguments ({}); every rank must pass the same", what, detail));
}

}  // namespace

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash) noexcept {
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= static_cast<const unsigned char*>(data)[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

bool agreement_enabled() noexcept {
  static const bool enabled = [] {
    const char* text = std::getenv("DTL_AGREEMENT");
    return text == nullptr || std::string_view(text) != "off";
  }();
  return enabled;
}

status agree_on(comm_backend& comm, const status& local, const call_signature& call) {
  if (comm.size() == 1 || !agreement_enabled()) return local;
  const int rank = comm.rank();
  agreement_rider* rider = call.rider != nullptr && !call.rider->spent ? call.rider : nullptr;
  if (rider != nullptr) rider->spent = true;
  agreement_message message(comm.agreement_sizing.payload_bytes());
  fill_message(message, local, rank, call, rider);
  const agreement_record& record = message.record();
  const std::uint64_t mine = record.call_max;
  DTL_TRY(comm.agree_record(message.bytes()));
  comm.agreement_sizing.saw(record.wanted);  // the same on every rank: the next step's size
  const bool all_ok = record.failing == 0, same_call = record.call_max == mine && ~record.not_call_max == mine;
  if (all_ok && same_call) {
    if (rider != nullptr) settle_rider(message, *rider);
    return {};
  }

  // Second round: every rank's report, then the lowest failing rank's message.
  rank_report report;
  report.failed = local.ok() ? 0 : 1;
  report.code = static_cast<std::int32_t>(local.code());
  std::copy(call.args.begin(), call.args.end(), report.args);
  std::strncpy(report.what, call.what, name_bytes - 1);
  std::vector<rank_report> reports(static_cast<std::size_t>(comm.size()));
  DTL_TRY(comm.allgather(&report, reports.data(), sizeof report));
  if (all_ok) return disagreement(call, reports);

  std::vector<int> failing;
  for (std::size_t r = 0; r < reports.size(); ++r)
    if (reports[r].failed != 0) failing.push_back(static_cast<int>(r));
  const int first = INT_MAX - record.failing;
  const auto code = static_cast<status_code>(reports[static_cast<std::size_t>(first)].code);
  const bool every_rank_alike =
      failing.size() == reports.size() &&
      std::all_of(reports.begin(), reports.end(), [&](const rank_report& r) { return r.code == reports[0].code; });
  // The lowest failing rank's own words and where it found the failure, sent once: the agreed status
  // names that place (not this file), and repeats the cause's code only when its own code differs.
  failure_text text;
  if (rank == first) {
    const std::string said = every_rank_alike ? std::string(local.message()) : local.summary();
    std::snprintf(text.message, sizeof text.message, "%s", said.c_str());
    std::snprintf(text.origin, sizeof text.origin, "%s", local.origin().c_str());
  }
  DTL_TRY(comm.broadcast(&text, sizeof text, first));
  const char* what = reports[static_cast<std::size_t>(first)].what;  // the same on every rank
  if (every_rank_alike)
    return status(code, fmt::format("{}: every rank failed; rank {}: {}", what, first, text.message))
        .with_origin(text.origin);
  return status(status_code::collective_failure,
                fmt::format("{}: {} of {} ranks failed (rank{} {}); rank {}: {}", what, failing.size(), reports.size(),
                            failing.size() == 1 ? "" : "s", rank_list(failing), first, text.message))
      .with_origin(text.origin);
}

namespace {
thread_local const char* t_current_collective = nullptr;
}  // namespace

const char* current_collective() noexcept { return t_current_collective; }

status empty_context() {
  return status(status_code::invalid_state,
                "this context is empty (it was moved from, or split() left this rank out of every sub-context): "
                "it has no ranks to communicate with");
}

collective_call::collective_call(context_state* state, const call_signature& signature)
    : state_(state), signature_(signature), outer_(std::exchange(t_current_collective, signature.what)) {
  if (state_ == nullptr) {
    usable_ = empty_context();
    return;
  }
  if (status s = state_->check(); !s.ok()) {
    usable_ = std::move(s);
    return;
  }
  if (status s = state_->comm->can_communicate(); !s.ok()) {
    usable_ = s.with_context(signature.what);
    return;
  }
  if (state_->comm->size() == 1) return;  // nothing to pair up with
  turn_ = std::unique_lock<std::mutex>(state_->collective_mutex, std::try_to_lock);
  if (!turn_.owns_lock()) {
    if (state_->collective_thread.load() == std::this_thread::get_id()) return;  // a collective inside our own
    state_->shared_by_threads.store(true);
    turn_.lock();
  }
  state_->collective_thread.store(std::this_thread::get_id());
  if (state_->shared_by_threads.load())
    shared_ =
        status(status_code::invalid_state,
               fmt::format("{}: this context was used by two threads at once (a collective began while another thread "
                           "was inside one on it), so its calls may have paired with other calls on other ranks; the "
                           "context no longer communicates. A context serves one thread at a time: give each thread "
                           "its own (make_world_context() or split())",
                           signature_.what));
}

collective_call::~collective_call() {
  t_current_collective = outer_;
  if (turn_.owns_lock()) state_->collective_thread.store(std::thread::id());
}

status collective_call::agree(const status& local) {
  if (!usable_.ok()) return usable_;
  // A failure the caller found before this collective comes before the collective's own checks (which
  // saw the caller's arguments only after that failure).
  const status carried = carried_failure::take();
  return agree_on(*state_->comm, !shared_.ok() ? shared_ : !carried.ok() ? carried : local, signature_);
}

namespace {
thread_local carried_failure* t_carried = nullptr;  // the innermost on this thread
}  // namespace

carried_failure::carried_failure(status failure) : failure_(std::move(failure)), outer_(t_carried) { t_carried = this; }

carried_failure::~carried_failure() { t_carried = outer_; }

status carried_failure::take() {
  if (t_carried == nullptr || t_carried->delivered_) return {};
  t_carried->delivered_ = true;
  return t_carried->failure_;
}

status agree(const context& ctx, const status& local, const call_signature& call) {
  // A context without a communicator (detached.cpp) has no other rank to agree with: this rank's own
  // outcome is the agreed one. What the caller moves between ranks next fails in its own collective.
  if (const context_state* state = context_access::state(ctx);
      state != nullptr && state->check().ok() && !state->comm->can_communicate().ok())
    return local;
  collective_call c(context_access::state(ctx), call);
  if (!c.usable().ok()) return c.usable();
  return c.agree(local);
}

status agree(const context& ctx, const status& local) { return agree(ctx, local, call_signature{}); }

}  // namespace dtl::detail
