// SPDX-License-Identifier: MIT
// A single process: rank 0 of 1. Collectives copy send to recv; windows reach only this rank.
#include "transport/backend.hpp"

#include <dtl/containers/communication/context.hpp>

#include <fmt/format.h>

#include <dtl/core/try.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

namespace dtl::detail {

status check_root(int root, int size) {
  if (root < 0 || root >= size)
    return status(status_code::invalid_rank, fmt::format("root {} is outside [0, {})", root, size));
  return {};
}

status check_address_space(std::size_t bytes, const char* what) {
  constexpr auto largest = static_cast<std::size_t>(PTRDIFF_MAX);
  if (bytes <= largest) return {};
  return status(status_code::out_of_range,
                fmt::format("{} of {} bytes is past the address space (no buffer holds more than {} bytes)", what,
                            bytes, largest));
}

// A backend whose make_box_type gives no types is never asked to move one.
result<comm_request_ptr> comm_backend::isend_box(const void*, const comm_box_type&, int, int, p2p_channel) {
  return status(status_code::not_supported, "this communicator moves no box types (make_box_type gave none)");
}
result<comm_request_ptr> comm_backend::irecv_box(void*, const comm_box_type&, int, int, p2p_channel) {
  return status(status_code::not_supported, "this communicator moves no box types (make_box_type gave none)");
}

namespace {

void copy_unless_in_place(const void* send, void* recv, std::size_t bytes) {
  if (send != recv && bytes != 0) std::memmove(recv, send, bytes);
}

class self_window final : public window {
 public:
  self_window(void* base, std::size_t bytes) noexcept : base_(static_cast<std::byte*>(base)), bytes_(bytes) {}
  status get(int owner, std::size_t offset, void* dst, std::size_t bytes) override {
    if (status s = check(owner, offset, bytes); !s.ok()) return s;
    std::memcpy(dst, base_ + offset, bytes);
    return {};
  }
  status put(int owner, std::size_t offset, const void* src, std::size_t bytes) override {
    if (status s = check(owner, offset, bytes); !s.ok()) return s;
    std::memcpy(base_ + offset, src, bytes);
    return {};
  }
  void release() noexcept override { released_ = true; }

 private:
  status check(int owner, std::size_t offset, std::size_t bytes) const {
    if (released_) return status(status_code::invalid_state, "the window was released");
    if (status s = check_root(owner, 1); !s.ok()) return s;
    if (offset > bytes_ || bytes > bytes_ - offset)
      return status(status_code::out_of_range,
                    fmt::format("bytes [{}, {}) are outside the window of {} bytes", offset, offset + bytes, bytes_));
    return {};
  }
  std::byte* base_;
  std::size_t bytes_;
  bool released_ = false;
};

// Point-to-point to oneself: sends and receives meet in a mailbox, matched by (tag, channel) in the
// order posted, and the bytes are copied when both are there.
struct self_transfer {
  std::byte* recv = nullptr;        // a receive's buffer
  const std::byte* send = nullptr;  // a send's buffer
  std::size_t bytes = 0;
  int tag = 0;
  p2p_channel channel = p2p_channel::data;
  status outcome;
  bool done = false;
};

class self_request final : public comm_request {
 public:
  explicit self_request(std::shared_ptr<self_transfer> t) noexcept : transfer_(std::move(t)) {}
  result<bool> test() override {
    if (!transfer_->outcome.ok()) return transfer_->outcome;
    return transfer_->done;
  }
  status wait() override {
    if (!transfer_->done && transfer_->outcome.ok())
      return status(status_code::invalid_state,
                    "waiting for a point-to-point transfer with oneself that has no partner (one process: post the "
                    "matching send or receive first)");
    return transfer_->outcome;
  }
  std::size_t bytes() const noexcept override { return transfer_->bytes; }

