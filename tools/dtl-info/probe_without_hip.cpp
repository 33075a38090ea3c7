// SPDX-License-Identifier: MIT
// Linked into dtl-info when the build has no HIP layers: there is nothing to probe, and the report says
// why (the reason dtl-hip-mem gave at configure time).
#include "dtl-info-config.hpp"
#include "info.hpp"

namespace dtl_info {

report probe(bool) {
  report r;
  r.no_device_reason = "this dtl-info was built without HIP: " DTL_INFO_WITHOUT_HIP;
  r.no_device_hints.push_back("rebuild with a HIP toolchain: meson setup <dir> -Dhip=enabled (see README)");
  return r;
}

}  // namespace dtl_info
