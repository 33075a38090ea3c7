// SPDX-License-Identifier: MIT
#pragma once
// Private: the memory that dtl-hip-mem's own spaces and pools allocated, by address range.
//
// Two uses. Pointer queries (query_pointer, and so the checks of every transfer) answer from here for
// such memory without asking the runtime, which is what makes a small copy_async cost what a raw
// hipMemcpyAsync costs; pointers this table does not know still go to the runtime. And a space checks
// here that a pointer handed back to it is one it gave out, with the size it gave out, before HIP or the
// statistics see it.
//
// A region is remembered after the runtime allocated it and forgotten before the runtime frees it, so
// an address the runtime hands out again is never found under its old owner.

#include <dtl/core/result.hpp>
#include <dtl/hip/pointer.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dtl::hip::detail {

/// Names the space or pool that allocated a region. Never reused within a process, so a space built
/// where a destroyed one lived cannot take the dead one's allocations for its own.
using owner_id = std::uint64_t;

/// A new owner_id (never 0).
[[nodiscard]] owner_id new_owner_id() noexcept;

struct known_region {
  std::size_t bytes = 0;
  pointer_attributes attributes;
  owner_id owner = 0;
};

/// Records [ptr, ptr + region.bytes) as allocated by region.owner.
void remember(const void* ptr, const known_region& region);

/// Forgets the region that starts at `ptr`, if `owner` allocated it with exactly `bytes`. Otherwise
/// nothing changes and the answer says why: invalid_pointer (not an allocation of `owner`; `who` names
/// the owner in the message) or invalid_argument (`bytes` is not the size that was allocated).
[[nodiscard]] status forget(const void* ptr, owner_id owner, std::size_t bytes, std::string_view who);

/// The remembered region that contains `ptr`, if there is one.
[[nodiscard]] std::optional<known_region> find_known(const void* ptr) noexcept;

/// Where `ptr` stands in the remembered region that contains it: the bytes from ptr to the region's end,
/// and the region's size.
struct known_room {
  std::size_t left = 0;
  std::size_t region_bytes = 0;
};
/// nullopt when no remembered region contains `ptr`.
[[nodiscard]] std::optional<known_room> room_after(const void* ptr) noexcept;

}  // namespace dtl::hip::detail
