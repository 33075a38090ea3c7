// SPDX-License-Identifier: MIT
// Upstream DTL's remote operations (dtl/remote/) on host ranks (run with 1, 2 and 3 MPI ranks): the
// serializer and argument packs on short and damaged bytes, the registry's refusals, the messages'
// failure replies, then calls between ranks: every rank calls every rank (itself too), void and
// fire-and-forget actions, strings, futures (call_async), active messages, an action that throws, and the failures a
// caller gets back as a status (an unknown action, arguments that are not the action's, a target outside the context).
#include "doctest.hpp"
#include "test_environment.hpp"

#include <dtl/remote/action.hpp>
#include <dtl/remote/action_registry.hpp>
#include <dtl/remote/active_message.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/remote/dynamic_handler.hpp>
#include <dtl/remote/progress.hpp>
#include <dtl/remote/rpc.hpp>
#include <dtl/remote/rpc_serialization.hpp>
#include <dtl/serialization/serializer.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace dtl::remote;

int add(int a, int b) { return a + b; }
std::string greet(std::string name, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += name;
  return out;
}
int calls_seen = 0;
void count_call(int by) { calls_seen += by; }
int seen() { return calls_seen; }
int always_throws(int) { throw std::runtime_error("no"); }
std::vector<double> scaled(std::vector<double> v, double by) {
  for (double& x : v) x *= by;
  return v;
}

void halo_arrived() {}  // names an active message (not an action of the registry)

/// The same registry on every rank.
auto registry() {
  return registry_builder<8>{}
      .add<action<&add>>()
      .add<action<&greet>>()
      .add<action<&count_call>>()
      .add<action<&seen>>()
      .add<action<&always_throws>>()
      .add<action<&scaled>>()
      .build();
}

}  // namespace

TEST_SUITE("remote, one rank's parts") {
  TEST_CASE("the serializer refuses short or damaged bytes") {
    const std::string text = "remote";
    std::vector<std::byte> bytes(dtl::serialized_size(text));
    CHECK(dtl::serialize(text, bytes.data()) == bytes.size());
    CHECK(dtl::try_deserialize<std::string>(bytes.data(), bytes.size()).value() == text);
    // One byte short, and a count that claims more than there is.
    CHECK(dtl::try_deserialize<std::string>(bytes.data(), bytes.size() - 1).error().code() ==
          dtl::status_code::deserialize_failed);
    const std::uint64_t huge = 1ULL << 60;
    dtl::serialize(huge, bytes.data());
    CHECK(dtl::try_deserialize<std::vector<int>>(bytes.data(), bytes.size()).error().code() ==
          dtl::status_code::deserialize_failed);
    CHECK(dtl::try_deserialize<int>(nullptr, 0).has_error());
  }

  TEST_CASE("argument packs round-trip strings and vectors, and refuse extra bytes") {
    using pack = argument_pack<std::string, std::vector<int>, double>;
    const auto bytes = pack::serialize_to_vector(std::string("ab"), std::vector<int>{1, 2, 3}, 0.5);
    CHECK(pack::try_deserialize(bytes.data(), bytes.size()).value() ==
          std::tuple<std::string, std::vector<int>, double>{"ab", {1, 2, 3}, 0.5});
    auto longer = bytes;
    longer.push_back(std::byte{0});
    CHECK(pack::try_deserialize(longer.data(), longer.size()).error().code() == dtl::status_code::deserialize_failed);
    CHECK(pack::try_deserialize(bytes.data(), bytes.size() - 1).has_error());
  }

  TEST_CASE("the registry refuses repeats, a full registry and invalid handlers") {
    action_registry<2> reg;
    CHECK(reg.add(make_dynamic_handler<action<&add>>()).ok());
    CHECK(reg.add(make_dynamic_handler<action<&add>>()).code() == dtl::status_code::invalid_argument);
    CHECK(reg.add(action_handler{}).code() == dtl::status_code::invalid_argument);
    CHECK(reg.add(make_dynamic_handler<action<&seen>>()).ok());
    CHECK(reg.add(make_dynamic_handler<action<&greet>>()).code() == dtl::status_code::invalid_argument);
    CHECK(reg.size() == 2);
    auto builder = registry_builder<1>{}.add<action<&add>>().add<action<&seen>>();
    CHECK(builder.error().code() == dtl::status_code::invalid_argument);
    CHECK(builder.build().size() == 1);
  }

  TEST_CASE("handlers tell a void response from bad arguments") {
    const auto handler = make_dynamic_handler<action<&add>>();
    const auto args = argument_pack<int>::serialize_to_vector(1);  // one int: add takes two
    std::byte out[16];
    CHECK(handler.invoke_with_result(args.data(), args.size(), out, sizeof out).error_code ==
          handler_result::err_deserialize_failed);
    CHECK(make_dynamic_handler<action<&count_call>>()
              .invoke_with_result(argument_pack<int>::serialize_to_vector(0).data(), sizeof(int), out, sizeof out)
              .ok());
    CHECK(make_extended_handler<action<&always_throws>>()
              .invoke_with_result(argument_pack<int>::serialize_to_vector(0).data(), sizeof(int), out, sizeof out)
              .error_code == handler_result::err_exception);
    CHECK(invoke_handler<std::string>(make_dynamic_handler<action<&greet>>(), std::string("ab"), 3).value() ==
          "ababab");
  }

  TEST_CASE("process_rpc_message answers with errors, and ignores what it cannot read") {
    const auto reg = registry();
    auto unknown = serialize_request<action<&add>>(0, 7, 1, 2);
    auto h = message_header::deserialize(unknown.data());
    h.action = action<&add>::id() + 1;
    message_header::serialize(h, unknown.data());
    auto reply = process_rpc_message(reg, unknown.data(), unknown.size(), 0);
    REQUIRE(reply.has_value());
    auto r = read_response<int>(reply->data(), reply->size());
    CHECK(r.error().code() == dtl::status_code::not_found);
    CHECK(message_header::deserialize(reply->data()).request == 7);

    // A header that claims more payload than the message has is no message at all.
    auto cut = serialize_request<action<&add>>(0, 8, 1, 2);
    cut.pop_back();
    CHECK_FALSE(process_rpc_message(reg, cut.data(), cut.size(), 0).has_value());
    CHECK(read_response<int>(cut.data(), cut.size()).error().code() == dtl::status_code::invalid_format);

    const auto ok = process_rpc_message(reg, serialize_request<action<&add>>(0, 9, 40, 2).data(),
                                        serialize_request<action<&add>>(0, 9, 40, 2).size(), 0);
    REQUIRE(ok.has_value());
    CHECK(read_response<int>(ok->data(), ok->size()).value() == 42);
  }
}

