// SPDX-License-Identifier: MIT
// A detached backend: rank R of S with no communicator behind it, for a container built from a
// context-like object (an object with rank() and size(), not a dtl::context). Its rank and size give the
// container its layout; every call that would reach another rank returns not_supported instead.
#include "transport/backend.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstddef>
#include <memory>

namespace dtl::detail {

namespace {

class detached_comm final : public comm_backend {
 public:
  detached_comm(int rank, int size) noexcept : rank_(rank), size_(size) {}

  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  status can_communicate() const override {
    return status(status_code::not_supported,
                  fmt::format("this context has no communicator: it stands for rank {} of {}, as the context-like "
                              "object it was made from (a type with rank() and size()) said; give the container a "
                              "dtl::context (env.make_world_context()) to communicate",
                              rank_, size_));
  }

  status barrier() override { return can_communicate(); }
  status allreduce(const void*, void*, std::size_t, datatype, reduce_op) override { return can_communicate(); }
  status reduce(const void*, void*, std::size_t, datatype, reduce_op, int) override { return can_communicate(); }
  status broadcast(void*, std::size_t, int) override { return can_communicate(); }
  status allgather(const void*, void*, std::size_t) override { return can_communicate(); }
  status gatherv(const void*, std::size_t, void*, const std::size_t*, const std::size_t*, int) override {
    return can_communicate();
  }
  status alltoall(const void*, void*, std::size_t) override { return can_communicate(); }
  status alltoallv(const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                   const std::size_t*) override {
    return can_communicate();
  }
  status scatterv(const void*, const std::size_t*, const std::size_t*, void*, std::size_t, int) override {
    return can_communicate();
  }
  status allgatherv(const void*, std::size_t, void*, const std::size_t*, const std::size_t*) override {
    return can_communicate();
  }
  status agree_record(std::span<std::byte>) override { return can_communicate(); }
  status scan(const void*, void*, std::size_t, datatype, reduce_op, bool) override { return can_communicate(); }
  result<comm_request_ptr> isend(const void*, std::size_t, int, int, p2p_channel) override { return can_communicate(); }
  result<comm_request_ptr> irecv(void*, std::size_t, int, int, p2p_channel) override { return can_communicate(); }
  // Tags pass their check, so that a message fails for the reason above.
  int max_tag() const noexcept override { return INT_MAX; }
  status check_message(std::size_t bytes) const override { return check_address_space(bytes, "a message"); }
  result<std::unique_ptr<comm_backend>> split(int, int) override { return can_communicate(); }
  result<std::unique_ptr<comm_backend>> split_shared() override { return can_communicate(); }
  result<std::shared_ptr<window>> create_window(void*, std::size_t) override { return can_communicate(); }
  result<std::unique_ptr<rma_window>> create_rma_window(void*, std::size_t) override { return can_communicate(); }
  const void* native() const noexcept override { return nullptr; }
  void release() noexcept override {}

 private:
  int rank_;
  int size_;
};

}  // namespace

std::unique_ptr<comm_backend> make_detached_comm(int rank, int size) {
  return std::make_unique<detached_comm>(rank, size);
}

}  // namespace dtl::detail
