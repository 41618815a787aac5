#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 56-stream-abi: the sample stream's ABI (kprofile_stream.h) from user
# space alone (kp-stream, no tool), with ProfileTime:
#   - every create error in its documented order, START/STOP states,
#     STREAM_INFO, the mapping's rules and header pages;
#   - a stream of oneself read by a thread while it runs: every sample is
#     the process's, in user mode, with no kernel address, none lost, and
#     the hot leaf's samples carry its caller (frame-pointer walk);
#   - INHERIT: a child and a grandchild are sampled from their first
#     instruction, with FORK, EXEC (the new command name) and EXIT
#     records; without INHERIT neither is;
#   - a set-user-ID exec of a followed process ends following it
#     (EXEC_STOPPED, no sample of the program), a plain exec does not;
#   - kernel-mode samples carry kernel frames (the unwinder) and the user
#     stack of the system call; a user-only stream beside it holds no
#     kernel address;
#   - a system-wide stream sees other processes, their fork and exit;
#   - rings nobody reads lose records, and count every one.
. "$KP_GUEST/lib.sh"
cd /tmp || exit 1

gt() { [ "${1:-0}" -gt "${2:-0}" ] 2>/dev/null; }
old_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
# Unprivileged user-mode streams of oneself, as perf allows at 2.
echo 2 >/proc/sys/kernel/perf_event_paranoid

# --- create errors, states, the mapping --------------------------------
out=$(kp-stream errors 2>&1)
for c in flags_bad:EINVAL inherit_system:EINVAL reserved:EINVAL \
	target_bad:EINVAL mode_bad:EINVAL pid_without_target:EINVAL \
	pid_zero:EINVAL nr_sources_0:EINVAL nr_sources_9:EINVAL \
	max_frames_128:EINVAL max_frames_127:OK ring_pages_3:EINVAL \
	ring_pages_2048:EINVAL stack_without_flag:EINVAL stack_unaligned:EINVAL \
	stack_65536:EINVAL stack_too_big_for_ring:EINVAL stack_65528_64_pages:OK \
	stack_default:OK source_unknown:EINVAL source_repeated:EINVAL \
	sources_fault:EFAULT pid_gone:ESRCH pid_self:OK \
	nocap_kernel:EPERM nocap_system:EPERM nocap_user:OK \
	nocap_memlock:ENOMEM; do
	is "$(kv "${c%%:*}" "$out")" "${c#*:}" "create ${c%%:*} -> ${c#*:}"
done
is "$(kv ring_pages "$out")" 16 "STREAM_INFO: 16 data pages per ring by default"
is "$(kv page_size "$out")" "$(getconf PAGESIZE 2>/dev/null || echo 4096)" \
	"STREAM_INFO: the page size"
gt "$(kv nr_rings "$out")" 0 && ok "STREAM_INFO: one ring per possible CPU ($(kv nr_rings "$out"))" ||
	not_ok "STREAM_INFO: nr_rings" "$out"
is "$(kv started "$out")" 0 "a new stream is stopped"
is "$(kv info_reserved_zero "$out")" 1 "STREAM_INFO's reserved fields are zero"
is "$(kv cloexec "$out")" 1 "the stream fd is close-on-exec"
for c in mmap_short:EINVAL mmap_long:EINVAL mmap_offset:EINVAL \
	mmap_private:EINVAL mmap_ok:OK; do
	is "$(kv "${c%%:*}" "$out")" "${c#*:}" "${c%%:*} -> ${c#*:}"
done
is "$(kv pages_ok "$out")" 1 "every ring's header page: offset, size, cpu, zero counters"
is "$(kv stop_stopped "$out")" EALREADY "STOP when stopped -> EALREADY"
is "$(kv start "$out")" OK "START"
is "$(kv start_started "$out")" EBUSY "START when started -> EBUSY"
is "$(kv started_now "$out")" 1 "STREAM_INFO says started"
is "$(kv stop "$out")" OK "STOP"
is "$(kv restart "$out")" OK "START after STOP"
is "$(kv bad_ioctl "$out")" ENOTTY "an unknown ioctl on a stream fd -> ENOTTY"
is "$(kv mapped_after_close "$out")" 1 "the mapping outlives close (a started stream)"

