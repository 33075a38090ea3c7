// SPDX-License-Identifier: MIT
// RCCL (AMD) or NCCL (NVIDIA): the same API (nccl* names). The build passes the header to include in
// DTL_NCCL_HEADER (<nccl.h>, <rccl/rccl.h> or <rccl.h>).
#include "comm/state.hpp"
#include "transport/nccl_support.hpp"

#include <dtl/containers/config.hpp>
#include <dtl/core/placement.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>

#include DTL_NCCL_HEADER

#include <fmt/format.h>

namespace dtl::detail::nccl {

struct communicator {
  ncclComm_t comm = nullptr;
  int device = no_device;
  int size = 0;
  int rank = 0;
};

namespace {

// The one place an RCCL/NCCL error becomes a status: nccl_error (540) with the library's code and text.
status nccl_status(ncclResult_t r, std::string_view what) {
  const char* text = ncclGetErrorString(r);
  return status(status_code::nccl_error, fmt::format("{} failed", what),
                native_error{static_cast<int>(r), fmt::format("ncclResult_t {}", static_cast<int>(r)),
                             text != nullptr ? text : ""});
}

#define DTL_NCCL_TRY(call)                                                                                           \
  do {                                                                                                               \
    if (const ncclResult_t dtl_nccl_r_ = (call); dtl_nccl_r_ != ncclSuccess) return nccl_status(dtl_nccl_r_, #call); \
  } while (false)

ncclDataType_t nccl_type(datatype type) noexcept {
  switch (type) {
    case datatype::i8: return ncclInt8;
    case datatype::u8: return ncclUint8;
    case datatype::i32: return ncclInt32;
    case datatype::u32: return ncclUint32;
    case datatype::i64: return ncclInt64;
    case datatype::u64: return ncclUint64;
    case datatype::f32: return ncclFloat32;
    case datatype::f64: return ncclFloat64;
    case datatype::i16:
    case datatype::u16: break;
  }
  return ncclChar;  // never used: supports() refuses these
}

ncclRedOp_t nccl_op(reduce_op op) noexcept {
  switch (op) {
    case reduce_op::sum: return ncclSum;
    case reduce_op::product: return ncclProd;
    case reduce_op::min: return ncclMin;
    case reduce_op::max: return ncclMax;
    case reduce_op::land:
    case reduce_op::lor:
    case reduce_op::band:
    case reduce_op::bor:
    case reduce_op::bxor: break;
  }
  return ncclSum;  // never used: supports() refuses these
}

}  // namespace

void communicator_deleter::operator()(communicator* comm) const noexcept {
  if (comm != nullptr && comm->comm != nullptr) {
    auto guard = hip::device_guard::enter(comm->device);
    if (const ncclResult_t r = ncclCommDestroy(comm->comm); r != ncclSuccess)
      report_unhandled(nccl_status(r, "ncclCommDestroy"));
  }
  delete comm;
}

bool built() noexcept { return true; }

const char* library_name() noexcept { return build::collective_library; }

result<communicator_ptr> create(comm_backend& comm, int device) {
  // Rank 0's id goes out whether or not it could make one; the agreement then says, so that no rank
  // joins a communicator that will never form.
  ncclUniqueId id{};
  status made;
  if (comm.rank() == 0)
    if (const ncclResult_t r = ncclGetUniqueId(&id); r != ncclSuccess) made = nccl_status(r, "ncclGetUniqueId");
  DTL_TRY(comm.broadcast(&id, sizeof id, 0));
  DTL_TRY(agree_on(comm, made, {"ncclGetUniqueId"}));
  communicator_ptr out(new communicator{nullptr, device, comm.size(), comm.rank()});
  status joined = [&]() -> status {
    DTL_ASSIGN_OR_RETURN(auto guard, hip::device_guard::enter(device));
    DTL_NCCL_TRY(ncclCommInitRank(&out->comm, comm.size(), id, comm.rank()));
    return {};
  }();
  DTL_TRY(agree_on(comm, joined, {"ncclCommInitRank"}));
  return out;
}

bool supports(datatype type) noexcept { return type != datatype::i16 && type != datatype::u16; }
bool supports(reduce_op op) noexcept { return !integers_only(op); }

status allreduce(communicator& comm, const void* send, void* recv, std::size_t count, datatype type, reduce_op op,
                 hipStream_t stream) {
  DTL_NCCL_TRY(ncclAllReduce(send, recv, count, nccl_type(type), nccl_op(op), comm.comm, stream));
  return {};
}

status reduce(communicator& comm, const void* send, void* recv, std::size_t count, datatype type, reduce_op op,
              int root, hipStream_t stream) {
  DTL_NCCL_TRY(ncclReduce(send, recv, count, nccl_type(type), nccl_op(op), root, comm.comm, stream));
  return {};
}

status broadcast(communicator& comm, void* data, std::size_t bytes, int root, hipStream_t stream) {
  DTL_NCCL_TRY(ncclBroadcast(data, data, bytes, ncclChar, root, comm.comm, stream));
  return {};
}

status allgather(communicator& comm, const void* send, void* recv, std::size_t bytes_each, hipStream_t stream) {
  DTL_NCCL_TRY(ncclAllGather(send, recv, bytes_each, ncclChar, comm.comm, stream));
  return {};
}

status send(communicator& comm, const void* buf, std::size_t bytes, int peer, hipStream_t stream) {
  if (bytes != 0) DTL_NCCL_TRY(ncclSend(buf, bytes, ncclChar, peer, comm.comm, stream));
  return {};
}

status recv(communicator& comm, void* buf, std::size_t bytes, int peer, hipStream_t stream) {
  if (bytes != 0) DTL_NCCL_TRY(ncclRecv(buf, bytes, ncclChar, peer, comm.comm, stream));
  return {};
}

status group_start() {
  DTL_NCCL_TRY(ncclGroupStart());
  return {};
}

status group_end() {
  DTL_NCCL_TRY(ncclGroupEnd());
  return {};
}

#if defined(DTL_NCCL_IS_RCCL) && DTL_NCCL_IS_RCCL
bool has_native_alltoallv() noexcept { return true; }
#else
bool has_native_alltoallv() noexcept { return false; }
#endif

status alltoallv(communicator& comm, const void* send, const std::size_t* send_bytes, const std::size_t* send_displs,
                 void* recv, const std::size_t* recv_bytes, const std::size_t* recv_displs, hipStream_t stream) {
#if defined(DTL_NCCL_IS_RCCL) && DTL_NCCL_IS_RCCL
  DTL_NCCL_TRY(
      ncclAllToAllv(send, send_bytes, send_displs, recv, recv_bytes, recv_displs, ncclChar, comm.comm, stream));
  return {};
#else
  const auto* in = static_cast<const std::byte*>(send);
  auto* out = static_cast<std::byte*>(recv);
  return grouped([&]() -> status {
    for (int peer = 0; peer < comm.size; ++peer) {
      const auto p = static_cast<std::size_t>(peer);
      if (peer == comm.rank) {
        // The block a rank keeps is a copy on the stream: NCCL's send to oneself costs a kernel and a
        // proxy round trip (the counts were checked equal before).
        if (send_bytes[p] != 0)
          DTL_HIP_TRY(hipMemcpyAsync(out + recv_displs[p], in + send_displs[p], send_bytes[p], hipMemcpyDeviceToDevice,
                                     stream));
        continue;
      }
      DTL_TRY(nccl::send(comm, in + send_displs[p], send_bytes[p], peer, stream));
      DTL_TRY(nccl::recv(comm, out + recv_displs[p], recv_bytes[p], peer, stream));
    }
    return {};
  });
#endif
}

int size(const communicator& comm) noexcept { return comm.size; }

}  // namespace dtl::detail::nccl
