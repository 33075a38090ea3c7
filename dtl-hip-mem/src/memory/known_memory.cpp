// SPDX-License-Identifier: MIT
#include "known_memory.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <shared_mutex>

namespace dtl::hip::detail {

namespace {

struct known_memory {
  std::shared_mutex mutex;
  std::map<std::uintptr_t, known_region> regions;  // by start address
};

// Never destroyed: spaces and pools that outlive main() (statics) still find it.
known_memory& table() {
  static known_memory* const instance = new known_memory;
  return *instance;
}

std::uintptr_t address(const void* ptr) noexcept { return reinterpret_cast<std::uintptr_t>(ptr); }

}  // namespace

owner_id new_owner_id() noexcept {
  static std::atomic<owner_id> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void remember(const void* ptr, const known_region& region) {
  known_memory& t = table();
  const std::unique_lock lock(t.mutex);
  t.regions.insert_or_assign(address(ptr), region);
}

status forget(const void* ptr, owner_id owner, std::size_t bytes, std::string_view who) {
  known_memory& t = table();
  std::size_t allocated = 0;
  {
    const std::unique_lock lock(t.mutex);
    const auto it = t.regions.find(address(ptr));
    if (it != t.regions.end() && it->second.owner == owner) {
      allocated = it->second.bytes;
      if (allocated == bytes) {
        t.regions.erase(it);
        return {};
      }
    }
  }
  if (allocated == 0)
    return status(status_code::invalid_pointer,
                  fmt::format("{}: deallocate({}, {} bytes): not an allocation of this space (a foreign pointer, an "
                              "interior pointer, or memory already freed); nothing was freed",
                              who, ptr, bytes));
  return status(status_code::invalid_argument,
                fmt::format("{}: deallocate({}, {} bytes): it was allocated with {} bytes; nothing was freed", who, ptr,
                            bytes, allocated));
}

std::optional<known_room> room_after(const void* ptr) noexcept {
  known_memory& t = table();
  const std::shared_lock lock(t.mutex);
  auto it = t.regions.upper_bound(address(ptr));
  if (it == t.regions.begin()) return std::nullopt;
  --it;
  const std::size_t offset = address(ptr) - it->first;
  if (offset >= it->second.bytes) return std::nullopt;
  return known_room{it->second.bytes - offset, it->second.bytes};
}

std::optional<known_region> find_known(const void* ptr) noexcept {
  known_memory& t = table();
  const std::shared_lock lock(t.mutex);
  auto it = t.regions.upper_bound(address(ptr));  // the first region starting after ptr
  if (it == t.regions.begin()) return std::nullopt;
  --it;
  if (address(ptr) - it->first >= it->second.bytes) return std::nullopt;
  return it->second;
}

}  // namespace dtl::hip::detail
