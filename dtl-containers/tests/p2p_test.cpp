// SPDX-License-Identifier: MIT
// Point-to-point on a context over MPI (run with 1, 2 and 3 ranks, and with DTL_MPI_MESSAGE_LIMIT set
// small so that messages travel in pieces), and on a single-process context (make_cpu_context):
// blocking and non-blocking forms, tags matched out of order, zero counts, and bad input: the sender
// returns its own failure, the receiver the sender's (the very same status) or else its own. Payloads are
// checked against a serial reference.
#include "test_environment.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

dtl::context world() { return test_support::environment()->make_world_context(); }

/// The serial reference: element i of the message that `from` sends to `to` under `tag`.
std::int64_t value(int from, int to, int tag, std::size_t i) {
  return (static_cast<std::int64_t>(from) * 1000003 + to * 10007 + tag * 101) ^
         static_cast<std::int64_t>(i * 2654435761u);
}
std::vector<std::int64_t> message(int from, int to, int tag, std::size_t n) {
  std::vector<std::int64_t> m(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = value(from, to, tag, i);
  return m;
}
/// A count that differs per sender and does not divide evenly.
std::size_t count_from(int rank) { return 1000 + 7 * static_cast<std::size_t>(rank) + 3; }

/// This rank's partner in pairs (0,1), (2,3), ...: -1 for a rank without one. One rank pairs with itself.
int partner(const dtl::context& ctx) {
  if (ctx.size() == 1) return 0;
  const int p = ctx.rank() ^ 1;
  return p < ctx.size() ? p : -1;
}

/// Every rank's (code, message) of `s`, so that a pair's statuses can be compared.
std::vector<std::pair<int, std::uint64_t>> everyones(const dtl::context& ctx, const dtl::status& s) {
  const std::uint64_t mine[2] = {static_cast<std::uint64_t>(s.code()),
                                 std::hash<std::string>{}(std::string(s.message()))};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(ctx.size()));
  REQUIRE(ctx.allgather(mine, all.data(), 2).has_value());
  std::vector<std::pair<int, std::uint64_t>> out;
  for (std::size_t r = 0; r < all.size(); r += 2) out.emplace_back(static_cast<int>(all[r]), all[r + 1]);
  return out;
}

dtl::status status_of(const dtl::result<void>& r) { return r ? dtl::status{} : r.error(); }

/// The statuses of one transfer: the send's and the receive's (ok for a half this rank does not take).
struct sides {
  dtl::status sent, got;
  [[nodiscard]] bool ok() const { return sent.ok() && got.ok(); }
};

/// Whether this rank sends, or receives, in transfer() (one rank does both).
bool sends(const dtl::context& ctx) { return ctx.size() == 1 || ctx.rank() % 2 == 0; }
bool receives(const dtl::context& ctx) { return ctx.size() == 1 || ctx.rank() % 2 == 1; }

/// One transfer between a pair with each side's own arguments: blocking on two ranks (the even one
/// sends), isend/irecv to oneself on one. All ok on a rank without a partner.
template <class S, class R>
sides transfer(const dtl::context& ctx, const S* send, std::size_t send_count, R* recv, std::size_t recv_count,
               int tag) {
  const int other = partner(ctx);
  if (other < 0) return {};
  if (ctx.size() == 1) {
    auto r = ctx.irecv(recv, recv_count, 0, tag);
    auto s = ctx.isend(send, send_count, 0, tag);
    REQUIRE(r.has_value());
    REQUIRE(s.has_value());
    const dtl::status sent = status_of(s->wait());
    return {sent, status_of(r->wait())};
  }
  if (sends(ctx)) return {status_of(ctx.send(send, send_count, other, tag)), {}};
  return {{}, status_of(ctx.recv(recv, recv_count, other, tag))};
}

