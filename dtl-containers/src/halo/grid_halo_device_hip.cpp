// SPDX-License-Identifier: MIT
// The device path of an N-d halo: one kernel packs the boxes other ranks receive and fills the ghost
// regions that the grid wraps onto this rank (grid_box_copy.hip), on the device's lane; the packed boxes
// travel as the host path's messages, staged through pinned memory; one kernel writes what came into the
// ghost boxes. A rank that is its own only neighbour runs one kernel and no host step: the exchange is
// left running on the lane, as an algorithm's work is.
#include "halo/grid_box_copy.hpp"
#include "halo/grid_halo_plan.hpp"

#include <dtl/containers/communication/detail/lane.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device_guard.hpp>
#include <dtl/hip/error.hpp>
#include <dtl/hip/event_poller.hpp>

#include <memory>
#include <vector>

namespace dtl::detail {

struct grid_halo_device {
  std::shared_ptr<device_lane> lane;
  std::size_t word_bytes = 1;
  // The copy tables in device memory: the start of an exchange (packs and copies to itself), its end (unpacks).
  grid_copy* tables = nullptr;
  std::size_t begin_count = 0, begin_words = 0, end_count = 0, end_words = 0;
  std::byte* buffer = nullptr;  // device memory, laid out as plan.pinned: the packed sends, then the receives
  std::byte* pinned = nullptr;
  std::size_t buffer_bytes = 0, sent_bytes = 0;  // sent_bytes: the packed sends to other ranks (at the start)
  bool other_ranks = false;                      // some region's peer is another rank
  int device = no_device;
  hipEvent_t handed_over = nullptr;  // the stream form's: recorded on the lane after a staged exchange

