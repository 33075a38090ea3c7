// SPDX-License-Identifier: MIT
// Point-to-point's GPU side in builds without HIP: every buffer is host memory.
#include "comm/p2p.hpp"

namespace dtl::detail::p2p_device {

namespace {
status no_gpu() { return status(status_code::backend_not_available, "this build has no HIP"); }
}  // namespace

void pinned_deleter::operator()(std::byte*) const noexcept {}
result<bool> is_device(const context_state&, const void*) { return false; }
bool nccl_ready(context_state&) { return false; }
bool mpi_takes_device(const context_state&) { return false; }
status prepare(const context_state&, void*) { return {}; }
result<pinned_ptr> take_pinned(context_state&, std::size_t) { return no_gpu(); }
void device_deleter::operator()(std::byte*) const noexcept {}
result<device_ptr> take_device(const context_state&, std::size_t) { return no_gpu(); }
status to_host(const context_state&, void*, const void*, std::size_t) { return no_gpu(); }
status to_device(const context_state&, void*, const void*, std::size_t) { return no_gpu(); }
status nccl_exchange(context_state&, const void*, std::size_t, int, void*, std::size_t, int, void*) { return no_gpu(); }
status self_copy(context_state&, void*, const void*, std::size_t, void*, bool*) { return no_gpu(); }

}  // namespace dtl::detail::p2p_device