/// Each side's status: the send's of `send_code` (its own checks only), the receive's of `recv_code`;
/// where the sender failed, the receiver returns the very same status.
void check_sides(const dtl::context& ctx, const sides& mine, dtl::status_code send_code, dtl::status_code recv_code) {
  const auto sent = everyones(ctx, mine.sent), got = everyones(ctx, mine.got);
  const int other = partner(ctx);
  if (other < 0) return;
  if (sends(ctx)) CHECK(mine.sent.code() == send_code);
  if (receives(ctx)) CHECK(mine.got.code() == recv_code);
  const auto sender = static_cast<std::size_t>(sends(ctx) ? ctx.rank() : other);
  const auto receiver = static_cast<std::size_t>(receives(ctx) ? ctx.rank() : other);
  if (send_code != dtl::status_code::ok) CHECK(got[receiver] == sent[sender]);
}

/// A good exchange after a failed one: nothing of the failure is left to match.
void check_clean_exchange(const dtl::context& ctx) {
  const int other = partner(ctx);
  const std::size_t n = 77;
  const auto out = message(ctx.rank(), other, 5, n);
  std::vector<std::int64_t> in(n, -1);
  REQUIRE(transfer(ctx, out.data(), n, in.data(), n, 5).ok());
  if (other >= 0 && receives(ctx)) CHECK(in == message(other, ctx.rank(), 5, n));
}

void ring(const dtl::context& ctx) {
  const int p = ctx.size(), r = ctx.rank();
  const int right = (r + 1) % p, left = (r + p - 1) % p;
  const auto out = message(r, right, 3, count_from(r));
  std::vector<std::int64_t> in(count_from(left), -1);
  REQUIRE(ctx.sendrecv(out.data(), out.size(), right, in.data(), in.size(), left, 3).has_value());
  CHECK(in == message(left, r, 3, count_from(left)));

  // The same ring with requests, waited in the other order.
  std::vector<std::int64_t> again(in.size(), -1);
  auto s = ctx.isend(out.data(), out.size(), right, 4);
  auto g = ctx.irecv(again.data(), again.size(), left, 4);
  REQUIRE(s.has_value());
  REQUIRE(g.has_value());
  REQUIRE(s->wait().has_value());
  REQUIRE(g->wait().has_value());
  CHECK(again == message(left, r, 3, count_from(left)));  // the same payload, under tag 4
  CHECK_FALSE(s->pending());
  CHECK(s->wait().has_value());  // a second wait is ok at once
}

void tags_out_of_order(const dtl::context& ctx) {
  const int other = partner(ctx);
  if (other < 0) return;
  const bool sends = ctx.size() == 1 || ctx.rank() % 2 == 0, receives = ctx.size() == 1 || ctx.rank() % 2 == 1;
  std::vector<std::vector<std::int64_t>> out, in;
  for (int tag = 0; tag < 3; ++tag) {
    out.push_back(message(ctx.rank(), other, tag, 10 + static_cast<std::size_t>(tag)));
    in.emplace_back(10 + static_cast<std::size_t>(tag), -1);
  }
  std::vector<dtl::request> pending;
  if (receives)  // posted in the order 2, 0, 1
    for (int tag : {2, 0, 1})
      pending.push_back(
          ctx.irecv(in[static_cast<std::size_t>(tag)].data(), in[static_cast<std::size_t>(tag)].size(), other, tag)
              .value());
  if (sends)  // sent in the order 0, 1, 2
    for (int tag : {0, 1, 2})
      pending.push_back(
          ctx.isend(out[static_cast<std::size_t>(tag)].data(), out[static_cast<std::size_t>(tag)].size(), other, tag)
              .value());
  for (auto it = pending.rbegin(); it != pending.rend(); ++it) REQUIRE(it->wait().has_value());
  if (receives)
    for (int tag = 0; tag < 3; ++tag)
      CHECK(in[static_cast<std::size_t>(tag)] == message(other, ctx.rank(), tag, 10 + static_cast<std::size_t>(tag)));
}