  ~grid_halo_device() {
    auto guard = hip::device_guard::enter(device);
    // The lane's last kernel may still read the tables and the buffer.
    if (lane) static_cast<void>(hipStreamSynchronize(lane->stream.native_handle()));
    if (tables != nullptr) static_cast<void>(hipFree(tables));
    if (buffer != nullptr) static_cast<void>(hipFree(buffer));
    if (pinned != nullptr) static_cast<void>(hipHostFree(pinned));
    if (handed_over != nullptr) static_cast<void>(hipEventDestroy(handed_over));
  }
};

void grid_halo_device_deleter::operator()(grid_halo_device* dev) const noexcept { delete dev; }

namespace {

/// A box of the allocation, as a copy's source or destination: its first word and its strides in words.
struct box_words {
  std::size_t offset = 0;
  std::size_t stride[grid_copy_max_dims] = {};
};

box_words in_allocation(const grid_halo_plan& plan, const grid_box& box, std::size_t words_per_element) {
  box_words b;
  std::size_t stride = words_per_element;
  b.stride[plan.dims] = 1;
  for (std::size_t d = plan.dims; d-- > 0;) {
    b.stride[d] = stride;
    b.offset += box.offset[d] * stride;
    stride *= plan.padded[d];
  }
  return b;
}

box_words in_buffer(const grid_halo_plan& plan, const grid_box& box, std::size_t words_per_element,
                    std::size_t first_word) {
  box_words b;
  b.offset = first_word;
  std::size_t stride = words_per_element;
  b.stride[plan.dims] = 1;
  for (std::size_t d = plan.dims; d-- > 0;) {
    b.stride[d] = stride;
    stride *= box.extents[d];
  }
  return b;
}

/// Appends the copy of `box` from `src` to `dst` to `table`; returns the words it adds.
std::size_t add_copy(std::vector<grid_copy>& table, std::size_t first, const grid_halo_plan& plan, const grid_box& box,
                     std::size_t words_per_element, const box_words& src, bool src_in_buffer, const box_words& dst,
                     bool dst_in_buffer) {
  const std::size_t words = grid_box_elements(box, plan.dims) * words_per_element;
  if (words == 0) return 0;
  grid_copy c;
  c.first = first;
  for (std::size_t d = 0; d < plan.dims; ++d) c.extents[d] = box.extents[d];
  c.extents[plan.dims] = words_per_element;
  for (std::size_t d = 0; d <= plan.dims; ++d) {
    c.src_stride[d] = src.stride[d];
    c.dst_stride[d] = dst.stride[d];
  }
  c.src_offset = src.offset;
  c.dst_offset = dst.offset;
  c.src_in_buffer = src_in_buffer ? 1 : 0;
  c.dst_in_buffer = dst_in_buffer ? 1 : 0;
  table.push_back(c);
  return words;
}

/// Runs a table on `stream` (the lane's, or the caller's after the lane), with the lane's mutex held.
status run_table(grid_halo_plan& plan, grid_halo_device& dev, const grid_copy* table, std::size_t count,
                 std::size_t words, hipStream_t stream) {
  return copy_boxes_on_device(table, count, words, plan.dims + 1, dev.word_bytes, plan.base, dev.buffer, stream);
}

/// The end of work enqueued on the lane: left running there (the calls after it are ordered behind it),
/// unless every call waits (DTL_SYNC_ALGORITHMS=1).
status leave_running(device_lane& lane) {
  lane.unsettled.store(true, std::memory_order_release);
  if (sync_algorithms()) return lane.settle();
  return {};
}

}  // namespace

status make_grid_halo_device(grid_halo_plan& plan, std::size_t bytes) {
  grid_halo_device_ptr dev(new grid_halo_device);
  dev->device = plan.device;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  DTL_ASSIGN_OR_RETURN(dev->lane, acquire_lane(plan.ctx, plan.device));
  for (const std::size_t w : {std::size_t{8}, std::size_t{4}, std::size_t{2}, std::size_t{1}})
    if (plan.element_bytes % w == 0) {
      dev->word_bytes = w;
      break;
    }
  const std::size_t per_element = plan.element_bytes / dev->word_bytes;
  // The layout of plan.pinned (and of the device buffer): every region's send box, then every receive box.
  std::vector<std::size_t> send_at, receive_at;
  std::size_t at = 0;
  for (const grid_halo_region& r : plan.regions) {
    send_at.push_back(at);
    at += grid_box_elements(r.send, plan.dims) * plan.element_bytes;
  }
  dev->sent_bytes = at;
  for (const grid_halo_region& r : plan.regions) {
    receive_at.push_back(at);
    if (r.peer != plan.rank) at += grid_box_elements(r.receive, plan.dims) * plan.element_bytes;
  }
  std::vector<grid_copy> table;
  std::size_t words = 0;
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    const grid_halo_region& r = plan.regions[k];
    if (r.peer == plan.rank) continue;
    dev->other_ranks = true;
    words += add_copy(table, words, plan, r.send, per_element, in_allocation(plan, r.send, per_element), false,
                      in_buffer(plan, r.send, per_element, send_at[k] / dev->word_bytes), true);
  }
  for (const auto& [ghost, source] : plan.own) {
    const grid_box& to = plan.regions[ghost].receive;
    words += add_copy(table, words, plan, to, per_element, in_allocation(plan, plan.regions[source].send, per_element),
                      false, in_allocation(plan, to, per_element), false);
  }
  dev->begin_count = table.size();
  dev->begin_words = words;
  words = 0;
  for (std::size_t k = 0; k < plan.regions.size(); ++k) {
    const grid_halo_region& r = plan.regions[k];
    if (r.peer == plan.rank) continue;
    words += add_copy(table, words, plan, r.receive, per_element,
                      in_buffer(plan, r.receive, per_element, receive_at[k] / dev->word_bytes), true,
                      in_allocation(plan, r.receive, per_element), false);
  }
  dev->end_count = table.size() - dev->begin_count;
  dev->end_words = words;
  if (!table.empty()) {
    DTL_HIP_TRY(hipMalloc(&dev->tables, table.size() * sizeof(grid_copy)));
    DTL_HIP_TRY(hipMemcpy(dev->tables, table.data(), table.size() * sizeof(grid_copy), hipMemcpyHostToDevice));
  }
  dev->buffer_bytes = bytes;
  // The pinned boxes are also where reduce stages its messages; the device buffer is for other ranks only.
  if (bytes != 0) DTL_HIP_TRY(hipHostMalloc(&dev->pinned, bytes, hipHostMallocDefault));
  if (dev->other_ranks && bytes != 0) DTL_HIP_TRY(hipMalloc(&dev->buffer, bytes));
  plan.pinned = dev->pinned;
  plan.dev = std::move(dev);
  return {};
}

status grid_device_begin(grid_halo_plan& plan) {
  grid_halo_device& dev = *plan.dev;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  std::lock_guard lock(dev.lane->mutex);
  DTL_TRY(dev.lane->poll_earlier());
  if (status s = run_table(plan, dev, dev.tables, dev.begin_count, dev.begin_words, dev.lane->stream.native_handle());
      !s.ok())
    return dev.lane->blame(std::move(s));
  if (!dev.other_ranks) return leave_running(*dev.lane);
  // MPI reads the packed boxes from pinned memory: the host waits for them.
  if (dev.sent_bytes != 0)
    DTL_HIP_TRY(hipMemcpyAsync(dev.pinned, dev.buffer, dev.sent_bytes, hipMemcpyDeviceToHost,
                               dev.lane->stream.native_handle()));
  dev.lane->unsettled.store(true, std::memory_order_release);
  return dev.lane->settle();
}

