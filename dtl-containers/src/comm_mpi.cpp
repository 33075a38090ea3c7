// The MPI communicator, and bringing MPI up and down. The only file that includes mpi.h.
#include "comm.hpp"
#include "mpi_runtime.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <dtl/core/try.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <mutex>

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

#define DTL_MPI_TRY(call)                                                    \
  do {                                                                       \
    if (const int dtl_mpi_err_ = (call); dtl_mpi_err_ != MPI_SUCCESS)        \
      return mpi_status(dtl_mpi_err_, #call);                                \
  } while (false)

bool finalized() noexcept {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

// Below MPI_THREAD_MULTIPLE, DTL's own MPI calls from different threads take turns.
int g_thread_level = MPI_THREAD_MULTIPLE;
std::recursive_mutex g_mpi_mutex;
std::unique_lock<std::recursive_mutex> serialise() {
  if (g_thread_level >= MPI_THREAD_MULTIPLE) return {};
  return std::unique_lock<std::recursive_mutex>(g_mpi_mutex);
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
  }
  return MPI_OP_NULL;
}

// MPI counts are int. Byte counts are sent in units of the largest power of two (up to 64 bytes) that
// divides all of them, so that up to 2^31 units move in one call.
class byte_unit {
 public:
  explicit byte_unit(std::size_t common) noexcept {
    unit_ = 64;
    while (unit_ > 1 && common % unit_ != 0) unit_ /= 2;
  }
  byte_unit(const byte_unit&) = delete;
  byte_unit& operator=(const byte_unit&) = delete;
  ~byte_unit() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  status commit() {
    DTL_MPI_TRY(MPI_Type_contiguous(static_cast<int>(unit_), MPI_BYTE, &type_));
    DTL_MPI_TRY(MPI_Type_commit(&type_));
    return {};
  }
  result<int> count(std::size_t bytes, std::string_view what) const {
    const std::size_t units = bytes / unit_;
    if (units > static_cast<std::size_t>(INT_MAX))
      return status(status_code::out_of_range,
                    fmt::format("{}: {} bytes is more than MPI moves in one call (2^31 units of {} bytes)", what,
                                bytes, unit_));
    return static_cast<int>(units);
  }
  [[nodiscard]] MPI_Datatype type() const noexcept { return type_; }

 private:
  std::size_t unit_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

class mpi_window final : public window {
 public:
  mpi_window(MPI_Win win, std::size_t bytes) noexcept : win_(win), bytes_(bytes) {}
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
    auto lock = serialise();
    if (win_ != MPI_WIN_NULL && !finalized()) MPI_Win_free(&win_);
    win_ = MPI_WIN_NULL;
  }

 private:
  template <class Op>
  status access(int owner, std::size_t offset, std::size_t bytes, Op op) {
    auto lock = serialise();
    if (win_ == MPI_WIN_NULL) return status(status_code::invalid_state, "the window was released");
    if (bytes > static_cast<std::size_t>(INT_MAX))
      return status(status_code::out_of_range, fmt::format("a remote access of {} bytes is too large", bytes));
    // The exclusive lock makes each access atomic with respect to other remote accesses.
    DTL_MPI_TRY(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, win_));
    const int err = op(static_cast<int>(bytes));
    const int unlock = MPI_Win_unlock(owner, win_);
    if (err != MPI_SUCCESS) return mpi_status(err, fmt::format("one-sided access to rank {} (offset {})", owner, offset));
    if (unlock != MPI_SUCCESS) return mpi_status(unlock, "MPI_Win_unlock");
    return {};
  }
  MPI_Win win_;
  std::size_t bytes_;
};

class mpi_comm final : public comm_backend {
 public:
  explicit mpi_comm(MPI_Comm comm) noexcept : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~mpi_comm() override { release(); }

  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  bool is_mpi() const noexcept override { return true; }

