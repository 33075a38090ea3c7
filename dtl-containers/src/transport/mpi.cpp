// SPDX-License-Identifier: MIT
// The MPI communicator, its one-sided windows, and bringing MPI up and down. The only file that
// includes mpi.h.
#include "comm/host_combine.hpp"
#include "comm/job.hpp"
#include "comm/state.hpp"
#include "transport/backend.hpp"
#include "transport/mpi_runtime.hpp"
#include "transport/rma_window.hpp"

#include <dtl/containers/communication/context.hpp>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <new>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace dtl::detail {

namespace {

// The one place an MPI error becomes a status: mpi_error (530) with MPI's code and text.
status mpi_status(int error, std::string_view what) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(error, text, &length) != MPI_SUCCESS) std::snprintf(text, sizeof text, "MPI error %d", error);
  int error_class = error;
  MPI_Error_class(error, &error_class);
  return status(status_code::mpi_error, fmt::format("{} failed", what),
                native_error{error, fmt::format("MPI error class {}", error_class), std::string(text)});
}

#define DTL_MPI_TRY(call)                                                                                     \
  do {                                                                                                        \
    if (const int dtl_mpi_err_ = (call); dtl_mpi_err_ != MPI_SUCCESS) return mpi_status(dtl_mpi_err_, #call); \
  } while (false)

bool finalized() noexcept {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

// --- threads: taking turns, and waiting without holding the turn ---
//
// At MPI_THREAD_MULTIPLE threads call MPI freely. At SERIALIZED, DTL's MPI calls take turns under one
// process-wide mutex, and no collective blocks while it holds the turn: it starts a non-blocking call,
// then tests it, giving the turn up between tests, so that another thread's collective (on another
// context) progresses meanwhile. Holding the turn across a blocking collective would deadlock two
// threads whose collectives the ranks reach in different orders. At FUNNELED and SINGLE only the
// thread that initialised MPI may call it; other threads get invalid_state.
int g_thread_level = MPI_THREAD_MULTIPLE;
std::thread::id g_main_thread;
std::mutex g_mpi_mutex;
double g_timeout_s = 0;  // DTL_COLLECTIVE_TIMEOUT; 0: wait as long as it takes

using mpi_turn = std::unique_lock<std::mutex>;

const char* thread_level_name(int level) noexcept {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

result<mpi_turn> take_turn() {
  if (g_thread_level >= MPI_THREAD_MULTIPLE) return mpi_turn();
  if (g_thread_level >= MPI_THREAD_SERIALIZED) return mpi_turn(g_mpi_mutex);
  if (std::this_thread::get_id() != g_main_thread)
    return status(status_code::invalid_state,
                  fmt::format("MPI runs at {}, where only the thread that initialised it may call MPI, and this is "
                              "another thread; ask for MPI_THREAD_SERIALIZED or more (DTL_MPI_THREAD_LEVEL, "
                              "environment_options::thread_level) to communicate from several threads",
                              thread_level_name(g_thread_level)));
  return mpi_turn();
}

#define DTL_MPI_TURN(name)                                   \
  auto name##_taken = take_turn();                           \
  if (!name##_taken) return std::move(name##_taken).error(); \
  mpi_turn name = std::move(name##_taken).value()

[[noreturn]] void abort_on_timeout(const char* call, MPI_Comm comm, double waited) {
  const char* collective = current_collective();
  const std::string what = collective != nullptr ? fmt::format("{} ({})", collective, call) : std::string(call);
  int world_rank = 0, rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  end_job(fmt::format("dtl: rank {} (rank {} of {} in its context): {} has waited {:.1f} s for the other ranks "
                      "(DTL_COLLECTIVE_TIMEOUT={:g}): a rank skipped this collective, called another one, or is "
                      "stuck. Ending the job.\n",
                      world_rank, rank, size, what, waited, g_timeout_s),
          1);
}

/// Completes a non-blocking call started with `turn` held (run_collective): tests it, giving the turn up
/// between tests and watching DTL_COLLECTIVE_TIMEOUT.
status wait_for(MPI_Request& request, mpi_turn& turn, const char* what, MPI_Comm comm) {
  // Done already (start_comm_dup without MPI_Comm_idup). Not asked of MPI_Test: SMPI 3.32 leaves the
  // flag of a null request unset when the status is MPI_STATUS_IGNORE.
  if (request == MPI_REQUEST_NULL) return {};
  const auto start = std::chrono::steady_clock::now();
  for (unsigned tries = 0;; ++tries) {
    int done = 0;
    if (const int e = MPI_Test(&request, &done, MPI_STATUS_IGNORE); e != MPI_SUCCESS) return mpi_status(e, what);
    if (done != 0) return {};
    if (g_timeout_s > 0 && tries % 1024 == 0) {
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (waited > g_timeout_s) abort_on_timeout(what, comm, waited);
    }
    // Give the turn up every few tests (a yield is a system call: not after every test, which would
    // cost more than the small collective itself).
    if (turn.owns_lock() && tries % 16 == 15) {
      turn.unlock();
      std::this_thread::yield();
      turn.lock();
    }
  }
}

/// One collective: MPI's blocking call where no turn must be given up and no deadline watched
/// (MPI_THREAD_MULTIPLE without DTL_COLLECTIVE_TIMEOUT, or a single thread): Open MPI's blocking
/// collectives are several times faster on small messages than its non-blocking ones. Otherwise the
/// non-blocking call, completed by wait_for().
template <class Blocking, class Start>
status run_collective(mpi_turn& turn, const char* what, MPI_Comm comm, Blocking blocking, Start start) {
  if (!turn.owns_lock() && g_timeout_s <= 0) {
    if (const int e = blocking(); e != MPI_SUCCESS) return mpi_status(e, what);
    return {};
  }
  MPI_Request request = MPI_REQUEST_NULL;
  if (const int e = start(&request); e != MPI_SUCCESS) return mpi_status(e, what);
  return wait_for(request, turn, what, comm);
}

// SimGrid's SMPI declares MPI_Comm_idup but aborts in it (dtl-containers/mpi/meson.build sets this to 0).
#ifndef DTL_MPI_HAS_COMM_IDUP
#define DTL_MPI_HAS_COMM_IDUP 1
#endif

/// Starts MPI_Comm_dup for run_collective's non-blocking path. Without MPI_Comm_idup it duplicates
/// blocking and leaves a null request, which wait_for() takes as done: that MPI (SMPI) grants
/// MPI_THREAD_SINGLE, so no other thread waits for the turn, and only DTL_COLLECTIVE_TIMEOUT's watch
/// of this one call is lost.
int start_comm_dup(MPI_Comm comm, MPI_Comm* dup, MPI_Request* request) {
#if DTL_MPI_HAS_COMM_IDUP
  return MPI_Comm_idup(comm, dup, request);
#else
  *request = MPI_REQUEST_NULL;
  return MPI_Comm_dup(comm, dup);
#endif
}

MPI_Datatype mpi_type(datatype type) noexcept {
  switch (type) {
    case datatype::i8: return MPI_INT8_T;
    case datatype::u8: return MPI_UINT8_T;
    case datatype::i16: return MPI_INT16_T;
    case datatype::u16: return MPI_UINT16_T;
    case datatype::i32: return MPI_INT32_T;
    case datatype::u32: return MPI_UINT32_T;
    case datatype::i64: return MPI_INT64_T;
    case datatype::u64: return MPI_UINT64_T;
    case datatype::f32: return MPI_FLOAT;
    case datatype::f64: return MPI_DOUBLE;
  }
  return MPI_DATATYPE_NULL;
}

MPI_Op mpi_op(reduce_op op) noexcept {
  switch (op) {
    case reduce_op::sum: return MPI_SUM;
    case reduce_op::product: return MPI_PROD;
    case reduce_op::min: return MPI_MIN;
    case reduce_op::max: return MPI_MAX;
    case reduce_op::land: return MPI_LAND;
    case reduce_op::lor: return MPI_LOR;
    case reduce_op::band: return MPI_BAND;
    case reduce_op::bor: return MPI_BOR;
    case reduce_op::bxor: return MPI_BXOR;
  }
  return MPI_OP_NULL;
}

// MPI counts are int. Byte counts are sent in units of the largest power of two (up to 64 bytes) that
// divides all of them, so that up to 2^31 units move in one call; where every count (and offset) fits in
// an int, plain MPI_BYTE does, without a datatype made and freed per call.
/// Send and receive buffers for MPI that are never one pointer. Open MPI's non-blocking collectives
/// (libnbc, which DTL calls at MPI_THREAD_SERIALIZED) read a send buffer equal to the receive buffer
/// as MPI_IN_PLACE, and on a rank with nothing to move such an "in place" all-to-all returns without
/// taking its tag (seen with Open MPI 4.1.6): every later collective on the communicator then pairs
/// with the wrong one, and the next one hangs on every rank. DTL never means in place by passing one
/// pointer twice; it happens where a side moves nothing (nullptr, or a staging buffer of no bytes), and
/// that side gets a pointer of its own here (never read or written: its counts are zero).
struct separate_buffers {
  const void* send;
  void* recv;
};
separate_buffers separate(const void* send, bool sends, void* recv, bool receives) noexcept {
  static std::byte unused_send, unused_recv;
  if (send != recv) return {send, recv};
  if (!sends) send = &unused_send;
  if (!receives) recv = &unused_recv;
  return {send, recv};
}
bool any_bytes(const std::size_t* bytes, std::size_t n) noexcept {
  return std::any_of(bytes, bytes + n, [](std::size_t b) { return b != 0; });
}

class byte_unit {
 public:
  /// `common`: a number every count divides; `largest`: the largest count or offset.
  byte_unit(std::size_t common, std::size_t largest) noexcept {
    unit_ = largest <= static_cast<std::size_t>(INT_MAX) ? 1 : 64;
    while (unit_ > 1 && common % unit_ != 0) unit_ /= 2;
  }
  byte_unit(const byte_unit&) = delete;
  byte_unit& operator=(const byte_unit&) = delete;
  ~byte_unit() {
    if (type_ != MPI_DATATYPE_NULL && type_ != MPI_BYTE) MPI_Type_free(&type_);
  }
  status commit() {
    if (unit_ == 1) {
      type_ = MPI_BYTE;
      return {};
    }
    DTL_MPI_TRY(MPI_Type_contiguous(static_cast<int>(unit_), MPI_BYTE, &type_));
    DTL_MPI_TRY(MPI_Type_commit(&type_));
    return {};
  }
  result<int> count(std::size_t bytes, std::string_view what) const {
    const std::size_t units = bytes / unit_;
    if (units > static_cast<std::size_t>(INT_MAX))
      return status(
          status_code::out_of_range,
          fmt::format("{}: {} bytes is more than MPI moves in one call (2^31 units of {} bytes)", what, bytes, unit_));
    return static_cast<int>(units);
  }
  [[nodiscard]] MPI_Datatype type() const noexcept { return type_; }

 private:
  std::size_t unit_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

class mpi_window final : public window {
 public:
  /// `extents`: the bytes each rank exposes, so that an access past the owner's region is refused here.
  mpi_window(MPI_Win win, std::vector<std::uint64_t> extents) noexcept : win_(win), extents_(std::move(extents)) {}
  ~mpi_window() override { release(); }
  status get(int owner, std::size_t offset, void* dst, std::size_t bytes) override {
    return access(owner, offset, bytes, [&](int count) {
      return MPI_Get(dst, count, MPI_BYTE, owner, static_cast<MPI_Aint>(offset), count, MPI_BYTE, win_);
    });
  }
  status put(int owner, std::size_t offset, const void* src, std::size_t bytes) override {
    return access(owner, offset, bytes, [&](int count) {
      return MPI_Put(src, count, MPI_BYTE, owner, static_cast<MPI_Aint>(offset), count, MPI_BYTE, win_);
    });
  }
  void release() noexcept override {
    auto turn = take_turn();
    if (!turn) return;  // a thread that may not call MPI: the window goes with MPI_Finalize
    if (win_ != MPI_WIN_NULL && !finalized()) MPI_Win_free(&win_);
    win_ = MPI_WIN_NULL;
  }

 private:
  template <class Op>
  status access(int owner, std::size_t offset, std::size_t bytes, Op op) {
    DTL_MPI_TURN(turn);
    if (win_ == MPI_WIN_NULL) return status(status_code::invalid_state, "the window was released");
    if (owner < 0 || static_cast<std::size_t>(owner) >= extents_.size())
      return status(status_code::invalid_rank, fmt::format("rank {} is outside [0, {})", owner, extents_.size()));
    const std::uint64_t extent = extents_[static_cast<std::size_t>(owner)];
    if (offset > extent || bytes > extent - offset)
      return status(status_code::out_of_range,
                    fmt::format("bytes [{}, {}) are outside the {} bytes that rank {} exposes", offset, offset + bytes,
                                extent, owner));
    if (bytes > static_cast<std::size_t>(INT_MAX))
      return status(status_code::out_of_range, fmt::format("a remote access of {} bytes is too large", bytes));
    // The exclusive lock makes each access atomic with respect to other remote accesses.
    DTL_MPI_TRY(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win_));
    const int err = op(static_cast<int>(bytes));
    const int unlock = MPI_Win_unlock(owner, win_);
    if (err != MPI_SUCCESS)
      return mpi_status(err, fmt::format("one-sided access to rank {} (offset {})", owner, offset));
    if (unlock != MPI_SUCCESS) return mpi_status(unlock, "MPI_Win_unlock");
    return {};
  }
  MPI_Win win_;
  std::vector<std::uint64_t> extents_;
};

// --- one-sided windows of dtl::memory_window (src/rma/ has checked every argument and epoch) ---

MPI_Op rma_op(rma_reduce_op op) noexcept {
  switch (op) {
    case rma_reduce_op::sum: return MPI_SUM;
    case rma_reduce_op::prod: return MPI_PROD;
    case rma_reduce_op::min: return MPI_MIN;
    case rma_reduce_op::max: return MPI_MAX;
    case rma_reduce_op::band: return MPI_BAND;
    case rma_reduce_op::bor: return MPI_BOR;
    case rma_reduce_op::bxor: return MPI_BXOR;
    case rma_reduce_op::replace: return MPI_REPLACE;
    case rma_reduce_op::no_op: return MPI_NO_OP;
  }
  return MPI_NO_OP;
}

class mpi_rma_window final : public rma_window {
 public:
  /// comm: the window's ranks, for the agreement ahead of a fence (the window frees it).
  mpi_rma_window(MPI_Win win, MPI_Comm comm, void* base, std::vector<std::uint64_t> extents, int rank) noexcept
      : win_(win), comm_(comm), base_(base), extents_(std::move(extents)), rank_(rank) {}
  ~mpi_rma_window() override {
    auto turn = take_turn();
    if (!turn) return;  // a thread that may not call MPI: the window goes with MPI_Finalize
    if (finalized()) return;
    MPI_Win_free(&win_);
    MPI_Comm_free(&comm_);
  }
  void* base() const noexcept override { return base_; }
  const std::vector<std::uint64_t>& extents() const noexcept override { return extents_; }
  int rank() const noexcept override { return rank_; }
  void* native() noexcept override { return &win_; }

  result<bool> all_ready(bool ready) override {
    DTL_MPI_TURN(turn);
    int all = ready ? 1 : 0;
    DTL_TRY(run_collective(
        turn, "MPI_Allreduce (the ranks' agreement to fence)", comm_,
        [&] { return MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm_); },
        [&](MPI_Request* r) { return MPI_Iallreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm_, r); }));
    return all == 1;
  }
  // A fence is a blocking collective that holds the turn, as MPI_Win_create does (docs/containers.md).
  status fence(int assert_flags) override {
    return call("MPI_Win_fence", [&] { return MPI_Win_fence(assert_flags, win_); });
  }
  status lock(int target, rma_lock_mode mode) override {
    const int kind = mode == rma_lock_mode::shared ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
    return call("MPI_Win_lock", [&] { return MPI_Win_lock(kind, target, 0, win_); });
  }
  status unlock(int target) override {
    return call("MPI_Win_unlock", [&] { return MPI_Win_unlock(target, win_); });
  }
  status lock_all() override {
    return call("MPI_Win_lock_all", [&] { return MPI_Win_lock_all(0, win_); });
  }
  status unlock_all() override {
    return call("MPI_Win_unlock_all", [&] { return MPI_Win_unlock_all(win_); });
  }
  status flush(int target, bool local) override {
    if (target == all_ranks)
      return local ? call("MPI_Win_flush_local_all", [&] { return MPI_Win_flush_local_all(win_); })
                   : call("MPI_Win_flush_all", [&] { return MPI_Win_flush_all(win_); });
    return local ? call("MPI_Win_flush_local", [&] { return MPI_Win_flush_local(target, win_); })
                 : call("MPI_Win_flush", [&] { return MPI_Win_flush(target, win_); });
  }

  status put(const void* origin, std::size_t bytes, int target, std::size_t offset) override {
    const int n = static_cast<int>(bytes);
    return call("MPI_Put", [&] { return MPI_Put(origin, n, MPI_BYTE, target, disp(offset), n, MPI_BYTE, win_); });
  }
  status get(void* origin, std::size_t bytes, int target, std::size_t offset) override {
    const int n = static_cast<int>(bytes);
    return call("MPI_Get", [&] { return MPI_Get(origin, n, MPI_BYTE, target, disp(offset), n, MPI_BYTE, win_); });
  }
  status accumulate(const void* origin, void* result, std::size_t count, rma_datatype type, int target,
                    std::size_t offset, rma_reduce_op op) override {
    const int n = static_cast<int>(count);
    const MPI_Datatype t = mpi_type(type);
    if (result == nullptr)
      return call("MPI_Accumulate",
                  [&] { return MPI_Accumulate(origin, n, t, target, disp(offset), n, t, rma_op(op), win_); });
    if (n == 1)
      return call("MPI_Fetch_and_op",
                  [&] { return MPI_Fetch_and_op(origin, result, t, target, disp(offset), rma_op(op), win_); });
    return call("MPI_Get_accumulate", [&] {
      return MPI_Get_accumulate(origin, n, t, result, n, t, target, disp(offset), n, t, rma_op(op), win_);
    });
  }
  status compare_and_swap(const void* origin, const void* compare, void* result, rma_datatype type, int target,
                          std::size_t offset) override {
    // SimGrid's SMPI declares compare_addr without const (MPI-3 has it const); MPI only reads it.
    return call("MPI_Compare_and_swap", [&] {
      return MPI_Compare_and_swap(origin, const_cast<void*>(compare), result, mpi_type(type), target, disp(offset),
                                  win_);
    });
  }

 private:
  static MPI_Aint disp(std::size_t offset) noexcept { return static_cast<MPI_Aint>(offset); }
  template <class Call>
  status call(const char* what, Call mpi_call) {
    DTL_MPI_TURN(turn);
    // A window that outlives its environment (e.g. its locks released by its destructor) calls no MPI.
    if (finalized()) return status(status_code::invalid_state, fmt::format("{} after MPI_Finalize", what));
    if (const int e = mpi_call(); e != MPI_SUCCESS) return mpi_status(e, what);
    return {};
  }
  MPI_Win win_;
  MPI_Comm comm_;
  void* base_;
  std::vector<std::uint64_t> extents_;
  int rank_;
};

// --- point-to-point ---

/// The largest message MPI is handed in one piece: INT_MAX bytes (MPI counts are int), or less under
/// DTL_MPI_MESSAGE_LIMIT, which tests set to exercise the pieces without gigabytes of memory.
std::size_t g_message_limit = static_cast<std::size_t>(INT_MAX);

/// The most pieces one message travels in. Their MPI requests are allocated at once (8 MiB of handles at
/// most), so a larger message is refused rather than given an allocation that grows with its count; at
/// the default limit the most is 2^51 bytes (2 PiB), more than any process holds.
constexpr std::size_t max_pieces = std::size_t{1} << 20;

/// out_of_range for a message past the address space or past max_pieces pieces, before any arithmetic on
/// its count. Every rank has the same limit (agree_settings), so a count gets the same answer everywhere.
status check_pieces(std::size_t bytes, const char* what) {
  DTL_TRY(check_address_space(bytes, what));
  const std::size_t most = g_message_limit * max_pieces;  // at most 2^51: no overflow
  if (bytes <= most) return {};
  return status(status_code::out_of_range,
                fmt::format("{} of {} bytes is more than one message takes: {} bytes, in {} pieces of {} bytes "
                            "(DTL_MPI_MESSAGE_LIMIT)",
                            what, bytes, most, max_pieces, g_message_limit));
}

/// The pieces of one message checked by check_pieces: ceil(bytes / limit), at least one (a zero-byte
/// message is one piece).
std::size_t piece_count(std::size_t bytes) noexcept {
  if (bytes == 0) return 1;
  return bytes / g_message_limit + (bytes % g_message_limit != 0 ? 1 : 0);
}

/// One point-to-point transfer: an MPI request per piece.
class mpi_request final : public comm_request {
 public:
  mpi_request(std::vector<MPI_Request> requests, std::size_t bytes, MPI_Comm comm, const char* what) noexcept
      : requests_(std::move(requests)), bytes_(bytes), comm_(comm), what_(what) {}
  ~mpi_request() override {
    if (status s = wait(); !s.ok()) report_unhandled(s);
  }
  result<bool> test() override {
    DTL_MPI_TURN(turn);
    int done = 0;
    DTL_MPI_TRY(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE));
    return done != 0;
  }
  status wait() override {
    DTL_MPI_TURN(turn);
    if (!turn.owns_lock() && g_timeout_s <= 0) {
      if (const int e = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
          e != MPI_SUCCESS)
        return mpi_status(e, what_);
      return {};
    }
    for (MPI_Request& r : requests_)
      if (r != MPI_REQUEST_NULL) DTL_TRY(wait_for(r, turn, what_, comm_));
    return {};
  }
  std::size_t bytes() const noexcept override { return bytes_; }

 private:
  std::vector<MPI_Request> requests_;
  std::size_t bytes_;
  MPI_Comm comm_;
  const char* what_;
};

/// Posts the pieces of one message with `post(piece_address, piece_bytes, request)`.
/// A message that is refused (check_pieces) or cannot be allocated posts nothing.
template <class Post>
result<comm_request_ptr> post_pieces(std::byte* buf, std::size_t bytes, MPI_Comm comm, const char* what, Post post) {
  DTL_TRY(check_pieces(bytes, what));
  const auto no_memory = [&] {
    return status(status_code::out_of_memory,
                  fmt::format("{}: no memory for the requests of a message of {} bytes", what, bytes));
  };
  std::vector<MPI_Request> requests;
  try {
    requests.assign(piece_count(bytes), MPI_REQUEST_NULL);
  } catch (const std::bad_alloc&) {
    return no_memory();
  }
  const auto cancel_posted = [&] {  // what was posted must not outlive its buffer
    for (MPI_Request& r : requests)
      if (r != MPI_REQUEST_NULL) {
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
  };
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const std::size_t offset = i * g_message_limit;
    const int piece = static_cast<int>(std::min(bytes - std::min(bytes, offset), g_message_limit));
    if (const int e = post(buf != nullptr ? buf + offset : nullptr, piece, &requests[i]); e != MPI_SUCCESS) {
      cancel_posted();
      return mpi_status(e, what);
    }
  }
  try {
    return comm_request_ptr(std::make_unique<mpi_request>(std::move(requests), bytes, comm, what));
  } catch (const std::bad_alloc&) {
    cancel_posted();  // the vector stays with us: make_unique threw before the move
    return no_memory();
  }
}

/// A box of an allocation as an MPI subarray of elements (each a contiguous run of bytes), committed once.
/// Freed unless MPI has been finalised (a tensor may outlive the environment).
class mpi_box_type final : public comm_box_type {
 public:
  explicit mpi_box_type(MPI_Datatype type, std::size_t bytes) noexcept : type_(type), bytes_(bytes) {}
  ~mpi_box_type() override {
    if (!finalized()) MPI_Type_free(&type_);
  }
  [[nodiscard]] MPI_Datatype type() const noexcept { return type_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

 private:
  MPI_Datatype type_;
  std::size_t bytes_;
};

/// The subarray for `box`, or a null pointer where the box is empty or does not fit one message of int
/// counts (the caller packs it; the bytes that travel are the same either way).
result<comm_box_type_ptr> make_mpi_box_type(const box_layout& box) {
  constexpr auto most = static_cast<std::size_t>(INT_MAX);
  std::size_t bytes = box.element_bytes;
  int sizes[8] = {}, subsizes[8] = {}, starts[8] = {};
  if (box.dims == 0 || box.dims > std::size(sizes) || box.element_bytes == 0 || box.element_bytes > most)
    return comm_box_type_ptr();
  for (std::size_t d = 0; d < box.dims; ++d) {
    if (box.extents[d] == 0 || box.padded[d] > most || box.offset[d] + box.extents[d] > box.padded[d])
      return comm_box_type_ptr();
    if (box.extents[d] > g_message_limit / bytes) return comm_box_type_ptr();  // more than one piece
    bytes *= box.extents[d];
    sizes[d] = static_cast<int>(box.padded[d]);
    subsizes[d] = static_cast<int>(box.extents[d]);
    starts[d] = static_cast<int>(box.offset[d]);
  }
  DTL_MPI_TURN(turn);
  MPI_Datatype element = MPI_DATATYPE_NULL, type = MPI_DATATYPE_NULL;
  DTL_MPI_TRY(MPI_Type_contiguous(static_cast<int>(box.element_bytes), MPI_BYTE, &element));
  const int made =
      MPI_Type_create_subarray(static_cast<int>(box.dims), sizes, subsizes, starts, MPI_ORDER_C, element, &type);
  MPI_Type_free(&element);  // the subarray keeps what it needs of it
  if (made != MPI_SUCCESS) return mpi_status(made, "MPI_Type_create_subarray");
  if (const int e = MPI_Type_commit(&type); e != MPI_SUCCESS) {
    MPI_Type_free(&type);
    return mpi_status(e, "MPI_Type_commit");
  }
  return comm_box_type_ptr(std::make_unique<mpi_box_type>(type, bytes));
}

/// The largest count and offset of a collective's blocks on every rank (bytes), and for an all-to-all the
/// most peers one rank has (exchange_extent, backend.hpp), with what they decide.
struct extent : exchange_extent {
  /// Whether MPI's own call takes them: every count and offset fits in one message.
  [[nodiscard]] bool fits() const noexcept { return std::max(count, offset) <= g_message_limit; }
  /// Whether an all-to-all of `ranks` ranks goes as messages to the peers only: when each rank exchanges
  /// with few of them (redistribute's and resize's neighbours, say). MPI's own all-to-all algorithms
  /// (pairwise, ring) take a step per rank, zero bytes or not: P latencies for a few peers' data.
  /// A rank that exchanges with every other one is not sparse, however few they are: MPI's own call then
  /// does the same steps with less of our work (2 ranks, 1 double each way: 0.4 us against 0.8).
  [[nodiscard]] bool sparse(int ranks) const noexcept {
    const auto others = static_cast<std::size_t>(ranks > 1 ? ranks - 1 : 0);
    return peers < others &&
           peers * sparse_fraction <= std::max<std::size_t>(static_cast<std::size_t>(ranks), sparse_fraction);
  }
  static constexpr std::size_t sparse_fraction = 8;  // sparse: at most one rank in 8 (or one) a peer
};

/// The agreement message's datatypes before they are made.
std::array<MPI_Datatype, payload_classes.size()> no_record_types() noexcept {
  std::array<MPI_Datatype, payload_classes.size()> types;
  types.fill(MPI_DATATYPE_NULL);
  return types;
}

/// The agreement step's MPI operation: combine_messages over each message (copied, so that MPI's buffers
/// need no particular alignment).
void combine_agreement_records(void* in, void* inout, int* len, MPI_Datatype* type) {
  int size = 0;
  MPI_Type_size(*type, &size);  // one message: the record and its payload area
  const auto bytes = static_cast<std::size_t>(size);
  for (int i = 0; i < *len; ++i) {
    const auto offset = static_cast<std::size_t>(i) * bytes;
    combine_messages(static_cast<const std::byte*>(in) + offset, static_cast<std::byte*>(inout) + offset, bytes);
  }
}

class mpi_comm final : public comm_backend {
 public:
  /// `comm` carries collectives and the user's messages; `control` and `internal` are duplicates of it
  /// (see p2p_channel), and `program` one that DTL never uses (native(): the program's own MPI calls).
  mpi_comm(MPI_Comm comm, MPI_Comm control, MPI_Comm internal, MPI_Comm program) noexcept
      : comm_(comm), control_(control), internal_(internal), program_(program) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    int* ub = nullptr;
    int found = 0;
    if (MPI_Comm_get_attr(comm_, MPI_TAG_UB, &ub, &found) == MPI_SUCCESS && found != 0 && ub != nullptr) max_tag_ = *ub;
  }
  /// Makes the duplicates of `comm` (collective over its ranks) and takes ownership of all four.
  static result<std::unique_ptr<comm_backend>> make(MPI_Comm comm, mpi_turn& turn) {
    MPI_Comm control = MPI_COMM_NULL, internal = MPI_COMM_NULL, program = MPI_COMM_NULL;
    status made;
    for (const auto& [what, dup] : {std::pair{"MPI_Comm_dup (control channel)", &control},
                                    std::pair{"MPI_Comm_dup (internal channel)", &internal},
                                    std::pair{"MPI_Comm_dup (the program's communicator)", &program}}) {
      if (!made.ok()) break;
      made = run_collective(
          turn, what, comm, [&, dup = dup] { return MPI_Comm_dup(comm, dup); },
          [&, dup = dup](MPI_Request* r) { return start_comm_dup(comm, dup, r); });
    }
    for (MPI_Comm c : {comm, control, internal})
      if (made.ok() && c != MPI_COMM_NULL)
        if (const int e = MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN); e != MPI_SUCCESS)
          made = mpi_status(e, "MPI_Comm_set_errhandler");
    // The agreement message's datatypes (one per size: record_sizing) and operation (agree_record), freed
    // with the communicator.
    std::array<MPI_Datatype, payload_classes.size()> record_types = no_record_types();
    MPI_Op agreement_op = MPI_OP_NULL;
    for (std::size_t c = 0; c < payload_classes.size() && made.ok(); ++c)
      if (MPI_Type_contiguous(static_cast<int>(sizeof(agreement_record) + payload_classes[c]), MPI_BYTE,
                              &record_types[c]) != MPI_SUCCESS ||
          MPI_Type_commit(&record_types[c]) != MPI_SUCCESS)
        made = status(status_code::mpi_error, "making the agreement step's MPI datatypes failed");
    if (made.ok() && MPI_Op_create(combine_agreement_records, 1, &agreement_op) != MPI_SUCCESS)
      made = status(status_code::mpi_error, "making the agreement step's MPI operation failed");
    if (!made.ok()) {
      for (MPI_Comm* c : {&comm, &control, &internal, &program})
        if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
      for (MPI_Datatype& t : record_types)
        if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
      return made;
    }
    auto made_comm = std::make_unique<mpi_comm>(comm, control, internal, program);
    made_comm->record_types_ = record_types;
    made_comm->agreement_op_ = agreement_op;
    return std::unique_ptr<comm_backend>(std::move(made_comm));
  }
  ~mpi_comm() override { release(); }

  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }

  // Each collective runs through run_collective(): MPI's blocking call where it can, else the
  // non-blocking one, waited for without holding the turn.

  status barrier() override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    return run_collective(
        turn, "MPI_Barrier", comm_, [&] { return MPI_Barrier(comm_); },
        [&](MPI_Request* r) { return MPI_Ibarrier(comm_, r); });
  }

  status allreduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    const std::size_t size = datatype_size(type);
    for (std::size_t done = 0; done < count;) {  // MPI counts are int: large buffers go in pieces
      const int n = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
      void* out = static_cast<std::byte*>(recv) + done * size;
      const void* in = send == recv ? MPI_IN_PLACE : static_cast<const std::byte*>(send) + done * size;
      DTL_TRY(run_collective(
          turn, "MPI_Allreduce", comm_, [&] { return MPI_Allreduce(in, out, n, mpi_type(type), mpi_op(op), comm_); },
          [&](MPI_Request* r) { return MPI_Iallreduce(in, out, n, mpi_type(type), mpi_op(op), comm_, r); }));
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  status reduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, int root) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_root(root, size_));
    const std::size_t size = datatype_size(type);
    const bool in_place = send == recv && rank_ == root;
    for (std::size_t done = 0; done < count;) {
      const int n = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
      void* out = recv != nullptr ? static_cast<std::byte*>(recv) + done * size : nullptr;
      const void* in = in_place ? MPI_IN_PLACE : static_cast<const std::byte*>(send) + done * size;
      DTL_TRY(run_collective(
          turn, "MPI_Reduce", comm_, [&] { return MPI_Reduce(in, out, n, mpi_type(type), mpi_op(op), root, comm_); },
          [&](MPI_Request* r) { return MPI_Ireduce(in, out, n, mpi_type(type), mpi_op(op), root, comm_, r); }));
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  status broadcast(void* data, std::size_t bytes, int root) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_root(root, size_));
    byte_unit unit(bytes, bytes);
    DTL_TRY(unit.commit());
    DTL_ASSIGN_OR_RETURN(const int count, unit.count(bytes, "broadcast"));
    return run_collective(
        turn, "MPI_Bcast", comm_, [&] { return MPI_Bcast(data, count, unit.type(), root, comm_); },
        [&](MPI_Request* r) { return MPI_Ibcast(data, count, unit.type(), root, comm_, r); });
  }

  status allgather(const void* send, void* recv, std::size_t bytes_each) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    byte_unit unit(bytes_each, bytes_each);
    DTL_TRY(unit.commit());
    DTL_ASSIGN_OR_RETURN(const int count, unit.count(bytes_each, "allgather"));
    const void* in = send == static_cast<const std::byte*>(recv) + static_cast<std::size_t>(rank_) * bytes_each
                         ? MPI_IN_PLACE
                         : send;
    return run_collective(
        turn, "MPI_Allgather", comm_,
        [&] { return MPI_Allgather(in, count, unit.type(), recv, count, unit.type(), comm_); },
        [&](MPI_Request* r) { return MPI_Iallgather(in, count, unit.type(), recv, count, unit.type(), comm_, r); });
  }

  status gatherv(const void* send, std::size_t bytes, void* recv, const std::size_t* bytes_per_rank,
                 const std::size_t* displs, int root) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_root(root, size_));
    const std::size_t n = static_cast<std::size_t>(size_);
    const bool at_root = rank_ == root;
    DTL_ASSIGN_OR_RETURN(const rooted_layout layout,
                         rooted(turn, at_root, bytes, bytes_per_rank, displs, "gatherv: a block or offset"));
    const extent& most = layout.most;
    if (most.fits()) {
      const std::vector<int>& counts = layout.counts;
      const std::vector<int>& offsets = layout.offsets;
      // The root's own part: in place when it already sits where the root's recv holds it.
      const bool in_place =
          at_root && bytes != 0 && send == static_cast<const std::byte*>(recv) + displs[static_cast<std::size_t>(root)];
      const auto [in, out] = separate(send, bytes != 0, recv, at_root && any_bytes(bytes_per_rank, n));
      const void* from = in_place ? MPI_IN_PLACE : in;
      const int mine = static_cast<int>(bytes);
      return run_collective(
          turn, "MPI_Gatherv", comm_,
          [&] { return MPI_Gatherv(from, mine, MPI_BYTE, out, counts.data(), offsets.data(), MPI_BYTE, root, comm_); },
          [&](MPI_Request* r) {
            return MPI_Igatherv(from, mine, MPI_BYTE, out, counts.data(), offsets.data(), MPI_BYTE, root, comm_, r);
          });
    }
    std::vector<std::size_t> none(n, 0), sb(n, 0), rb(n, 0), rd(n, 0);
    sb[static_cast<std::size_t>(root)] = bytes;
    if (at_root) {
      rb.assign(bytes_per_rank, bytes_per_rank + n);
      rd.assign(displs, displs + n);
    }
    DTL_TRY(check_pieces(most.count, "gatherv"));
    turn = {};
    return pairwise_exchange(send, sb.data(), none.data(), recv, rb.data(), rd.data(), "gatherv (in pieces)");
  }

  // gatherv (above), alltoallv, scatterv and allgatherv take MPI's own call while every count and offset fits in one
  // message (an int of bytes, or DTL_MPI_MESSAGE_LIMIT); past it, every peer's part goes as messages in
  // pieces (pairwise_exchange). Which of the two is a choice every rank must make alike, while each rank
  // knows only its own counts: one small allreduce of the largest decides (largest_everywhere), and
  // refuses counts past the address space or past the pieces of one message on every rank alike. Where
  // MPI has large counts (MPI-4's _c calls) and no smaller limit is set, those take any size in one call.

  status alltoall(const void* send, void* recv, std::size_t bytes_each) override {
    const std::size_t n = static_cast<std::size_t>(size_);
    if (bytes_each > g_message_limit) {  // every rank passes the same bytes_each: every rank comes here
      DTL_TRY(check_pieces(bytes_each, "alltoall"));
      std::vector<std::size_t> counts(n, bytes_each), displs(n);
      for (std::size_t r = 0; r < n; ++r) displs[r] = r * bytes_each;
      return pairwise_exchange(send, counts.data(), displs.data(), recv, counts.data(), displs.data(),
                               "alltoall (in pieces)");
    }
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    const int count = static_cast<int>(bytes_each);
    const auto [in, out] = separate(send, bytes_each != 0, recv, bytes_each != 0);
    return run_collective(
        turn, "MPI_Alltoall", comm_, [&] { return MPI_Alltoall(in, count, MPI_BYTE, out, count, MPI_BYTE, comm_); },
        [&](MPI_Request* r) { return MPI_Ialltoall(in, count, MPI_BYTE, out, count, MPI_BYTE, comm_, r); });
  }

  status alltoallv(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
                   const std::size_t* recv_bytes, const std::size_t* recv_displs) override {
    return alltoallv_with(nullptr, send, send_bytes, send_displs, recv, recv_bytes, recv_displs);
  }

  status alltoallv_known(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
                         const std::size_t* recv_bytes, const std::size_t* recv_displs, std::size_t most) override {
    const extent known{{most, most, static_cast<std::uint64_t>(size_)}};
    return alltoallv_with(&known, send, send_bytes, send_displs, recv, recv_bytes, recv_displs);
  }

  status alltoallv_agreed(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
                          const std::size_t* recv_bytes, const std::size_t* recv_displs,
                          const exchange_extent& most) override {
    const extent known{most};
    return alltoallv_with(&known, send, send_bytes, send_displs, recv, recv_bytes, recv_displs);
  }

  status exchange_with_peers(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs,
                             void* recv, const std::size_t* recv_bytes, const std::size_t* recv_displs,
                             std::size_t most) override {
    DTL_TRY(usable());
    DTL_TRY(check_address_space(most, "alltoallv: a block or offset"));
    DTL_TRY(check_pieces(most, "alltoallv"));
    return pairwise_exchange(send, send_bytes, send_displs, recv, recv_bytes, recv_displs, "alltoallv (to its peers)",
                             /*skip_empty=*/true);
  }

  /// alltoallv once every rank knows the largest block, offset and peer count: `known` (alike on every rank:
  /// the caller's bound, or what the agreement step found), or one small allreduce finds them; then to
  /// the peers only, MPI's call, or in pieces.
  status alltoallv_with(const extent* known, const void* send, const std::size_t* send_bytes,
                        const std::size_t* send_displs, void* recv, const std::size_t* recv_bytes,
                        const std::size_t* recv_displs) {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    const std::size_t n = static_cast<std::size_t>(size_);
    {
      const auto [in, out] = separate(send, any_bytes(send_bytes, n), recv, any_bytes(recv_bytes, n));
      send = in;
      recv = out;
    }
    extent most{};
    if (known != nullptr) {
      DTL_TRY(check_address_space(std::max(known->count, known->offset), "alltoallv: a block or offset"));
      most = *known;
    } else {
      std::size_t count = 0, offset = 0, peers = 0;
      for (std::size_t r = 0; r < n; ++r) {
        count = std::max({count, send_bytes[r], recv_bytes[r]});
        offset = std::max({offset, send_displs[r], recv_displs[r]});
        if (r != static_cast<std::size_t>(rank_) && (send_bytes[r] != 0 || recv_bytes[r] != 0)) ++peers;
      }
      DTL_ASSIGN_OR_RETURN(most, largest_everywhere(turn, count, offset, "alltoallv: a block or offset", peers));
    }
    if (most.sparse(size_)) {  // every rank decides alike: messages to the peers that move bytes
      DTL_TRY(check_pieces(most.count, "alltoallv"));
      turn = {};
      return pairwise_exchange(send, send_bytes, send_displs, recv, recv_bytes, recv_displs, "alltoallv (to its peers)",
                               /*skip_empty=*/true);
    }
#if MPI_VERSION >= 4
    if (g_message_limit == static_cast<std::size_t>(INT_MAX)) {
      std::vector<MPI_Count> sc(n), rc(n);
      std::vector<MPI_Aint> sd(n), rd(n);
      for (std::size_t r = 0; r < n; ++r) {
        sc[r] = static_cast<MPI_Count>(send_bytes[r]);
        sd[r] = static_cast<MPI_Aint>(send_displs[r]);
        rc[r] = static_cast<MPI_Count>(recv_bytes[r]);
        rd[r] = static_cast<MPI_Aint>(recv_displs[r]);
      }
      return run_collective(
          turn, "MPI_Alltoallv_c", comm_,
          [&] {
            return MPI_Alltoallv_c(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(), MPI_BYTE, comm_);
          },
          [&](MPI_Request* r) {
            return MPI_Ialltoallv_c(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(), MPI_BYTE, comm_,
                                    r);
          });
    }
#endif
    if (most.fits()) {
      std::vector<int> sc(n), sd(n), rc(n), rd(n);
      for (std::size_t r = 0; r < n; ++r) {
        sc[r] = static_cast<int>(send_bytes[r]);
        sd[r] = static_cast<int>(send_displs[r]);
        rc[r] = static_cast<int>(recv_bytes[r]);
        rd[r] = static_cast<int>(recv_displs[r]);
      }
      return run_collective(
          turn, "MPI_Alltoallv", comm_,
          [&] {
            return MPI_Alltoallv(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(), MPI_BYTE, comm_);
          },
          [&](MPI_Request* r) {
            return MPI_Ialltoallv(send, sc.data(), sd.data(), MPI_BYTE, recv, rc.data(), rd.data(), MPI_BYTE, comm_, r);
          });
    }
    // Past a message: every peer's part as point-to-point messages in pieces, on the internal channel.
    DTL_TRY(check_pieces(most.count, "alltoallv"));
    turn = {};
    return pairwise_exchange(send, send_bytes, send_displs, recv, recv_bytes, recv_displs, "alltoallv (in pieces)");
  }

  status scatterv(const void* send, const std::size_t* bytes_per_rank, const std::size_t* displs, void* recv,
                  std::size_t bytes, int root) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_root(root, size_));
    const std::size_t n = static_cast<std::size_t>(size_);
    const bool at_root = rank_ == root;
    DTL_ASSIGN_OR_RETURN(const rooted_layout layout,
                         rooted(turn, at_root, bytes, bytes_per_rank, displs, "scatterv: a block or offset"));
    const extent& most = layout.most;
    if (most.fits()) {
      const std::vector<int>& counts = layout.counts;
      const std::vector<int>& offsets = layout.offsets;
      const int count = static_cast<int>(bytes);
      // The root's own part: in place when it already sits where the root's recv is.
      const bool in_place =
          at_root && recv == static_cast<const std::byte*>(send) + displs[static_cast<std::size_t>(root)];
      void* out = in_place ? MPI_IN_PLACE : recv;
      return run_collective(
          turn, "MPI_Scatterv", comm_,
          [&] {
            return MPI_Scatterv(send, counts.data(), offsets.data(), MPI_BYTE, out, count, MPI_BYTE, root, comm_);
          },
          [&](MPI_Request* r) {
            return MPI_Iscatterv(send, counts.data(), offsets.data(), MPI_BYTE, out, count, MPI_BYTE, root, comm_, r);
          });
    }
    std::vector<std::size_t> none(n, 0), sb(n, 0), sd(n, 0), rb(n, 0);
    if (at_root) {
      sb.assign(bytes_per_rank, bytes_per_rank + n);
      sd.assign(displs, displs + n);
    }
    rb[static_cast<std::size_t>(root)] = bytes;
    DTL_TRY(check_pieces(most.count, "scatterv"));
    turn = {};
    return pairwise_exchange(send, sb.data(), sd.data(), recv, rb.data(), none.data(), "scatterv (in pieces)");
  }

  status allgatherv(const void* send, std::size_t bytes, void* recv, const std::size_t* bytes_per_rank,
                    const std::size_t* displs) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    const std::size_t n = static_cast<std::size_t>(size_), me = static_cast<std::size_t>(rank_);
    if (bytes != bytes_per_rank[me])
      return status(status_code::invalid_argument, "allgatherv: this rank's count does not match its entry");
    std::size_t count = 0, offset = 0;
    for (std::size_t r = 0; r < n; ++r) {
      count = std::max(count, bytes_per_rank[r]);
      offset = std::max(offset, displs[r]);
    }
    DTL_ASSIGN_OR_RETURN(const extent most, largest_everywhere(turn, count, offset, "allgatherv: a block or offset"));
    if (most.fits()) {
      std::vector<int> counts(n), offsets(n);
      for (std::size_t r = 0; r < n; ++r) {
        counts[r] = static_cast<int>(bytes_per_rank[r]);
        offsets[r] = static_cast<int>(displs[r]);
      }
      const void* in = send == static_cast<const std::byte*>(recv) + displs[me] ? MPI_IN_PLACE : send;
      const int count = static_cast<int>(bytes);
      return run_collective(
          turn, "MPI_Allgatherv", comm_,
          [&] { return MPI_Allgatherv(in, count, MPI_BYTE, recv, counts.data(), offsets.data(), MPI_BYTE, comm_); },
          [&](MPI_Request* r) {
            return MPI_Iallgatherv(in, count, MPI_BYTE, recv, counts.data(), offsets.data(), MPI_BYTE, comm_, r);
          });
    }
    std::vector<std::size_t> sb(n, bytes), sd(n, 0);
    DTL_TRY(check_pieces(most.count, "allgatherv"));
    turn = {};
    return pairwise_exchange(send, sb.data(), sd.data(), recv, bytes_per_rank, displs, "allgatherv (in pieces)");
  }

  status agree_record(std::span<std::byte> message) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    MPI_Datatype type = MPI_DATATYPE_NULL;
    for (std::size_t c = 0; c < payload_classes.size(); ++c)
      if (message.size() == sizeof(agreement_record) + payload_classes[c]) type = record_types_[c];
    if (type == MPI_DATATYPE_NULL)
      return status(status_code::internal_error,
                    fmt::format("agreement message of {} bytes: no such size", message.size()));
    return run_collective(
        turn, "MPI_Allreduce (agreement)", comm_,
        [&] { return MPI_Allreduce(MPI_IN_PLACE, message.data(), 1, type, agreement_op_, comm_); },
        [&](MPI_Request* r) { return MPI_Iallreduce(MPI_IN_PLACE, message.data(), 1, type, agreement_op_, comm_, r); });
  }

  status scan(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, bool exclusive) override {
    // Small prefixes in log2(P) rounds: MPI_Scan is a chain of P steps in Open MPI (coll/basic) and P^2
    // messages in SimGrid's SMPI; MPICH does the same rounds.
    if (size_ > 1 && count <= doubling_scan_bytes / datatype_size(type))
      return doubling_scan(send, recv, count * datatype_size(type), type, op, exclusive);
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    // A prefix is elementwise: past an int of elements, it goes in pieces like allreduce.
    const std::size_t size = datatype_size(type);
    for (std::size_t done = 0; done < count;) {
      const int n = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
      void* out = static_cast<std::byte*>(recv) + done * size;
      const void* in = send == recv ? MPI_IN_PLACE : static_cast<const std::byte*>(send) + done * size;
      if (exclusive)
        DTL_TRY(run_collective(
            turn, "MPI_Exscan", comm_, [&] { return MPI_Exscan(in, out, n, mpi_type(type), mpi_op(op), comm_); },
            [&](MPI_Request* r) { return MPI_Iexscan(in, out, n, mpi_type(type), mpi_op(op), comm_, r); }));
      else
        DTL_TRY(run_collective(
            turn, "MPI_Scan", comm_, [&] { return MPI_Scan(in, out, n, mpi_type(type), mpi_op(op), comm_); },
            [&](MPI_Request* r) { return MPI_Iscan(in, out, n, mpi_type(type), mpi_op(op), comm_, r); }));
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  result<comm_request_ptr> isend(const void* buf, std::size_t bytes, int peer, int tag, p2p_channel channel) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_peer(peer, tag));
    const MPI_Comm c = channel_comm(channel);
    return post_pieces(const_cast<std::byte*>(static_cast<const std::byte*>(buf)), bytes, c, "MPI_Isend",
                       [&](std::byte* p, int n, MPI_Request* r) { return MPI_Isend(p, n, MPI_BYTE, peer, tag, c, r); });
  }

  result<comm_request_ptr> irecv(void* buf, std::size_t bytes, int peer, int tag, p2p_channel channel) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_peer(peer, tag));
    const MPI_Comm c = channel_comm(channel);
    return post_pieces(static_cast<std::byte*>(buf), bytes, c, "MPI_Irecv",
                       [&](std::byte* p, int n, MPI_Request* r) { return MPI_Irecv(p, n, MPI_BYTE, peer, tag, c, r); });
  }

  result<comm_box_type_ptr> make_box_type(const box_layout& box) override {
    DTL_TRY(usable());
    return make_mpi_box_type(box);
  }

  result<comm_request_ptr> isend_box(const void* base, const comm_box_type& type, int peer, int tag,
                                     p2p_channel channel) override {
    const auto& box = static_cast<const mpi_box_type&>(type);
    return post_box(const_cast<void*>(base), box, peer, tag, channel, "MPI_Isend (a box)",
                    [](void* b, int n, MPI_Datatype t, int p, int g, MPI_Comm c, MPI_Request* r) {
                      return MPI_Isend(b, n, t, p, g, c, r);
                    });
  }

  result<comm_request_ptr> irecv_box(void* base, const comm_box_type& type, int peer, int tag,
                                     p2p_channel channel) override {
    const auto& box = static_cast<const mpi_box_type&>(type);
    return post_box(base, box, peer, tag, channel, "MPI_Irecv (a box)",
                    [](void* b, int n, MPI_Datatype t, int p, int g, MPI_Comm c, MPI_Request* r) {
                      return MPI_Irecv(b, n, t, p, g, c, r);
                    });
  }

  int max_tag() const noexcept override { return max_tag_; }
  std::size_t piece_bytes() const noexcept override { return g_message_limit; }
  status check_message(std::size_t bytes) const override { return check_pieces(bytes, "a message"); }

  // MPI has no non-blocking MPI_Comm_split or MPI_Win_create: below MPI_THREAD_MULTIPLE these hold the
  // turn while they block (docs/containers.md: make contexts and open global views from one thread).
  result<std::unique_ptr<comm_backend>> split(int color, int key) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    MPI_Comm sub = MPI_COMM_NULL;
    DTL_MPI_TRY(MPI_Comm_split(comm_, color == undefined_color ? MPI_UNDEFINED : color, key, &sub));
    if (sub == MPI_COMM_NULL) return std::unique_ptr<comm_backend>();
    return make(sub, turn);
  }
  result<std::unique_ptr<comm_backend>> split_shared() override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    MPI_Comm node = MPI_COMM_NULL;
    DTL_MPI_TRY(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node));
    return make(node, turn);
  }

  /// A new window's error handler (MPI_ERRORS_RETURN), and the bytes each rank exposes in it (collective);
  /// frees the window on failure.
  result<std::vector<std::uint64_t>> window_extents(mpi_turn& turn, MPI_Win& win, std::size_t bytes) {
    std::vector<std::uint64_t> extents(static_cast<std::size_t>(size_));
    extents[static_cast<std::size_t>(rank_)] = bytes;
    const int e = MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    status waited =
        e != MPI_SUCCESS
            ? mpi_status(e, "MPI_Win_set_errhandler")
            : run_collective(
                  turn, "MPI_Allgather (window extents)", comm_,
                  [&] { return MPI_Allgather(MPI_IN_PLACE, 1, MPI_UINT64_T, extents.data(), 1, MPI_UINT64_T, comm_); },
                  [&](MPI_Request* r) {
                    return MPI_Iallgather(MPI_IN_PLACE, 1, MPI_UINT64_T, extents.data(), 1, MPI_UINT64_T, comm_, r);
                  });
    if (!waited.ok()) {
      MPI_Win_free(&win);
      return waited;
    }
    return extents;
  }

  result<std::shared_ptr<window>> create_window(void* base, std::size_t bytes) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    MPI_Win win = MPI_WIN_NULL;
    // A rank without elements exposes nothing; MPI wants a valid pointer only for a non-empty window.
    DTL_MPI_TRY(
        MPI_Win_create(bytes != 0 ? base : nullptr, static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, comm_, &win));
    DTL_ASSIGN_OR_RETURN(std::vector<std::uint64_t> extents, window_extents(turn, win, bytes));
    return std::shared_ptr<window>(std::make_shared<mpi_window>(win, std::move(extents)));
  }

  result<std::unique_ptr<rma_window>> create_rma_window(void* base, std::size_t bytes) override {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    MPI_Win win = MPI_WIN_NULL;
    const auto extent = static_cast<MPI_Aint>(bytes);
    if (base == nullptr && bytes != 0) {
      DTL_MPI_TRY(MPI_Win_allocate(extent, 1, MPI_INFO_NULL, comm_, &base, &win));
      std::memset(base, 0, bytes);
    } else {
      DTL_MPI_TRY(MPI_Win_create(bytes != 0 ? base : nullptr, extent, 1, MPI_INFO_NULL, comm_, &win));
    }
    DTL_ASSIGN_OR_RETURN(std::vector<std::uint64_t> extents, window_extents(turn, win, bytes));
    MPI_Comm agreement = MPI_COMM_NULL;
    status duplicated = run_collective(
        turn, "MPI_Comm_dup (a window's agreement)", comm_, [&] { return MPI_Comm_dup(comm_, &agreement); },
        [&](MPI_Request* r) { return start_comm_dup(comm_, &agreement, r); });
    if (!duplicated.ok()) {
      MPI_Win_free(&win);
      return duplicated;
    }
    return std::unique_ptr<rma_window>(
        std::make_unique<mpi_rma_window>(win, agreement, base, std::move(extents), rank_));
  }

  const void* native() const noexcept override { return &program_; }

  void release() noexcept override {
    auto turn = take_turn();
    if (!turn) return;  // a thread that may not call MPI: the communicator goes with MPI_Finalize
    for (MPI_Comm* c : {&comm_, &control_, &internal_, &program_}) {
      if (*c != MPI_COMM_NULL && !finalized()) MPI_Comm_free(c);
      *c = MPI_COMM_NULL;
    }
    if (agreement_op_ != MPI_OP_NULL && !finalized()) MPI_Op_free(&agreement_op_);
    agreement_op_ = MPI_OP_NULL;
    for (MPI_Datatype& t : record_types_) {
      if (t != MPI_DATATYPE_NULL && !finalized()) MPI_Type_free(&t);
      t = MPI_DATATYPE_NULL;
    }
  }

 private:
  status usable() const {
    if (comm_ == MPI_COMM_NULL) return status(status_code::invalid_state, "the MPI communicator was released");
    return {};
  }
  /// One message of one box (`post` is MPI_Isend or MPI_Irecv), as a request of one piece.
  template <class Post>
  result<comm_request_ptr> post_box(void* base, const mpi_box_type& box, int peer, int tag, p2p_channel channel,
                                    const char* what, Post post) {
    DTL_MPI_TURN(turn);
    DTL_TRY(usable());
    DTL_TRY(check_peer(peer, tag));
    const MPI_Comm c = channel_comm(channel);
    std::vector<MPI_Request> requests(1, MPI_REQUEST_NULL);
    DTL_MPI_TRY(post(base, 1, box.type(), peer, tag, c, requests.data()));
    return comm_request_ptr(std::make_unique<mpi_request>(std::move(requests), box.bytes(), c, what));
  }

  status check_peer(int peer, int tag) const {
    if (peer < 0 || peer >= size_)
      return status(status_code::invalid_rank, fmt::format("rank {} is outside [0, {})", peer, size_));
    if (tag < 0 || tag > max_tag_)
      return status(status_code::invalid_argument,
                    fmt::format("tag {} is outside [0, {}] (MPI_TAG_UB)", tag, max_tag_));
    return {};
  }
  MPI_Comm channel_comm(p2p_channel channel) const noexcept {
    return channel == p2p_channel::data ? comm_ : channel == p2p_channel::control ? control_ : internal_;
  }
  /// A rooted v-form's layout (gatherv, scatterv): the largest block and offset of every rank, this rank's
  /// own block and, at the root, every rank's; with, at the root when they fit one message, the counts
  /// and offsets as MPI's ints.
  struct rooted_layout {
    extent most;
    std::vector<int> counts, offsets;
  };
  result<rooted_layout> rooted(mpi_turn& turn, bool at_root, std::size_t bytes, const std::size_t* bytes_per_rank,
                               const std::size_t* displs, const char* what) {
    const std::size_t n = static_cast<std::size_t>(size_);
    std::size_t count = bytes, offset = 0;
    if (at_root)
      for (std::size_t r = 0; r < n; ++r) {
        count = std::max(count, bytes_per_rank[r]);
        offset = std::max(offset, displs[r]);
      }
    rooted_layout layout;
    DTL_ASSIGN_OR_RETURN(layout.most, largest_everywhere(turn, count, offset, what));
    if (at_root && layout.most.fits()) {
      layout.counts.resize(n);
      layout.offsets.resize(n);
      for (std::size_t r = 0; r < n; ++r) {
        layout.counts[r] = static_cast<int>(bytes_per_rank[r]);
        layout.offsets[r] = static_cast<int>(displs[r]);
      }
    }
    return layout;
  }
  /// The largest count and the largest offset (bytes) of every rank, checked against the address space
  /// (collective: one small allreduce, so that every rank decides alike and fails alike).
  result<extent> largest_everywhere(mpi_turn& turn, std::size_t count, std::size_t offset, const char* what,
                                    std::size_t peers = 0) {
    std::uint64_t most[3] = {count, offset, peers};
    if (size_ > 1)
      DTL_TRY(run_collective(
          turn, "MPI_Allreduce (the largest count)", comm_,
          [&] { return MPI_Allreduce(MPI_IN_PLACE, most, 3, MPI_UINT64_T, MPI_MAX, comm_); },
          [&](MPI_Request* r) { return MPI_Iallreduce(MPI_IN_PLACE, most, 3, MPI_UINT64_T, MPI_MAX, comm_, r); }));
    DTL_TRY(check_address_space(std::max(most[0], most[1]), what));
    return extent{{most[0], most[1], most[2]}};
  }
  static constexpr std::size_t doubling_scan_bytes = std::size_t{64} << 10;
  /// A scan by recursive doubling (the reduce_ops are commutative): in round k each rank swaps its
  /// partial (the combined blocks of its 2^k-aligned group) with rank ^ 2^k, and takes in what a lower
  /// rank sent. Messages on the internal channel (no turn held: the requests take it per call). Exclusive
  /// on rank 0 leaves recv to the caller (op's identity).
  status doubling_scan(const void* send, void* recv, std::size_t bytes, datatype type, reduce_op op, bool exclusive) {
    DTL_TRY(usable());
    std::vector<std::byte> partial(bytes), theirs(bytes);
    std::memcpy(partial.data(), send, bytes);
    bool have = !exclusive;  // recv holds a prefix already
    if (have && recv != send) std::memcpy(recv, send, bytes);
    for (int mask = 1; mask < size_; mask <<= 1) {
      const int peer = rank_ ^ mask;
      if (peer >= size_) continue;
      DTL_ASSIGN_OR_RETURN(comm_request_ptr in, irecv(theirs.data(), bytes, peer, 0, p2p_channel::internal));
      DTL_ASSIGN_OR_RETURN(comm_request_ptr out, isend(partial.data(), bytes, peer, 0, p2p_channel::internal));
      status got = in->wait(), sent = out->wait();
      if (!got.ok()) return got.with_context(exclusive ? "exscan" : "scan");
      if (!sent.ok()) return sent.with_context(exclusive ? "exscan" : "scan");
      if (peer < rank_) {
        if (have)
          combine_host(recv, theirs.data(), bytes, type, op);
        else
          std::memcpy(recv, theirs.data(), bytes);
        have = true;
      }
      combine_host(partial.data(), theirs.data(), bytes, type, op);
    }
    return {};
  }
  /// Every peer's part of an all-to-all as messages on the internal channel (no turn held: the requests
  /// take it per call).
  /// `skip_empty`: no message for a block of zero bytes (each pair of ranks must then agree on which
  /// blocks are empty: the counts' check of alltoallv).
  status pairwise_exchange(const void* send, const std::size_t* send_bytes, const std::size_t* send_displs, void* recv,
                           const std::size_t* recv_bytes, const std::size_t* recv_displs, const char* what,
                           bool skip_empty = false) {
    std::vector<comm_request_ptr> pending;
    status failed;
    // This rank's own block is a copy: a message to itself would cost the transport's copy and latency.
    const auto me = static_cast<std::size_t>(rank_);
    if (send_bytes[me] > recv_bytes[me])
      return status(status_code::invalid_argument, fmt::format("{}: rank {} sends itself {} bytes into a block of {}",
                                                               what, rank_, send_bytes[me], recv_bytes[me]));
    if (send_bytes[me] != 0)
      std::memmove(static_cast<std::byte*>(recv) + recv_displs[me],
                   static_cast<const std::byte*>(send) + send_displs[me], send_bytes[me]);
    for (int step = 1; step < size_ && failed.ok(); ++step) {
      const int to = (rank_ + step) % size_, from = (rank_ - step + size_) % size_;
      const auto t = static_cast<std::size_t>(to), f = static_cast<std::size_t>(from);
      if (!skip_empty || recv_bytes[f] != 0) {
        auto r = irecv(static_cast<std::byte*>(recv) + recv_displs[f], recv_bytes[f], from, 0, p2p_channel::internal);
        if (r)
          pending.push_back(std::move(r).value());
        else
          failed = std::move(r).error();
        if (!failed.ok()) break;
      }
      if (!skip_empty || send_bytes[t] != 0) {
        auto s =
            isend(static_cast<const std::byte*>(send) + send_displs[t], send_bytes[t], to, 0, p2p_channel::internal);
        if (s)
          pending.push_back(std::move(s).value());
        else
          failed = std::move(s).error();
      }
    }
    for (auto& p : pending)
      if (status w = p->wait(); !w.ok() && failed.ok()) failed = std::move(w);
    if (!failed.ok()) return failed.with_context(what);
    return {};
  }
  MPI_Comm comm_;
  MPI_Comm control_;
  MPI_Comm internal_;
  MPI_Comm program_;  // the program's own (native()), with the error handler `comm` had when it was duplicated
  std::array<MPI_Datatype, payload_classes.size()> record_types_ = no_record_types();
  MPI_Op agreement_op_ = MPI_OP_NULL;
  int rank_ = 0;
  int size_ = 1;
  int max_tag_ = 32767;  // the least MPI promises
};

