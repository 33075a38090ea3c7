// SPDX-License-Identifier: MIT
// Configure-time probe (AMD platform): can the kernel compiler find rocPRIM?
#include <rocprim/rocprim.hpp>
