// SPDX-License-Identifier: MIT
#include <dtl/hip/hip_pool_memory_space.hpp>

#include <dtl/core/status_boundary.hpp>
#include <dtl/core/try.hpp>
#include <dtl/hip/device.hpp>

#include "../memory/known_memory.hpp"
#include "../platform.hpp"
#include "pool_core.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <limits>

namespace dtl::hip {

namespace {

std::string_view backing_from_environment() noexcept {
  const char* value = std::getenv(pool_backing_environment.data());
  return value != nullptr ? std::string_view(value) : std::string_view();
}

}  // namespace

hip_pool_memory_space::hip_pool_memory_space() : hip_pool_memory_space(pool_options{}) {}

hip_pool_memory_space::hip_pool_memory_space(const pool_options& options) : stream_(options.stream) {
  result<int> device = resolve_device(options.device);
  bool runtime_pools = false;
  if (device.has_value()) {
    device_ = *device;
    result<bool> supported = platform::memory_pools_supported(device_);
    if (!supported.has_value()) {
      availability_ = std::move(supported).error();
      return;
    }
    runtime_pools = *supported;
  } else {
    device_ = options.device.value_or(no_device);
    availability_ = std::move(device).error();
  }
  result<pool_backing> chosen =
      select_pool_backing(options.backing, backing_from_environment(), runtime_pools, platform::prefer_runtime_pools());
  if (!chosen.has_value()) {
    // A bad backing value is the caller's argument: it is reported before a missing device.
    if (availability_.ok() || chosen.error().code() == status_code::invalid_argument)
      availability_ = std::move(chosen).error();
    return;  // backing_ stays direct, the plainest: nothing is ever allocated anyway
  }
  backing_ = *chosen;
  if (!availability_.ok()) return;
  auto core = std::make_unique<detail::pool_core>(backing_, device_);
  if (status s = core->start(); !s.ok()) {
    availability_ = std::move(s);
    return;
  }
  core_ = std::move(core);
}

hip_pool_memory_space::~hip_pool_memory_space() = default;

result<void*> hip_pool_memory_space::allocate(std::size_t bytes, stream_ref stream) {
  DTL_TRY(check_allocation_request(bytes, max_alignment, max_alignment));
  DTL_TRY(availability_);
  return status_boundary("hip_pool allocate", [&] { return core_->allocate(bytes, stream.get()); });
}

result<void*> hip_pool_memory_space::allocate(std::size_t bytes, std::size_t alignment) {
  DTL_TRY(check_allocation_request(bytes, alignment, max_alignment));
  DTL_TRY(availability_);
  return status_boundary("hip_pool allocate", [&] { return core_->allocate(bytes, stream_.get()); });
}

status hip_pool_memory_space::try_deallocate(void* ptr, std::size_t bytes, stream_ref stream) {
  if (ptr == nullptr) return {};  // as free(nullptr), whatever `bytes`
  DTL_TRY(availability_);         // such a pool never allocated anything
  return status_boundary("hip_pool deallocate", [&] { return core_->deallocate(ptr, bytes, stream.get()); });
}

void hip_pool_memory_space::deallocate(void* ptr, std::size_t bytes, stream_ref stream) noexcept {
  try {
    if (status s = try_deallocate(ptr, bytes, stream); !s.ok()) report_unhandled(s);
  } catch (...) {  // only formatting a message can throw (bad_alloc); the failure is still reported
    report_unhandled(
        status(status_code::internal_error, "hip_pool deallocate failed and its error could not be formatted"));
  }
}

status hip_pool_memory_space::reserve(std::size_t bytes, std::size_t count) {
  DTL_TRY(check_allocation_request(bytes, max_alignment, max_alignment));
  if (count > max_reserve_count)
    return status(status_code::invalid_argument,
                  fmt::format("hip_pool reserve({} bytes, {} blocks): more than max_reserve_count ({}) blocks", bytes,
                              count, max_reserve_count));
  if (count > std::numeric_limits<std::size_t>::max() / bytes)
    return status(status_code::invalid_argument,
                  fmt::format("hip_pool reserve({} bytes, {} blocks): the total overflows std::size_t", bytes, count));
  DTL_TRY(availability_);
  return status_boundary("hip_pool reserve", [&] { return core_->reserve(bytes, count, stream_.get()); });
}

status hip_pool_memory_space::trim() {
  DTL_TRY(availability_);
  return status_boundary("hip_pool trim", [&] { return core_->trim(); });
}

pool_stats hip_pool_memory_space::stats() const noexcept {
  if (!core_) {
    pool_stats none;
    none.backing = backing_;
    return none;
  }
  return core_->stats();
}

memory_space_properties hip_pool_memory_space::properties() const noexcept {
  return {.host_accessible = false,
          .device_accessible = true,
          .unified = false,
          .pageable = false,
          .supports_atomics = true,
          .alignment = max_alignment,
          .device_id = device_};
}

bool hip_pool_memory_space::contains(const void* ptr) const noexcept {
  if (ptr == nullptr || !core_) return false;
  const std::optional<detail::known_region> region = detail::find_known(ptr);
  return region.has_value() && region->owner == core_->owner();
}

}  // namespace dtl::hip