/// Messages of one tag arrive in the order sent: small ones (in the header's message) and larger ones.
void same_tag_in_order(const dtl::context& ctx, std::size_t n) {
  const int other = partner(ctx);
  if (other < 0) return;
  const bool sends = ctx.size() == 1 || ctx.rank() % 2 == 0, receives = ctx.size() == 1 || ctx.rank() % 2 == 1;
  std::vector<std::vector<std::int64_t>> out, in;
  for (int k = 0; k < 4; ++k) {
    out.push_back(message(ctx.rank(), other, 100 + k, n + static_cast<std::size_t>(k)));
    in.emplace_back(n + static_cast<std::size_t>(k), -1);
  }
  std::vector<dtl::request> recvs, sends_;
  if (receives)
    for (auto& m : in) recvs.push_back(ctx.irecv(m.data(), m.size(), other, 9).value());
  if (sends)
    for (auto& m : out) sends_.push_back(ctx.isend(m.data(), m.size(), other, 9).value());
  // Tested out of order: the last receive first. Messages of one tag still arrive in the order sent.
  for (auto it = recvs.rbegin(); it != recvs.rend(); ++it) REQUIRE(it->wait().has_value());
  for (auto& s : sends_) REQUIRE(s.wait().has_value());
  if (receives)
    for (int k = 0; k < 4; ++k)
      CHECK(in[static_cast<std::size_t>(k)] == message(other, ctx.rank(), 100 + k, n + static_cast<std::size_t>(k)));
}

void polling(const dtl::context& ctx) {
  const int p = ctx.size(), r = ctx.rank();
  const int right = (r + 1) % p, left = (r + p - 1) % p;
  const auto out = message(r, right, 6, count_from(r));
  std::vector<std::int64_t> in(count_from(left), -1);
  auto g = ctx.irecv(in.data(), in.size(), left, 6).value();
  auto s = ctx.isend(out.data(), out.size(), right, 6).value();
  bool sent = false, got = false;
  for (long spins = 0; !(sent && got); ++spins) {
    if (!sent) sent = s.test().value();
    if (!got) got = g.test().value();
    REQUIRE(spins < 100'000'000);
  }
  CHECK(g.pending());  // tested complete, not yet collected
  REQUIRE(g.wait().has_value());
  REQUIRE(s.wait().has_value());
  CHECK_FALSE(g.pending());
  CHECK(in == message(left, r, 6, count_from(left)));
}

void zero_counts(const dtl::context& ctx) {
  const int other = partner(ctx);
  CHECK(transfer<std::int64_t, std::int64_t>(ctx, nullptr, 0, nullptr, 0, 1).ok());
  const int p = ctx.size(), r = ctx.rank();
  std::int64_t keep = 42;
  REQUIRE(ctx.sendrecv<std::int64_t>(nullptr, 0, (r + 1) % p, &keep, 0, (r + p - 1) % p, 2).has_value());
  CHECK(keep == 42);  // nothing written
  static_cast<void>(other);
  check_clean_exchange(ctx);
}

