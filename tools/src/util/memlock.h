// SPDX-License-Identifier: GPL-2.0
// memlock.h - the locked-memory limit that profile buffers are charged to.
//
// The module pins each profile's bucket pages while it runs and charges
// them to the creator's RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK.  The
// default limit is 8 MiB since Linux 5.16 but 64 KiB before, less than
// one user-space catch-all profile (65536 buckets, 256 KiB, at the
// largest bucket size the ABI allows), so on those kernels an
// unprivileged record needs the limit raised.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kprofile::record {

// The caller's RLIMIT_MEMLOCK in bytes, or nullopt when it does not bind
// (RLIM_INFINITY, or CAP_IPC_LOCK in the effective set).
std::optional<std::uint64_t> memlock_limit();

// What to tell a user whose bucket buffers could not be pinned (ENOMEM
// at start), given memlock_limit().
std::string memlock_advice(std::optional<std::uint64_t> limit);

} // namespace kprofile::record
