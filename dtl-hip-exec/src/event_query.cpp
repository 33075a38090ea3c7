// SPDX-License-Identifier: MIT
#include <dtl/hip/error.hpp>

#include "event_query.hpp"

namespace dtl::hip::detail {

event_status query_event(hipEvent_t event, const char* what) {
  const hipError_t e = hipEventQuery(event);
  if (e == hipSuccess) return event_status::complete();
  if (e == hipErrorNotReady) {
    forget_not_ready();
    return event_status::pending();
  }
  return event_status::failed(to_status(e, what));
}

void forget_not_ready() noexcept {
  if (hipPeekAtLastError() == hipErrorNotReady) static_cast<void>(hipGetLastError());
}

}  // namespace dtl::hip::detail
