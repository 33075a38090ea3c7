// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's record of how far a container's data may be out of step with the other ranks:
// sync_domain (clean < local_dirty < halo < global_dirty), dirty_flags, the container's sync_state and
// sync_guard (marks the container locally modified when it goes out of scope); stale_policy, upstream's
// name for its choices of reading stale data.
//
//   vec.mark_local_modified();          // this rank wrote its block: local_dirty
//   if (vec.is_dirty()) vec.sync();     // a barrier over the vector's ranks, then clean
//
// The record is bookkeeping for the program: the containers mark it where their own calls change the data
// (docs/containers.md, "Sync state"), and nothing waits on it or refuses a call because of it.

#include <dtl/core/loudness_tags.hpp>  // loudness_level, as upstream's sync_domain.hpp gives it

#include <atomic>
#include <concepts>
#include <cstdint>

namespace dtl {

/// How far data may be out of step, in growing order: nothing changed; this rank's block changed; ghost
/// copies of neighbours' elements are stale too; other ranks' view (or the layout) is stale.
enum class sync_domain : std::uint8_t { clean = 0, local_dirty = 1, halo = 2, global_dirty = 3 };

/// Whether bringing data of this domain back in step takes communication (halo and global_dirty).
[[nodiscard]] constexpr bool requires_communication(sync_domain d) noexcept {
  return d == sync_domain::halo || d == sync_domain::global_dirty;
}
[[nodiscard]] constexpr bool is_at_least_as_dirty(sync_domain a, sync_domain b) noexcept {
  return static_cast<std::uint8_t>(a) >= static_cast<std::uint8_t>(b);
}
[[nodiscard]] constexpr sync_domain max_domain(sync_domain a, sync_domain b) noexcept {
  return is_at_least_as_dirty(a, b) ? a : b;
}

/// What changed, one flag per cause; to_domain() is the dirtiest domain they imply.
struct dirty_flags {
  bool local_modified = false;
  bool halo_stale = false;
  bool remote_stale = false;
  bool structure_changed = false;

  [[nodiscard]] constexpr bool any() const noexcept {
    return local_modified || halo_stale || remote_stale || structure_changed;
  }
  [[nodiscard]] constexpr bool is_clean() const noexcept { return !any(); }
  constexpr void clear() noexcept { *this = dirty_flags{}; }
  [[nodiscard]] constexpr sync_domain to_domain() const noexcept {
    if (remote_stale || structure_changed) return sync_domain::global_dirty;
    if (halo_stale) return sync_domain::halo;
    return local_modified ? sync_domain::local_dirty : sync_domain::clean;
  }
  /// Both sets of causes.
  [[nodiscard]] constexpr dirty_flags join(const dirty_flags& other) const noexcept {
    return {local_modified || other.local_modified, halo_stale || other.halo_stale, remote_stale || other.remote_stale,
            structure_changed || other.structure_changed};
  }
};

/// A container's domain. The marks only make it dirtier (except mark_clean, mark_halo_synced and
/// set_domain); safe to mark from several threads.
class sync_state {
 public:
  sync_state() noexcept = default;
  sync_state(const sync_state& other) noexcept : domain_(other.domain()) {}
  sync_state& operator=(const sync_state& other) noexcept {
    set_domain(other.domain());
    return *this;
  }

  [[nodiscard]] sync_domain domain() const noexcept { return domain_.load(std::memory_order_acquire); }
  [[nodiscard]] bool is_clean() const noexcept { return domain() == sync_domain::clean; }
  [[nodiscard]] bool is_dirty() const noexcept { return !is_clean(); }
  [[nodiscard]] bool needs_communication() const noexcept { return requires_communication(domain()); }

  void mark_local_modified() noexcept { raise_to(sync_domain::local_dirty); }
  void mark_halo_stale() noexcept { raise_to(sync_domain::halo); }
  void mark_global_dirty() noexcept { raise_to(sync_domain::global_dirty); }
  void mark_clean() noexcept { set_domain(sync_domain::clean); }
  /// The ghosts are fresh again: halo falls back to local_dirty; other domains stay.
  void mark_halo_synced() noexcept {
    sync_domain expected = sync_domain::halo;
    domain_.compare_exchange_strong(expected, sync_domain::local_dirty, std::memory_order_acq_rel);
  }
  void set_domain(sync_domain d) noexcept { domain_.store(d, std::memory_order_release); }

 private:
  void raise_to(sync_domain d) noexcept {
    sync_domain current = domain_.load(std::memory_order_relaxed);
    while (!is_at_least_as_dirty(current, d) &&
           !domain_.compare_exchange_weak(current, d, std::memory_order_acq_rel, std::memory_order_relaxed)) {
    }
  }

  std::atomic<sync_domain> domain_{sync_domain::clean};
};

/// Marks `container` locally modified when it ends (unless cancelled): for a scope that writes a block.
template <class Container>
class sync_guard {
 public:
  explicit sync_guard(Container& container) noexcept : container_(&container) {}
  sync_guard(const sync_guard&) = delete;
  sync_guard& operator=(const sync_guard&) = delete;
  sync_guard(sync_guard&& other) noexcept : container_(other.container_) { other.container_ = nullptr; }
  sync_guard& operator=(sync_guard&& other) noexcept {
    if (this != &other) {
      commit();
      container_ = other.container_;
      other.container_ = nullptr;
    }
    return *this;
  }
  ~sync_guard() { commit(); }
  /// Marks now (once).
  void commit() noexcept {
    if (container_ != nullptr) container_->mark_local_modified();
    container_ = nullptr;
  }
  /// Leaves the container as it is.
  void cancel() noexcept { container_ = nullptr; }

 private:
  Container* container_ = nullptr;
};

/// Upstream's choices for reading stale data (its consistency policies name them).
enum class stale_policy : std::uint8_t { allow = 0, warn = 1, error = 2, auto_sync = 3 };

/// A container that keeps a sync_state.
template <class T>
concept Syncable = requires(T& t, const T& ct) {
  { ct.sync_state_ref() } -> std::same_as<const sync_state&>;
  { t.sync_state_ref() } -> std::same_as<sync_state&>;
  { ct.is_dirty() } -> std::convertible_to<bool>;
  { ct.is_clean() } -> std::convertible_to<bool>;
  { t.mark_clean() } -> std::same_as<void>;
};

}  // namespace dtl
