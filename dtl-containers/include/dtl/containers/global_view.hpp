// SPDX-License-Identifier: MIT
#pragma once
// global_view: every element of a distributed_vector by its global index, from any rank.
//
//   auto g = vec.global_view();          // collective the first time (it opens an MPI window)
//   dtl::result<float> x = g[i].get();   // from whichever rank owns element i (a remote_ref)
//   DTL_TRY(g[j].put(2.0f));
//   g.owner(i), g.is_local(i), g.to_local(i), g.container()
//
// Its type is global_view<distributed_vector<T, P>> (upstream DTL's spelling, which also builds one:
// global_view<V> g(vec), make_global_view(vec)); it is a global_view<T>, the view by element type, to
// which it converts. A const vector gives a read-only one (global_view<const T>: no put()).
//
// SLOW by design: each get() or put() of a remote element is a one-sided access (MPI: lock, get or put,
// unlock, about a network round trip; HIP IPC: a copy the host waits for). Use it for the odd element,
// never in a loop over many: algorithms, local_view() / device_view(), gather() and copy_to_host() move
// data in bulk. Local elements are read and written directly (device memory through a copy). Remote
// device memory: a rank on this node through HIP IPC (a copy on this rank's stream, the owner takes no
// part; its GPU is this rank's or a peer), a rank on another node through MPI when MPI is GPU-aware;
// otherwise get()/put() return not_supported (the message says why), and local access still works.
// A view belongs to its vector's layout: after a resize() or redistribute(), or once the vector is gone
// (destroyed or assigned over), every get() and put() returns invalid_state, on every rank. Its
// remote_refs and iterators share its access path: each may outlive the view.

#include <dtl/containers/detail/global_access.hpp>
#include <dtl/containers/global_iterator.hpp>
#include <dtl/containers/remote_ref.hpp>
#include <dtl/core/traits.hpp>
#include <dtl/core/types.hpp>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace dtl {

template <class T>
class global_view {
 public:
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  using size_type = std::size_t;
  using reference = remote_ref<T>;

  /// `window` may be null: then `why_no_window` says why remote elements cannot be reached. `made_in`:
  /// the vector's layout generation, which every access checks.
  global_view(block_partition<> partition, int rank, T* local, bool local_on_host,
              std::shared_ptr<detail::window> window, status why_no_window, detail::generation_stamp made_in)
      : access_(std::make_shared<const detail::global_access>(partition, rank, const_cast<value_type*>(local),
                                                              sizeof(T), local_on_host, std::move(window),
                                                              std::move(why_no_window), std::move(made_in))) {}

  [[nodiscard]] remote_ref<T> operator[](size_type global_index) const noexcept {
    return remote_ref<T>(access_, global_index);
  }
  [[nodiscard]] size_type size() const noexcept { return access_->partition().global_size(); }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }

  /// The rank holding element i (no_rank past the end).
  [[nodiscard]] rank_t owner(index_t i) const noexcept {
    return i < 0 ? no_rank : access_->partition().owner(static_cast<size_type>(i)).value_or(no_rank);
  }
  [[nodiscard]] bool is_local(index_t i) const noexcept { return owner(i) == my_rank() && my_rank() != no_rank; }
  /// Element i's index in this rank's block (-1 when another rank holds it).
  [[nodiscard]] index_t to_local(index_t i) const noexcept {
    if (!is_local(i)) return -1;
    return i - static_cast<index_t>(access_->partition().local_range(my_rank()).value_or(index_range{}).begin);
  }
  [[nodiscard]] rank_t num_ranks() const noexcept { return access_->partition().ranks(); }
  [[nodiscard]] rank_t my_rank() const noexcept { return access_->rank() < 0 ? no_rank : access_->rank(); }
  /// Whether other ranks' elements can be reached (else their get() and put() return the reason).
  [[nodiscard]] bool remote_access_available() const noexcept { return access_->remote_available(); }

 private:
  std::shared_ptr<const detail::global_access> access_;  // shared with its remote_refs
};

/// A distributed_vector's global view (upstream's spelling global_view<Container>): the view by element
/// type, and the container it came from. Built by vec.global_view() (collective the first time).
template <class C>
requires is_distributed_vector_v<std::remove_const_t<C>>
class global_view<C>
    : public global_view<std::conditional_t<std::is_const_v<C>, const typename C::value_type, typename C::value_type>> {
 public:
  using container_type = C;
  using element_view =
      global_view<std::conditional_t<std::is_const_v<C>, const typename C::value_type, typename C::value_type>>;

  explicit global_view(C& container) : global_view(container.global_view()) {}
  global_view(element_view view, C& container) noexcept : element_view(std::move(view)), container_(&container) {}

  [[nodiscard]] C& container() const noexcept { return *container_; }
  [[nodiscard]] global_iterator<C> begin() const { return global_iterator<C>(*this, 0); }
  [[nodiscard]] global_iterator<C> end() const { return global_iterator<C>(*this, static_cast<index_t>(this->size())); }

 private:
  C* container_;
};

/// Upstream DTL's factory: container.global_view().
template <class Container>
[[nodiscard]] auto make_global_view(Container& container) {
  return container.global_view();
}

template <class T>
struct is_global_view<global_view<T>> : std::true_type {};

}  // namespace dtl