/// DTL_COLLECTIVE_TIMEOUT: seconds a collective may wait for the other ranks before the job is ended.
result<double> timeout_from_environment() {
  const char* text = std::getenv("DTL_COLLECTIVE_TIMEOUT");
  if (text == nullptr || *text == '\0') return 0.0;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(seconds >= 0))
    return status(status_code::invalid_argument,
                  fmt::format("DTL_COLLECTIVE_TIMEOUT={} is not a number of seconds (0 turns the timeout off)", text));
  return seconds;
}

/// DTL_MPI_MESSAGE_LIMIT: the largest piece of a message, in bytes (default and most INT_MAX).
result<std::size_t> message_limit_from_environment() {
  const char* text = std::getenv("DTL_MPI_MESSAGE_LIMIT");
  if (text == nullptr || *text == '\0') return static_cast<std::size_t>(INT_MAX);
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || bytes == 0 || bytes > static_cast<unsigned long long>(INT_MAX))
    return status(status_code::invalid_argument,
                  fmt::format("DTL_MPI_MESSAGE_LIMIT={} is not a number of bytes in [1, {}]", text, INT_MAX));
  return static_cast<std::size_t>(bytes);
}

// This rank's settings as agree_settings compares them (-1: could not be read), and why not.
std::int64_t g_timeout_setting = 0;
std::int64_t g_limit_setting = INT_MAX;
status g_unreadable;

