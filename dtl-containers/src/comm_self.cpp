// A single process: rank 0 of 1. Collectives copy send to recv; windows reach only this rank.
#include "comm.hpp"

#include <dtl/containers/communication/context.hpp>

#include <fmt/format.h>

#include <cstring>

namespace dtl::detail {

status check_root(int root, int size) {
  if (root < 0 || root >= size)
    return status(status_code::invalid_rank, fmt::format("root {} is outside [0, {})", root, size));
  return {};
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

class self_comm final : public comm_backend {
 public:
  int rank() const noexcept override { return 0; }
  int size() const noexcept override { return 1; }
  bool is_mpi() const noexcept override { return false; }
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
  status gatherv(const void* send, std::size_t bytes, void* recv, const std::vector<std::size_t>& bytes_per_rank,
                 int root) override {
    if (status s = check_root(root, 1); !s.ok()) return s;
    if (bytes_per_rank.size() != 1 || bytes_per_rank[0] != bytes)
      return status(status_code::invalid_argument, "gatherv: the byte counts do not match the ranks");
    copy_unless_in_place(send, recv, bytes);
    return {};
  }
  result<std::unique_ptr<comm_backend>> split(int color, int) override {
    if (color == undefined_color) return std::unique_ptr<comm_backend>();  // in no sub-context
    if (color < 0) return status(status_code::invalid_argument, fmt::format("split color {} is negative", color));
    return std::unique_ptr<comm_backend>(std::make_unique<self_comm>());
  }
  result<std::shared_ptr<window>> create_window(void* base, std::size_t bytes) override {
    return std::shared_ptr<window>(std::make_shared<self_window>(base, bytes));
  }
  const void* native() const noexcept override { return nullptr; }
  void release() noexcept override {}
};

}  // namespace

std::unique_ptr<comm_backend> make_self_comm() { return std::make_unique<self_comm>(); }

}  // namespace dtl::detail
