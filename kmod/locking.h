/* SPDX-License-Identifier: GPL-2.0 */
/*
 * locking.h - the module's whole lock order, and what runs in which
 * context.  The rules for each piece of data stay next to it (sampler.h,
 * profile.h, stream.h, pmu.h, thread.h, sched_hooks.h, profile_index.c,
 * sampler_timer.c, sampler_rate.c, thread_reserve.c, api.c); this page
 * puts them on one screen, so that "may I take X while holding Y?" has
 * one answer.
 * lockdep checks it in the debug kernel (testing/debugvm, KUnit's debug
 * kernel).
 *
 * Lock order
 * ----------
 * Indented: taken while holding the line above.  A lock appears under
 * every lock that may be held when it is taken; nothing is taken in the
 * other direction.
 *
 *   stream->op_lock            (mutex; a stream's START, STOP, release)
 *     set->lock                (mutex; every start and stop of a
 *                               sampler's profiles and streams)
 *       set->fold_lock         (mutex; the profiles' folded statistics
 *                               and the snapshots not folded yet,
 *                               profile_stats.c; also taken alone by a
 *                               statistics read and a snapshot's fold
 *                               work; a leaf)
 *       tracepoint mutexes     (kp_sched_hook_register(), _unregister(),
 *                               sched_hooks.c: the tracepoint code's
 *                               tracepoints_mutex, and inside it the
 *                               hotplug lock; every probe of the module
 *                               goes through them: the ProfileTime
 *                               sched_switch probe and the streams'
 *                               fork/exec/exit probes here, under
 *                               set->lock; thread profiling's probes and
 *                               the exec hook under no lock; never under
 *                               cpus_read_lock())
 *       cpus_read_lock()
 *         set->tlock           (mutex; ProfileTime's user count)
 *         pmu->lock            (mutex; the counter slots, the consumer
 *                               list's writers)
 *
 *   kp_threads.lock            (mutex; the thread-profiling configuration
 *                               and its one client)
 *     cpus_read_lock()         (giving a configuration's counting counter
 *                               back: kp_pmu_release_counting())
 *       pmu->lock
 *     pmu->lock                (claiming one, kp_pmu_claim_counting(), and
 *                               the EBUSY reason, kp_pmu_busy_reason():
 *                               without cpus_read_lock())
 *
 *   cpus_read_lock()           (under no lock of the module: a
 *                               reservation's release, INFO_EX's busy
 *                               scan)
 *     pmu->lock                (also under no lock at all: holds for
 *                               reservations, KPROFILE_IOC_SCHEDULE, the
 *                               consumer list's writers)
 *
 *   client->lock               (raw spinlock, irqsave; a thread-profiling
 *                               client's hash table and list; taken in
 *                               its tracepoint probes and ioctls; a leaf:
 *                               nothing is taken inside it but
 *                               schedule_work()'s own)
 *
 *   kp_api_lock                (mutex; writers of the exported overflow
 *                               handler list, api.c; a leaf: its
 *                               consumer is added and removed under
 *                               pmu->lock alone, kp_api_init(),
 *                               kp_api_exit())
 *
 * Kernel locks taken under none of the above: the mmap_lock of the
 * profiled process (pinning a profile's buffer and watching its range at
 * START, kp_profile_buf_pin(), before set->lock; faulting it in at
 * create), task_lock() of a target thread (the access checks of
 * access.c, at create and THREAD_ENABLE; a leaf).
 *
 * The CPU hotplug callbacks (pmu_cpu.c, sampler.c's ProfileTime state)
 * run with the hotplug lock held, as if under cpus_read_lock(): they take
 * pmu->lock or set->tlock, never set->lock.
 *
 * Contexts
 * --------
 * What runs where, and what it may do.  "No locks" means no lock of any
 * kind, spinlocks included; RCU readers only.
 *
 *   context    entered by                          may take
 *   NMI        kp_nmi_handler() (pmu_nmi.c)        no locks, no allocation
 *   hardirq    kp_stimer_fn() (sampler_timer.c),   no locks, no allocation
 *              on_each_cpu() IPIs, irq_work
 *   probe      the scheduler tracepoints           client->lock (raw) only;
 *              (sched_hooks.c)                     no sleeping, no
 *                                                  allocation that sleeps
 *   process    ioctls, open, release, init and     everything, in the order
 *              exit, work items, notifiers         above
 *
 * In detail:
 *
 *   NMI (a counter's overflow, the PMI)
 *     pmu_nmi.c kp_nmi_handler() -> the interface's check_overflow and
 *     set_interval (pmu_emon.c, pmu_amd64.c) -> the overflow consumers:
 *     the sampler's (sampler.c kp_sampler_sample(): the profiles' hit
 *     path, profile_hit.c, then stream_sample.c: the sample streams'
 *     rings, stream_ring.c, and their register and stack copies,
 *     stream_regs.c's copy_from_user_nmi()) and the exported handlers
 *     (kprofile_register_overflow_handler()).  No locks, no allocation,
 *     no sleeping; per-CPU data, atomics, RCU-published snapshots;
 *     NOKPROBE_SYMBOL on the way.
 *
 *   hardirq
 *     ProfileTime's hrtimer expiry (sampler_timer.c) -> the sampler's
 *     time_sample hook (kp_sampler_tick()) -> the same hit path and
 *     sample streams as the NMI: the same rules.  The IPIs of
 *     on_each_cpu() (arming and disarming counters, pmu.c and pmu_cpu.c;
 *     ProfileTime's per-CPU decision; thread profiling's stop): registers
 *     and per-CPU state of their own CPU, no locks.  The streams' wake-up
 *     irq_work (stream_wake.c) only wakes the poll queue.
 *
 *   scheduler-hook probes (sched_hooks.h, "Probe contexts")
 *     sched_switch, interrupts off: ProfileTime's timer follows profiled
 *     tasks (sampler_timer.c), thread profiling charges them
 *     (thread_fd.c).  sched_process_fork/exec/exit, in the task's (or
 *     the parent's) process context, preemption off until 6.19 and
 *     preemptible since 7.0, so each probe takes the RCU read side and
 *     preemption-off section it needs itself: the streams follow
 *     children (stream_follow.c), thread profiling tracks threads
 *     (thread_fd.c, entries from a reserve filled in process context,
 *     thread_reserve.c), a set-user-ID exec stops profiles
 *     (profile_exec.c).  No sleeping locks and no allocation that may
 *     sleep (PREEMPT_RT forbids allocating at all with preemption off);
 *     the raw client->lock is the only lock taken there.
 *
 *   process context
 *     The ioctls, open and release, the module's init and exit, the
 *     buffer's MMU interval notifier (profile_buf.c: marks the buffer
 *     lost with WRITE_ONCE()), the release work that unpins a stopped
 *     profile's buffer after a grace period (profile.c) and the one that
 *     folds a replaced snapshot's counters (profile_stats.c), the reserve's
 *     refill work, the reboot notifier.  Everything above may be taken
 *     here, in the order above.
 */
#ifndef _KPROFILE_LOCKING_H
#define _KPROFILE_LOCKING_H
#endif /* _KPROFILE_LOCKING_H */