# --- a stream of oneself, read while it runs -----------------------------
out=$(kp-stream self 1 2>&1)
samples=$(kv samples "$out")
gt "$samples" 20 && ok "self: samples recorded ($samples)" ||
	not_ok "self: samples recorded" "$out"
is "$(kv info_samples "$out")" "$samples" "self: STREAM_INFO counts every sample read"
is "$(kv info_lost "$out")" 0 "self: nothing lost at the default rate with a reader"
is "$(kv bad "$out")" 0 "self: every record well-formed (sizes, no wrap)"
is "$(kv wrong_pid "$out")" 0 "self: every sample is of this process"
is "$(kv user "$out")" "$samples" "self: user mode only"
is "$(kv kaddr "$out")" 0 "self: no kernel address in a user-mode stream"
is "$(kv ip_first "$out")" "$samples" "self: the first frame is the ip"
leaf=$(kv leaf "$out")
caller=$(kv leaf_caller "$out")
gt "$leaf" 10 && ok "self: samples in the hot leaf ($leaf)" ||
	not_ok "self: samples in the hot leaf" "$out"
[ "${caller:-0}" -gt 0 ] && [ $((caller * 10)) -ge $((leaf * 9)) ] &&
	ok "self: the leaf's caller is its second frame ($caller of $leaf)" ||
	not_ok "self: the leaf's caller is its second frame" "$out"

# --- INHERIT --------------------------------------------------------------
out=$(kp-stream inherit 1 2>&1)
gt "$(kv samples_child "$out")" 0 && ok "inherit: the child is sampled" ||
	not_ok "inherit: the child is sampled" "$out"
gt "$(kv samples_grandchild "$out")" 0 && ok "inherit: the grandchild is sampled" ||
	not_ok "inherit: the grandchild is sampled" "$out"
gt "$(kv samples_self "$out")" 0 && ok "inherit: the parent is sampled" ||
	not_ok "inherit: the parent is sampled" "$out"
is "$(kv fork_child "$out")" 1 "inherit: FORK of the child, with its parent"
is "$(kv fork_grandchild "$out")" 1 "inherit: FORK of the grandchild, with its parent"
is "$(kv exec_child "$out")" true "inherit: EXEC of the child with the new command name"
is "$(kv exit_child "$out")" 1 "inherit: EXIT of the child"
is "$(kv exit_grandchild "$out")" 1 "inherit: EXIT of the grandchild"
is "$(kv info_untracked "$out")" 0 "inherit: every process followed"
is "$(kv bad "$out")" 0 "inherit: every record well-formed"
is "$(kv info_lost "$out")" 0 "inherit: nothing lost"
out=$(kp-stream inherit 0 2>&1)
is "$(kv samples_child "$out")/$(kv samples_grandchild "$out")" 0/0 \
	"without INHERIT: neither child nor grandchild is sampled"
is "$(kv tasks "$out")" 0 "without INHERIT: no task records"
gt "$(kv samples_self "$out")" 0 && ok "without INHERIT: the process itself is sampled" ||
	not_ok "without INHERIT: the process itself is sampled" "$out"

# --- an exec that leaves a followed process non-dumpable ------------------
# (docs/profiles.md, "Sample streams", "Privileges")
# A copy owned by uid 1000, set-user-ID: root executing it gets euid 1000,
# which leaves the process non-dumpable (as a set-user-ID program run by a
# user); a plain copy is the control.
cp "$(command -v kp-stream)" /tmp/kp-stream-plain
cp "$(command -v kp-stream)" /tmp/kp-stream-suid
chown 1000 /tmp/kp-stream-suid
chmod 4755 /tmp/kp-stream-suid
out=$(kp-stream exec /tmp/kp-stream-plain spin 0.5 2>&1)
is "$(kv exec_child "$out")" kp-stream-plain "exec: EXEC with the new command name"
gt "$(kv child_before "$out")" 0 && gt "$(kv child_after "$out")" 0 &&
	ok "exec: the child is sampled before and after a plain exec" ||
	not_ok "exec: the child is sampled before and after a plain exec" "$out"