 private:
  std::shared_ptr<self_transfer> transfer_;
};

class self_mailbox {
 public:
  result<comm_request_ptr> post(std::shared_ptr<self_transfer> t, bool is_send) {
    std::lock_guard lock(mutex_);
    auto& others = is_send ? recvs_ : sends_;
    for (auto it = others.begin(); it != others.end(); ++it) {
      if ((*it)->tag != t->tag || (*it)->channel != t->channel) continue;
      self_transfer& send = is_send ? *t : **it;
      self_transfer& recv = is_send ? **it : *t;
      if (send.bytes > recv.bytes) {
        send.outcome = recv.outcome =
            status(status_code::invalid_argument,
                   fmt::format("a message of {} bytes to oneself met a receive of {} bytes", send.bytes, recv.bytes));
      } else if (send.bytes != 0) {
        std::memcpy(recv.recv, send.send, send.bytes);
      }
      recv.bytes = send.bytes;
      send.done = recv.done = true;
      others.erase(it);
      return comm_request_ptr(std::make_unique<self_request>(std::move(t)));
    }
    (is_send ? sends_ : recvs_).push_back(t);
    return comm_request_ptr(std::make_unique<self_request>(std::move(t)));
  }

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<self_transfer>> sends_, recvs_;
};

class self_comm final : public comm_backend {
 public:
  int rank() const noexcept override { return 0; }
  int size() const noexcept override { return 1; }
  status barrier() override { return {}; }
  status allreduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op) override {
    copy_unless_in_place(send, recv, count * datatype_size(type));
    return {};
  }
  status reduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op, int root) override {
    if (status s = check_root(root, 1); !s.ok()) return s;
    copy_unless_in_place(send, recv, count * datatype_size(type));
    return {};
  }
  status broadcast(void*, std::size_t, int root) override { return check_root(root, 1); }
  status allgather(const void* send, void* recv, std::size_t bytes_each) override {
    copy_unless_in_place(send, recv, bytes_each);
    return {};
  }
  status gatherv(const void* send, std::size_t bytes, void* recv, const std::size_t* bytes_per_rank,
                 const std::size_t* displs, int root) override {
    DTL_TRY(check_root(root, 1));
    if (bytes_per_rank[0] != bytes)
      return status(status_code::invalid_argument, "gatherv: the byte counts do not match the ranks");
    if (bytes != 0) copy_unless_in_place(send, static_cast<std::byte*>(recv) + displs[0], bytes);
    return {};
  }
  status alltoall(const void* send, void* recv, std::size_t bytes_each) override {
    copy_unless_in_place(send, recv, bytes_each);
    return {};
  }
  status alltoallv(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
                   const std::size_t* recv_bytes, const std::size_t* recv_displs) override {
    if (send_bytes[0] != recv_bytes[0])
      return status(status_code::invalid_argument,
                    fmt::format("alltoallv: {} bytes sent to oneself, {} expected", send_bytes[0], recv_bytes[0]));
    copy_unless_in_place(static_cast<const std::byte*>(send) + send_displs[0],
                         static_cast<std::byte*>(recv) + recv_displs[0], send_bytes[0]);
    return {};
  }
  status scatterv(const void* send, const std::size_t* bytes_per_rank, const std::size_t* displs, void* recv,
                  std::size_t bytes, int root) override {
    DTL_TRY(check_root(root, 1));
    if (bytes_per_rank[0] != bytes)
      return status(status_code::invalid_argument, "scatterv: the byte counts do not match the ranks");
    copy_unless_in_place(static_cast<const std::byte*>(send) + displs[0], recv, bytes);
    return {};
  }
  status allgatherv(const void* send, std::size_t bytes, void* recv, const std::size_t* bytes_per_rank,
                    const std::size_t* displs) override {
    if (bytes_per_rank[0] != bytes)
      return status(status_code::invalid_argument, "allgatherv: the byte counts do not match the ranks");
    copy_unless_in_place(send, static_cast<std::byte*>(recv) + displs[0], bytes);
    return {};
  }
  status agree_record(std::span<std::byte>) override { return {}; }  // one rank's record is the result
  status scan(const void* send, void* recv, std::size_t count, datatype type, reduce_op, bool exclusive) override {
    if (!exclusive) copy_unless_in_place(send, recv, count * datatype_size(type));
    return {};
  }
  result<comm_request_ptr> isend(const void* buf, std::size_t bytes, int peer, int tag, p2p_channel channel) override {
    DTL_TRY(check_peer(peer, tag));
    DTL_TRY(check_message(bytes));
    auto t = std::make_shared<self_transfer>();
    t->send = static_cast<const std::byte*>(buf);
    t->bytes = bytes;
    t->tag = tag;
    t->channel = channel;
    return mailbox_.post(std::move(t), true);
  }
  result<comm_request_ptr> irecv(void* buf, std::size_t bytes, int peer, int tag, p2p_channel channel) override {
    DTL_TRY(check_peer(peer, tag));
    DTL_TRY(check_message(bytes));
    auto t = std::make_shared<self_transfer>();
    t->recv = static_cast<std::byte*>(buf);
    t->bytes = bytes;
    t->tag = tag;
    t->channel = channel;
    return mailbox_.post(std::move(t), false);
  }
  int max_tag() const noexcept override { return INT_MAX; }
  status check_message(std::size_t bytes) const override { return check_address_space(bytes, "a message"); }

  result<std::unique_ptr<comm_backend>> split(int color, int) override {
    if (color == undefined_color) return std::unique_ptr<comm_backend>();  // in no sub-context
    if (color < 0) return status(status_code::invalid_argument, fmt::format("split color {} is negative", color));
    return std::unique_ptr<comm_backend>(std::make_unique<self_comm>());
  }
  result<std::unique_ptr<comm_backend>> split_shared() override {
    return std::unique_ptr<comm_backend>(std::make_unique<self_comm>());
  }
  result<std::shared_ptr<window>> create_window(void* base, std::size_t bytes) override {
    return std::shared_ptr<window>(std::make_shared<self_window>(base, bytes));
  }
  result<std::unique_ptr<rma_window>> create_rma_window(void* base, std::size_t bytes) override {
    return make_self_rma_window(base, bytes);
  }
  const void* native() const noexcept override { return nullptr; }
  void release() noexcept override {}

 private:
  static status check_peer(int peer, int tag) {
    if (peer != 0) return status(status_code::invalid_rank, fmt::format("rank {} is outside [0, 1)", peer));
    if (tag < 0) return status(status_code::invalid_argument, fmt::format("tag {} is negative", tag));
    return {};
  }
  self_mailbox mailbox_;
};

}  // namespace

std::unique_ptr<comm_backend> make_self_comm() { return std::make_unique<self_comm>(); }

}  // namespace dtl::detail