void bad_input(const dtl::context& ctx) {
  constexpr auto ok = dtl::status_code::ok, invalid = dtl::status_code::invalid_argument;
  std::vector<std::int64_t> a(20, 1), b(21, -1);
  // Counts that differ between the send and its receive: the receiver finds it, alone (as with MPI).
  check_sides(ctx, transfer(ctx, a.data(), 20, b.data(), 21, 1), ok, invalid);
  check_clean_exchange(ctx);
  check_sides(ctx, transfer(ctx, a.data(), 20, b.data(), 19, 1), ok, invalid);
  check_clean_exchange(ctx);
  // Past the eager limit: the receiver takes the payload that follows the header and drops it.
  std::vector<std::int64_t> big(1000, 1), bigger(1001, -1);
  check_sides(ctx, transfer(ctx, big.data(), big.size(), bigger.data(), bigger.size(), 1), ok, invalid);
  check_clean_exchange(ctx);
  // Element sizes that differ (the same bytes, another type).
  std::vector<std::int32_t> halves(40, 0);
  check_sides(ctx, transfer(ctx, a.data(), 20, halves.data(), 20, 1), ok, invalid);
  check_clean_exchange(ctx);
  // A null buffer with a non-zero count, on the sending side (its receiver returns the sender's
  // failure), then on the receiving side (the receiver's own).
  check_sides(ctx, transfer<std::int64_t, std::int64_t>(ctx, nullptr, 20, b.data(), 20, 1), invalid, invalid);
  check_clean_exchange(ctx);
  check_sides(ctx, transfer<std::int64_t, std::int64_t>(ctx, a.data(), 20, nullptr, 20, 1), ok, invalid);
  check_clean_exchange(ctx);
  // Both sides wrong: the receiver returns the sender's failure.
  check_sides(ctx, transfer<std::int64_t, std::int64_t>(ctx, nullptr, 3, nullptr, 4, 1), invalid, invalid);
  check_clean_exchange(ctx);

  // What fails before any message, on the calling rank alone.
  const int p = ctx.size();
  CHECK(ctx.send(a.data(), 1, p, 0).error() == dtl::status_code::invalid_rank);
  CHECK(ctx.recv(b.data(), 1, -1, 0).error() == dtl::status_code::invalid_rank);
  CHECK(ctx.isend(a.data(), 1, p + 3, 0).error() == dtl::status_code::invalid_rank);
  CHECK(ctx.irecv(b.data(), 1, -2, 0).error() == dtl::status_code::invalid_rank);
  CHECK(ctx.sendrecv(a.data(), 1, 0, b.data(), 1, p, 0).error() == dtl::status_code::invalid_rank);
  CHECK(ctx.send(a.data(), 1, 0, -1).error() == dtl::status_code::invalid_argument);
  if (ctx.max_tag() < std::numeric_limits<int>::max())
    CHECK(ctx.irecv(b.data(), 1, 0, ctx.max_tag() + 1).error() == dtl::status_code::invalid_argument);
  CHECK(ctx.sendrecv(a.data(), 1, 0, b.data(), 1, 0, -5).error() == dtl::status_code::invalid_argument);
  // A blocking send or receive with oneself could never complete.
  CHECK(ctx.send(a.data(), 1, ctx.rank(), 0).error() == dtl::status_code::invalid_argument);
  CHECK(ctx.recv(b.data(), 1, ctx.rank(), 0).error() == dtl::status_code::invalid_argument);
  check_clean_exchange(ctx);
}

void sendrecv_with_oneself(const dtl::context& ctx) {
  const int r = ctx.rank();
  const auto out = message(r, r, 8, 333);
  std::vector<std::int64_t> in(333, -1);
  REQUIRE(ctx.sendrecv(out.data(), out.size(), r, in.data(), in.size(), r, 8).has_value());
  CHECK(in == out);
  CHECK(ctx.sendrecv(out.data(), 5, r, in.data(), 6, r, 8).error() == dtl::status_code::invalid_argument);
  // With a receive and a send to oneself in flight (same tag), MPI's order holds: the earlier pair
  // matches first, and the sendrecv gets its own message.
  const auto early = message(r, r, 9, 40), late = message(r, r, 10, 40);
  std::vector<std::int64_t> first(40, -1), second(40, -1);
  auto g = ctx.irecv(first.data(), first.size(), r, 9).value();
  auto s = ctx.isend(early.data(), early.size(), r, 9).value();
  REQUIRE(ctx.sendrecv(late.data(), late.size(), r, second.data(), second.size(), r, 9).has_value());
  REQUIRE(g.wait().has_value());
  REQUIRE(s.wait().has_value());
  CHECK(first == early);
  CHECK(second == late);
}

