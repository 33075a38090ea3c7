// SPDX-License-Identifier: MIT
#pragma once
// Upstream DTL's remote operations, all of them: actions and their registry, argument packs, handlers,
// RPC messages, calls between ranks, active messages and progress.

#include <dtl/remote/action.hpp>
#include <dtl/remote/action_registry.hpp>
#include <dtl/remote/active_message.hpp>
#include <dtl/remote/argument_pack.hpp>
#include <dtl/remote/dynamic_handler.hpp>
#include <dtl/remote/progress.hpp>
#include <dtl/remote/rpc.hpp>
#include <dtl/remote/rpc_request.hpp>
#include <dtl/remote/rpc_serialization.hpp>