  status barrier() override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    DTL_MPI_TRY(MPI_Barrier(comm_));
    return {};
  }

  status allreduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    const std::size_t size = datatype_size(type);
    for (std::size_t done = 0; done < count;) {  // MPI counts are int: large buffers go in pieces
      const int n = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
      void* out = static_cast<std::byte*>(recv) + done * size;
      const void* in = send == recv ? MPI_IN_PLACE : static_cast<const std::byte*>(send) + done * size;
      DTL_MPI_TRY(MPI_Allreduce(in, out, n, mpi_type(type), mpi_op(op), comm_));
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  status reduce(const void* send, void* recv, std::size_t count, datatype type, reduce_op op, int root) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    if (status s = check_root(root, size_); !s.ok()) return s;
    const std::size_t size = datatype_size(type);
    const bool in_place = send == recv && rank_ == root;
    for (std::size_t done = 0; done < count;) {
      const int n = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
      void* out = recv != nullptr ? static_cast<std::byte*>(recv) + done * size : nullptr;
      const void* in = in_place ? MPI_IN_PLACE : static_cast<const std::byte*>(send) + done * size;
      DTL_MPI_TRY(MPI_Reduce(in, out, n, mpi_type(type), mpi_op(op), root, comm_));
      done += static_cast<std::size_t>(n);
    }
    return {};
  }

  status broadcast(void* data, std::size_t bytes, int root) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    if (status s = check_root(root, size_); !s.ok()) return s;
    byte_unit unit(bytes);
    if (status s = unit.commit(); !s.ok()) return s;
    DTL_ASSIGN_OR_RETURN(const int count, unit.count(bytes, "broadcast"));
    DTL_MPI_TRY(MPI_Bcast(data, count, unit.type(), root, comm_));
    return {};
  }

  status allgather(const void* send, void* recv, std::size_t bytes_each) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    byte_unit unit(bytes_each);
    if (status s = unit.commit(); !s.ok()) return s;
    DTL_ASSIGN_OR_RETURN(const int count, unit.count(bytes_each, "allgather"));
    const void* in = send == static_cast<const std::byte*>(recv) + static_cast<std::size_t>(rank_) * bytes_each
                         ? MPI_IN_PLACE
                         : send;
    DTL_MPI_TRY(MPI_Allgather(in, count, unit.type(), recv, count, unit.type(), comm_));
    return {};
  }

  status gatherv(const void* send, std::size_t bytes, void* recv, const std::vector<std::size_t>& bytes_per_rank,
                 int root) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    if (status s = check_root(root, size_); !s.ok()) return s;
    if (bytes_per_rank.size() != static_cast<std::size_t>(size_) || bytes_per_rank[static_cast<std::size_t>(rank_)] != bytes)
      return status(status_code::invalid_argument, "gatherv: the byte counts do not match the ranks");
    std::size_t common = bytes;
    for (const std::size_t b : bytes_per_rank) common |= b;
    byte_unit unit(common == 0 ? 64 : common & (~common + 1));  // lowest set bit: divides every count
    if (status s = unit.commit(); !s.ok()) return s;
    std::vector<int> counts(bytes_per_rank.size()), displs(bytes_per_rank.size());
    std::size_t offset = 0;
    for (std::size_t r = 0; r < bytes_per_rank.size(); ++r) {
      DTL_ASSIGN_OR_RETURN(counts[r], unit.count(bytes_per_rank[r], "gatherv"));
      DTL_ASSIGN_OR_RETURN(displs[r], unit.count(offset, "gatherv (total at the root)"));
      offset += bytes_per_rank[r];
    }
    DTL_ASSIGN_OR_RETURN(const int count, unit.count(bytes, "gatherv"));
    DTL_MPI_TRY(MPI_Gatherv(send, count, unit.type(), recv, counts.data(), displs.data(), unit.type(), root, comm_));
    return {};
  }

  result<std::unique_ptr<comm_backend>> split(int color, int key) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    if (color < 0) return status(status_code::invalid_argument, fmt::format("split color {} is negative", color));
    MPI_Comm sub = MPI_COMM_NULL;
    DTL_MPI_TRY(MPI_Comm_split(comm_, color, key, &sub));
    DTL_MPI_TRY(MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN));
    return std::unique_ptr<comm_backend>(std::make_unique<mpi_comm>(sub));
  }

  result<std::shared_ptr<window>> create_window(void* base, std::size_t bytes) override {
    auto lock = serialise();
    if (status s = usable(); !s.ok()) return s;
    MPI_Win win = MPI_WIN_NULL;
    // A rank without elements exposes nothing; MPI wants a valid pointer only for a non-empty window.
    DTL_MPI_TRY(MPI_Win_create(bytes != 0 ? base : nullptr, static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, comm_, &win));
    if (const int e = MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN); e != MPI_SUCCESS) {
      MPI_Win_free(&win);
      return mpi_status(e, "MPI_Win_set_errhandler");
    }
    return std::shared_ptr<window>(std::make_shared<mpi_window>(win, bytes));
  }

  const void* native() const noexcept override { return &comm_; }

  void release() noexcept override {
    auto lock = serialise();
    if (comm_ != MPI_COMM_NULL && !finalized()) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }

 private:
  status usable() const {
    if (comm_ == MPI_COMM_NULL) return status(status_code::invalid_state, "the MPI communicator was released");
    return {};
  }
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

namespace mpi_runtime {

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
  g_thread_level = info.thread_level;
  return info;
}

status finish() {
  auto lock = serialise();
  if (finalized()) return {};
  DTL_MPI_TRY(MPI_Finalize());
  return {};
}

result<std::unique_ptr<comm_backend>> world() {
  auto lock = serialise();
  MPI_Comm comm = MPI_COMM_NULL;
  DTL_MPI_TRY(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  DTL_MPI_TRY(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  return std::unique_ptr<comm_backend>(std::make_unique<mpi_comm>(comm));
}

result<node_info> node() {
  auto lock = serialise();
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

}  // namespace mpi_runtime

}  // namespace dtl::detail