status grid_device_end(grid_halo_plan& plan) {
  grid_halo_device& dev = *plan.dev;
  if (!dev.other_ranks) return {};
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  std::lock_guard lock(dev.lane->mutex);
  const std::size_t received = dev.buffer_bytes - dev.sent_bytes;
  // The next exchange_begin waits for the lane before MPI writes into the pinned buffer again.
  if (received != 0)
    DTL_HIP_TRY(hipMemcpyAsync(dev.buffer + dev.sent_bytes, dev.pinned + dev.sent_bytes, received,
                               hipMemcpyHostToDevice, dev.lane->stream.native_handle()));
  if (status s = run_table(plan, dev, dev.tables + dev.begin_count, dev.end_count, dev.end_words,
                           dev.lane->stream.native_handle());
      !s.ok())
    return dev.lane->blame(std::move(s));
  return leave_running(*dev.lane);
}

status grid_device_copy_allocation(grid_halo_plan& plan, std::byte* host, bool to_host) {
  grid_halo_device& dev = *plan.dev;
  DTL_ASSIGN_OR_RETURN(hip::device_guard guard, hip::device_guard::enter(plan.device));
  std::lock_guard lock(dev.lane->mutex);
  std::size_t bytes = plan.element_bytes;
  for (std::size_t d = 0; d < plan.dims; ++d) bytes *= plan.padded[d];
  if (bytes != 0)
    DTL_HIP_TRY(to_host
                    ? hipMemcpyAsync(host, plan.base, bytes, hipMemcpyDeviceToHost, dev.lane->stream.native_handle())
                    : hipMemcpyAsync(plan.base, host, bytes, hipMemcpyHostToDevice, dev.lane->stream.native_handle()));
  dev.lane->unsettled.store(true, std::memory_order_release);
  return dev.lane->settle();
}

hip::future<void> grid_halo_exchange_on_stream(grid_halo_plan& plan, void* base, hip::stream_ref stream) {
  auto failed = [](status s) { return hip::make_failed_future<void>(std::move(s)); };
  if (!plan.on_device()) {
    if (status s = grid_halo_exchange(plan, base); !s.ok()) return failed(std::move(s));
    return hip::make_ready_future();
  }
  if (status s = plan.state->check(); !s.ok()) return failed(std::move(s));
  if (plan.in_flight)
    return failed(
        status(status_code::invalid_state, "halo exchange: an exchange is in flight; call exchange_end first"));
  grid_halo_device& dev = *plan.dev;
  auto guard = hip::device_guard::enter(plan.device);
  if (!guard) return failed(std::move(guard).error());
  if (!dev.other_ranks) {
    // One kernel on the caller's stream, after the work left running on the lane; the host does not wait.
    std::lock_guard lock(dev.lane->mutex);
    if (status s = dev.lane->order_after_lane(stream.get()); !s.ok()) return failed(std::move(s));
    plan.base = static_cast<std::byte*>(base);
    if (status s = run_table(plan, dev, dev.tables, dev.begin_count, dev.begin_words, stream.get()); !s.ok())
      return failed(std::move(s));
    return hip::event_poller::global().enqueue(stream, plan.device);
  }
  // The staged path needs the host: the caller's stream first, then the exchange on the lane, which the
  // caller's stream then waits for on the device.
  if (result<void> w = stream.synchronize(); !w) return failed(std::move(w).error());
  if (status s = grid_halo_exchange(plan, base); !s.ok()) return failed(std::move(s));
  std::lock_guard lock(dev.lane->mutex);
  if (dev.handed_over == nullptr)
    if (const hipError_t e = hipEventCreateWithFlags(&dev.handed_over, hipEventDisableTiming); e != hipSuccess)
      return failed(hip::to_status(e, "halo exchange: hipEventCreateWithFlags"));
  if (const hipError_t e = hipEventRecord(dev.handed_over, dev.lane->stream.native_handle()); e != hipSuccess)
    return failed(hip::to_status(e, "halo exchange: hipEventRecord"));
  if (const hipError_t e = hipStreamWaitEvent(stream.get(), dev.handed_over, 0); e != hipSuccess)
    return failed(hip::to_status(e, "halo exchange: hipStreamWaitEvent"));
  return hip::make_ready_future();
}

}  // namespace dtl::detail
