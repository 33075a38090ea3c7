// SPDX-License-Identifier: MIT
#include <dtl/core/try.hpp>
#include <dtl/topology/hardware.hpp>
#include <dtl/topology/network.hpp>
#include <dtl/topology/node.hpp>

#include <dtl/containers/communication/detail/context_services.hpp>

#include <algorithm>
#include <array>
#include <cstring>

namespace dtl::topology {

namespace {

/// What each rank tells the others (one allgather): fixed-size, so that it travels as bytes.
struct place_record {
  int leader = 0;  // the node's lowest rank in the context: the node's identity
  int local_rank = 0;
  int device = no_device;
  std::array<char, 32> pci_bus_id{};
  std::array<char, 64> hostname{};
};

template <std::size_t N>
void put(std::array<char, N>& to, const std::string& text) {
  std::memcpy(to.data(), text.data(), std::min(text.size(), N - 1));
}

std::string pci_bus_id_of(int device) {
  const auto& gpus = local_topology().gpus;
  const auto found =
      std::find_if(gpus.begin(), gpus.end(), [&](const gpu_device& g) { return static_cast<int>(g.id) == device; });
  return found != gpus.end() ? found->pci_bus_id : std::string();
}

}  // namespace

result<node_layout> node_layout::of(const context& ctx) {
  DTL_ASSIGN_OR_RETURN(const context node, ctx.node_local());
  place_record mine;
  DTL_ASSIGN_OR_RETURN(mine.leader, detail::node_leader(ctx));
  mine.local_rank = node.rank();
  mine.device = ctx.device();
  put(mine.pci_bus_id, pci_bus_id_of(ctx.device()));
  put(mine.hostname, get_hostname());
  std::vector<place_record> all(static_cast<std::size_t>(ctx.size()));
  DTL_TRY(ctx.allgather(&mine, all.data(), 1));

  node_layout layout;
  layout.rank_ = ctx.rank();
  std::vector<int> leaders;  // by node: ascending, as ranks are scanned in order
  for (std::size_t r = 0; r < all.size(); ++r) {
    const place_record& rec = all[r];
    auto at = std::find(leaders.begin(), leaders.end(), rec.leader);
    if (at == leaders.end()) {
      leaders.push_back(rec.leader);
      layout.node_ranks_.emplace_back();
      at = leaders.end() - 1;
    }
    const int node_index = static_cast<int>(at - leaders.begin());
    layout.node_ranks_[static_cast<std::size_t>(node_index)].push_back(static_cast<int>(r));
    layout.places_.push_back({node_index, rec.local_rank, rec.device, rec.pci_bus_id.data(), rec.hostname.data()});
  }
  return layout;
}

int node_layout::node_of(int r) const noexcept {
  return r >= 0 && r < rank_count() ? places_[static_cast<std::size_t>(r)].node : -1;
}

int node_layout::local_rank_of(int r) const noexcept {
  return r >= 0 && r < rank_count() ? places_[static_cast<std::size_t>(r)].local_rank : -1;
}

std::vector<int> node_layout::ranks_on_node(int n) const {
  return n >= 0 && n < node_count() ? node_ranks_[static_cast<std::size_t>(n)] : std::vector<int>{};
}

int node_layout::ranks_per_node(int n) const noexcept {
  return n >= 0 && n < node_count() ? static_cast<int>(node_ranks_[static_cast<std::size_t>(n)].size()) : 0;
}

bool node_layout::same_node(int a, int b) const noexcept { return node_of(a) >= 0 && node_of(a) == node_of(b); }

bool node_layout::same_gpu(int a, int b) const noexcept {
  return same_node(a, b) && !place(a).pci_bus_id.empty() && place(a).pci_bus_id == place(b).pci_bus_id;
}

std::vector<int> node_layout::ranks_sharing_gpu(int r) const {
  std::vector<int> sharing;
  for (int other = 0; other < rank_count(); ++other)
    if (same_gpu(r, other)) sharing.push_back(other);
  return sharing;
}

}  // namespace dtl::topology
