// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's placement vocabulary: memory_location, default_placement_policy and the concept
// PlacementPolicyConcept (a placement policy answering upstream's questions). Every placement is in
// <dtl/core/placement.hpp> (docs/upstream.md, "Forwarding headers").

#include <dtl/core/placement.hpp>
#include <dtl/policies/policy_category.hpp>

#include <concepts>

namespace dtl {

template <class P>
concept PlacementPolicyConcept = std::same_as<typename P::policy_category, placement_policy_tag> && requires {
  { P::preferred_location() } -> std::convertible_to<memory_location>;
  { P::is_host_accessible() } -> std::convertible_to<bool>;
  { P::is_device_accessible() } -> std::convertible_to<bool>;
};

}  // namespace dtl