/// Every rank's values of `settings` (rank after rank): one blocking allgather on a duplicate of
/// MPI_COMM_WORLD, made and freed here with blocking calls (the form no setting changes).
result<std::vector<std::int64_t>> gather_settings(const std::vector<mpi_runtime::wire_setting>& settings, int& ranks) {
  MPI_Comm comm = MPI_COMM_NULL;
  DTL_MPI_TRY(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  std::vector<std::int64_t> mine(settings.size()), all;
  for (std::size_t i = 0; i < settings.size(); ++i) mine[i] = settings[i].value;
  int e = MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  if (e == MPI_SUCCESS) e = MPI_Comm_size(comm, &ranks);
  if (e == MPI_SUCCESS) {
    all.resize(mine.size() * static_cast<std::size_t>(ranks));
    const int n = static_cast<int>(mine.size());
    e = MPI_Allgather(mine.data(), n, MPI_INT64_T, all.data(), n, MPI_INT64_T, comm);
  }
  MPI_Comm_free(&comm);
  if (e != MPI_SUCCESS) return mpi_status(e, "MPI_Allgather (the settings of every rank)");
  return all;
}

}  // namespace

namespace mpi_runtime {

status agree_settings(std::span<const wire_setting> more) {
  DTL_MPI_TURN(turn);
  std::vector<wire_setting> settings = {
      {"DTL_MPI_MESSAGE_LIMIT (bytes; -1 unreadable)", g_limit_setting},
      {"DTL_COLLECTIVE_TIMEOUT (1 set, 0 unset, -1 unreadable)", g_timeout_setting},
      {"the MPI thread level (0 single, 1 funneled, 2 serialized, 3 multiple; DTL_MPI_THREAD_LEVEL)", g_thread_level}};
  settings.insert(settings.end(), more.begin(), more.end());
  int ranks = 1;
  DTL_ASSIGN_OR_RETURN(const std::vector<std::int64_t> all, gather_settings(settings, ranks));
  const std::size_t k = settings.size();
  std::string differ;
  for (std::size_t i = 0; i < k; ++i) {
    const auto value = [&](std::size_t r) { return all[r * k + i]; };
    bool same = true;
    for (std::size_t r = 1; r < static_cast<std::size_t>(ranks); ++r) same = same && value(r) == value(0);
    if (same) continue;
    differ += fmt::format("{}{}:", differ.empty() ? "" : "; ", settings[i].name);
    for (std::size_t r = 0; r < static_cast<std::size_t>(ranks) && r < 8; ++r)
      differ += fmt::format("{} {} on rank {}", r == 0 ? "" : ",", value(r), r);
  }
  if (!differ.empty())
    return status(status_code::invalid_argument,
                  fmt::format("the ranks start with different settings that change how they communicate ({}); "
                              "set each alike on every rank, or on none",
                              differ));
  return g_unreadable;  // alike on every rank: all read their settings, or none could
}

bool built() noexcept { return true; }

result<start_info> start(int* argc, char*** argv, mpi_threads threads) {
  int initialised = 0;
  DTL_MPI_TRY(MPI_Initialized(&initialised));
  if (finalized()) return status(status_code::backend_init_failed, "MPI was already finalised in this process");
  start_info info;
  if (initialised != 0) {
    DTL_MPI_TRY(MPI_Query_thread(&info.thread_level));
  } else {
    constexpr int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
    DTL_MPI_TRY(MPI_Init_thread(argc, argv, levels[static_cast<int>(threads)], &info.thread_level));
    info.initialised_here = true;
  }
  // A setting that cannot be read fails in agree_settings, on every rank: returning here would leave
  // the other ranks waiting in their first collective.
  const result<double> timeout = timeout_from_environment();
  const result<std::size_t> limit = message_limit_from_environment();
  g_timeout_s = timeout ? *timeout : 0.0;
  g_message_limit = limit ? *limit : static_cast<std::size_t>(INT_MAX);
  g_unreadable = !timeout ? timeout.error() : !limit ? limit.error() : status();
  g_timeout_setting = !timeout ? -1 : g_timeout_s > 0 ? 1 : 0;
  g_limit_setting = !limit ? -1 : static_cast<std::int64_t>(g_message_limit);
  g_thread_level = info.thread_level;
  g_main_thread = std::this_thread::get_id();
  return info;
}

lifecycle_state lifecycle() noexcept {
  int initialised = 0;
  MPI_Initialized(&initialised);
  return {initialised != 0, finalized()};
}

result<int> granted_thread_level() {
  int level = 0;
  DTL_MPI_TRY(MPI_Query_thread(&level));
  return level;
}

status finish() {
  DTL_MPI_TURN(turn);
  if (finalized()) return {};
  DTL_MPI_TRY(MPI_Finalize());
  return {};
}

result<std::unique_ptr<comm_backend>> world() {
  DTL_MPI_TURN(turn);
  MPI_Comm comm = MPI_COMM_NULL;
  DTL_TRY(run_collective(
      turn, "MPI_Comm_dup", MPI_COMM_WORLD, [&] { return MPI_Comm_dup(MPI_COMM_WORLD, &comm); },
      [&](MPI_Request* r) { return start_comm_dup(MPI_COMM_WORLD, &comm, r); }));
  return mpi_comm::make(comm, turn);
}

result<node_info> node() {
  DTL_MPI_TURN(turn);
  int rank = 0;
  DTL_MPI_TRY(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  MPI_Comm local = MPI_COMM_NULL;
  DTL_MPI_TRY(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local));
  node_info info;
  MPI_Comm_rank(local, &info.local_rank);
  MPI_Comm_size(local, &info.local_rank_count);
  MPI_Comm_free(&local);
  return info;
}

gpu_awareness query_gpu_awareness() {
  gpu_awareness aware;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  aware.cuda = MPIX_Query_cuda_support() != 0;
  aware.detail = fmt::format("MPIX_Query_cuda_support() = {}", aware.cuda ? 1 : 0);
#else
  aware.detail = "this MPI was built without CUDA support (MPIX_CUDA_AWARE_SUPPORT)";
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  aware.rocm = MPIX_Query_rocm_support() != 0;
  aware.detail += fmt::format(", MPIX_Query_rocm_support() = {}", aware.rocm ? 1 : 0);
#else
  aware.detail += ", and without ROCm support (MPIX_ROCM_AWARE_SUPPORT)";
#endif
  return aware;
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown MPI";
  std::string version(text, static_cast<std::size_t>(length));
  if (const auto end = version.find_first_of("\n,"); end != std::string::npos) version.resize(end);
  return version;
}

int world_rank() noexcept {
  int initialised = 0;
  if (MPI_Initialized(&initialised) != MPI_SUCCESS || initialised == 0 || finalized()) return -1;
  int rank = -1;
  return MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS ? rank : -1;
}

void abort(int code) noexcept {
  if (world_rank() >= 0) MPI_Abort(MPI_COMM_WORLD, code);
}

}  // namespace mpi_runtime

}  // namespace dtl::detail