is "$(kv info_flags "$out")/$(kv exit_child "$out")/$(kv info_poll "$out")" 0/1/1 \
	"exec: a plain exec stops nothing, EXIT follows (and the fd polls)"
out=$(kp-stream exec /tmp/kp-stream-suid spin 0.5 2>&1)
is "$(kv exec_child "$out")" kp-stream-suid "setuid: EXEC of the set-user-ID program"
gt "$(kv child_before "$out")" 0 && ok "setuid: the child is sampled before the exec" ||
	not_ok "setuid: the child is sampled before the exec" "$out"
is "$(kv child_after "$out")" 0 "setuid: the set-user-ID program is not sampled"
is "$(kv info_flags "$out")" 1 "setuid: STREAM_INFO says EXEC_STOPPED"
is "$(kv exit_child "$out")" 0 "setuid: the process is followed no more (no EXIT)"
is "$(kv bad "$out")" 0 "setuid: every record well-formed"
rm -f /tmp/kp-stream-plain /tmp/kp-stream-suid

# --- kernel samples and their stacks --------------------------------------
out=$(kp-stream kernel 1 2>&1)
kernel=$(kv kernel "$out")
gt "$kernel" 5 && ok "kernel: kernel-mode samples while reading /dev/zero ($kernel)" ||
	not_ok "kernel: kernel-mode samples" "$out"
is "$(kv kernel_ok "$out")" "$kernel" "kernel: the ip is a kernel address and the first kernel frame"
is "$(kv kernel_frames_bad "$out")" 0 "kernel: every kernel frame is a kernel address"
ks=$(kv kernel_user_stack "$out")
[ "${ks:-0}" -gt 0 ] && [ $((ks * 10)) -ge $((kernel * 9)) ] &&
	ok "kernel: the system call's user stack follows ($ks of $kernel)" ||
	not_ok "kernel: the system call's user stack follows" "$out"
is "$(kv kaddr "$out")" 0 "kernel: no kernel address among user frames"
is "$(kv bad "$out")" 0 "kernel: every record well-formed"
is "$(kv u_kernel "$out")" 0 "a user-mode stream beside it: no kernel sample"
is "$(kv u_kaddr "$out")" 0 "a user-mode stream beside it: no kernel address"
gt "$(kv u_samples "$out")" 0 && ok "a user-mode stream beside it: user samples" ||
	not_ok "a user-mode stream beside it: user samples" "$out"

# --- system-wide ----------------------------------------------------------
out=$(kp-stream system 2>&1)
gt "$(kv samples_child "$out")" 0 && ok "system: another process is sampled" ||
	not_ok "system: another process is sampled" "$out"
is "$(kv fork_child "$out")" 1 "system: FORK of a new process"
is "$(kv exit_child "$out")" 1 "system: EXIT of it"
gt "$(kv pids "$out")" 1 && ok "system: several processes ($(kv pids "$out"))" ||
	not_ok "system: several processes" "$out"
is "$(kv bad "$out")" 0 "system: every record well-formed"

# --- losses -----------------------------------------------------------------
out=$(kp-stream lost 1 2>&1)
lost=$(kv info_lost "$out")
gt "$lost" 0 && ok "lost: one-page rings nobody reads drop records ($lost)" ||
	not_ok "lost: records dropped" "$out"
is "$(kv page_lost "$out")" "$lost" "lost: the header pages' lost add up to STREAM_INFO's"
is "$(kv samples "$out")" "$(kv info_samples "$out")" "lost: every sample counted is in a ring"
is "$(kv records "$out")" "$(kv page_records "$out")" "lost: the header pages' records match the rings"
is "$(kv over "$out")" 0 "lost: data_head never passes data_tail + data_size"
is "$(kv bad "$out")" 0 "lost: nothing overwritten or torn"

echo "$old_paranoid" >/proc/sys/kernel/perf_event_paranoid
done_testing