TEST_SUITE("remote calls between ranks") {
  TEST_CASE("every rank calls every rank; results, strings and vectors come back") {
    const auto ctx = test_support::world();
    auto rpc = make_rpc_context(ctx, registry()).value();
    const int me = ctx.rank();
    for (int target = 0; target < ctx.size(); ++target) {
      CHECK(call<&add>(rpc, target, me, 100 * target).value() == me + 100 * target);
      CHECK(call<&greet>(rpc, target, std::string("x"), target + 1).value() ==
            std::string(std::size_t(target) + 1, 'x'));
      CHECK(call<&scaled>(rpc, target, std::vector<double>{1.0, 2.0}, 0.5).value() == std::vector<double>{0.5, 1.0});
    }
    CHECK(rpc.fence().has_value());
  }

  TEST_CASE("void and fire-and-forget actions run on the target") {
    const auto ctx = test_support::world();
    auto rpc = make_rpc_context(ctx, registry()).value();
    calls_seen = 0;
    CHECK(ctx.barrier().has_value());  // every rank has reset before any call arrives
    const int next = (ctx.rank() + 1) % ctx.size();
    CHECK(call<&count_call>(rpc, next, 1).has_value());
    CHECK(send<&count_call>(rpc, next, 10).has_value());
    CHECK(rpc.fence().has_value());
    CHECK(calls_seen == 11);                      // the previous rank's call and send, both run before its fence marker
    CHECK(call<&seen>(rpc, next).value() == 11);  // and the next rank's count, read there
    CHECK(rpc.fence().has_value());
  }

  TEST_CASE("failures come back as statuses") {
    const auto ctx = test_support::world();
    auto rpc = make_rpc_context(ctx, registry()).value();
    const int last = ctx.size() - 1;
    CHECK(call<&add>(rpc, ctx.size(), 1, 2).error().code() == dtl::status_code::invalid_rank);
    CHECK(call<&add>(rpc, -1, 1, 2).error().code() == dtl::status_code::invalid_rank);
    const auto bad = call<&always_throws>(rpc, last, 1);
    CHECK(bad.error().code() == dtl::status_code::operation_failed);
    CHECK(bad.error().rank() == last);
    // An id no rank registered, and bytes that are not add's arguments.
    auto unknown = rpc.call_raw(last, action<&add>::id() ^ 1, {});
    REQUIRE(unknown.has_value());
    CHECK(read_response<int>(unknown->data(), unknown->size()).error().code() == dtl::status_code::not_found);
    const auto three = argument_pack<int, int, int>::serialize_to_vector(1, 2, 3);
    auto damaged = rpc.call_raw(last, action<&add>::id(), three);
    REQUIRE(damaged.has_value());
    CHECK(read_response<int>(damaged->data(), damaged->size()).error().code() == dtl::status_code::deserialize_failed);
    // The context still works afterwards.
    CHECK(call<&add>(rpc, last, 2, 3).value() == 5);
    CHECK(rpc.fence().has_value());
  }

  TEST_CASE("call_async: futures that polling completes, fence waits for them") {
    const auto ctx = test_support::world();
    auto rpc = make_rpc_context(ctx, registry()).value();
    std::vector<dtl::futures::distributed_future<int>> sums;
    for (int target = 0; target < ctx.size(); ++target)
      sums.push_back(call_async<&add>(rpc, target, ctx.rank(), target));
    auto late = call_async<&add>(rpc, ctx.size() - 1, 20, 22);   // left to fence
    auto refused = call_async<&add>(rpc, ctx.size() + 3, 1, 1);  // refused at once
    CHECK(refused.is_ready());
    CHECK(refused.get_result().error().code() == dtl::status_code::invalid_rank);
    for (int target = 0; target < ctx.size(); ++target)
      CHECK(sums[static_cast<std::size_t>(target)].get_result().value() == ctx.rank() + target);
    CHECK(rpc.fence().has_value());
    CHECK(late.get_result().value() == 42);
    auto failed = call_async<&always_throws>(rpc, 0, 1);
    CHECK(failed.get_result().error().code() == dtl::status_code::operation_failed);
    CHECK(rpc.fence().has_value());
  }

  TEST_CASE("active messages: handlers of bytes, with and without a reply") {
    const auto ctx = test_support::world();
    auto rpc = make_rpc_context(ctx, registry()).value();
    std::vector<int> sources;
    CHECK(register_am_handler<&halo_arrived>(rpc, [&](dtl::rank_t from, std::span<const std::byte> bytes) {
            sources.push_back(from + static_cast<int>(bytes.size()));
          }).ok());
    const dtl::remote::action_id echo = 0x5eed;
    CHECK(register_am_handler_with_reply(rpc, echo, [](dtl::rank_t, std::span<const std::byte> bytes) {
            return std::vector<std::byte>(bytes.rbegin(), bytes.rend());
          }).ok());
    // Refused: an action's id, a taken id, an empty handler.
    CHECK(register_am_handler<&add>(rpc, [](dtl::rank_t, std::span<const std::byte>) {}).code() ==
          dtl::status_code::invalid_argument);
    CHECK(register_am_handler_with_reply(rpc, echo, [](dtl::rank_t, std::span<const std::byte>) {
            return std::vector<std::byte>{};
          }).code() == dtl::status_code::invalid_argument);
    CHECK(register_am_handler(rpc, 77, am_handler{}).code() == dtl::status_code::invalid_argument);
    CHECK(rpc.fence().has_value());  // every rank has registered

    const int next = (ctx.rank() + 1) % ctx.size();
    const std::vector<std::byte> bytes{std::byte{1}, std::byte{2}, std::byte{3}};
    CHECK(send_am<&halo_arrived>(rpc, next, bytes).has_value());
    CHECK(send_am_with_reply(rpc, next, echo, bytes).value() ==
          std::vector<std::byte>{std::byte{3}, std::byte{2}, std::byte{1}});
    CHECK(send_am_with_reply(rpc, next, 0x5eee, bytes).error().code() == dtl::status_code::not_found);
    CHECK(make_all_progress(rpc).has_value());
    CHECK(rpc.fence().has_value());
    const int previous = (ctx.rank() + ctx.size() - 1) % ctx.size();
    CHECK(sources == std::vector<int>{previous + 3});
    CHECK(unregister_am_handler<&halo_arrived>(rpc));
    CHECK_FALSE(unregister_am_handler<&halo_arrived>(rpc));
  }

  TEST_CASE("a rank with no calls of its own serves through fence") {
    const auto ctx = test_support::world();
    auto rpc = make_rpc_context(ctx, registry()).value();
    if (ctx.rank() == 0)
      for (int round = 0; round < 20; ++round)
        for (int target = 1; target < ctx.size(); ++target)
          CHECK(call<&add>(rpc, target, round, target).value() == round + target);
    CHECK(rpc.fence().has_value());
    CHECK(rpc.fence().has_value());  // an empty epoch
  }
}