/// Both ranks send first (requests), then receive, and wait for the sends first: the handshake of one
/// message progresses while the program waits for another.
void sends_first(const dtl::context& ctx) {
  const int other = partner(ctx);
  if (other < 0) return;
  const std::size_t n = (std::size_t{1} << 18) + 5;  // past any eager limit
  const auto out = message(ctx.rank(), other, 11, n);
  std::vector<std::int64_t> in(n, -1);
  auto s = ctx.isend(out.data(), n, other, 11).value();
  auto g = ctx.irecv(in.data(), n, other, 11).value();
  REQUIRE(s.wait().has_value());
  REQUIRE(g.wait().has_value());
  CHECK(in == message(other, ctx.rank(), 11, n));
}

/// Requests destroyed while pending wait for their transfer.
void destroyed_pending(const dtl::context& ctx) {
  const int other = partner(ctx);
  if (other < 0) return;
  const std::size_t n = 4099;
  const auto out = message(ctx.rank(), other, 12, n);
  std::vector<std::int64_t> in(n, -1);
  {
    auto g = ctx.irecv(in.data(), n, other, 12).value();
    auto s = ctx.isend(out.data(), n, other, 12).value();
  }
  CHECK(in == message(other, ctx.rank(), 12, n));
}

void large(const dtl::context& ctx) {
  const int p = ctx.size(), r = ctx.rank();
  const int right = (r + 1) % p, left = (r + p - 1) % p;
  const std::size_t n = (std::size_t{1} << 20) + 13 * static_cast<std::size_t>(r) + 1;
  const std::size_t n_left = (std::size_t{1} << 20) + 13 * static_cast<std::size_t>(left) + 1;
  const auto out = message(r, right, 13, n);
  std::vector<std::int64_t> in(n_left, -1);
  REQUIRE(ctx.sendrecv(out.data(), n, right, in.data(), n_left, left, 13).has_value());
  CHECK(in == message(left, r, 13, n_left));
}

void all_cases(const dtl::context& ctx) {
  SUBCASE("ring: sendrecv and requests") { ring(ctx); }
  SUBCASE("tags matched out of order") { tags_out_of_order(ctx); }
  SUBCASE("one tag: small messages in the order sent") { same_tag_in_order(ctx, 50); }
  SUBCASE("one tag: larger messages in the order sent") { same_tag_in_order(ctx, 3000); }
  SUBCASE("test() polling") { polling(ctx); }
  SUBCASE("zero counts") { zero_counts(ctx); }
  SUBCASE("bad input: each side's status") { bad_input(ctx); }
  SUBCASE("sendrecv with oneself") { sendrecv_with_oneself(ctx); }
  SUBCASE("both ranks send first") { sends_first(ctx); }
  SUBCASE("pending requests destroyed") { destroyed_pending(ctx); }
  SUBCASE("8 MiB messages") { large(ctx); }
}

}  // namespace

TEST_SUITE("p2p") {
  TEST_CASE("point-to-point on the world context") {
    const auto ctx = world();
    CHECK(ctx.max_tag() >= 32767);  // MPI promises MPI_TAG_UB >= 32767
    all_cases(ctx);
  }

  TEST_CASE("point-to-point on a single-process context") {
    const auto ctx = dtl::make_cpu_context();
    all_cases(ctx);
  }

  TEST_CASE("an empty context has no point-to-point") {
    auto ctx = world();
    const auto moved = std::move(ctx);
    int x = 0;
    CHECK(ctx.send(&x, 1, 0, 0).error() == dtl::status_code::invalid_state);  // NOLINT(bugprone-use-after-move)
    CHECK(ctx.irecv(&x, 1, 0, 0).error() == dtl::status_code::invalid_state);
    CHECK(ctx.max_tag() == -1);
    CHECK(moved.size() >= 1);
  }

  TEST_CASE("an empty request") {
    dtl::request r;
    CHECK_FALSE(r.pending());
    CHECK(r.test().value());
    CHECK(r.wait().has_value());
  }
}
