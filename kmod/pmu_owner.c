// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_owner.c - the counter slots and who holds each: taking a counter
 * from kprofile's slots and Linux's arbitration and giving it back, the
 * "who holds counter i" query behind EBUSY messages and
 * KPROFILE_IOC_SCHEDULE, and holding counters for reservations
 * (HalAllocateHardwareCounters) with their overflow claims.  See pmu.h
 * for the counter model and the locking rules.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/string.h>

#include <linux/pid.h>

#include "compat.h"
#include "pmu.h"

/**
 * kp_pmu_alloc_counter() - take a counter free in kprofile's slots and in
 *	Linux's arbitration, among those a source may use.
 * @pmu:     the layer; @pmu->lock held.
 * @allowed: the counters the source may use (kp_source_counters()).
 *
 * The lowest allowed counter is taken; where the family constrains some
 * events to some counters (AMD family 15h: many events only on
 * PERF_CTL[2:0]), an event that may use every counter takes the highest
 * one, leaving the constrained counters to the events that need them.
 *
 * Return: the counter, or -EBUSY.
 */
int kp_pmu_alloc_counter(struct kp_pmu *pmu, u64 allowed)
{
	unsigned int n = pmu->desc->num_counters, i, idx;
	u64 all = n ? GENMASK_ULL(min(n, 64U) - 1, 0) : 0;
	bool high = kp_sources_constrained(pmu->sources) &&
		    (allowed & all) == all;

	lockdep_assert_held(&pmu->lock);
	for (i = 0; i < n; i++) {
		idx = high ? n - 1 - i : i;
		if (!(allowed & BIT_ULL(idx)) ||
		    pmu->counters[idx].kind != KP_HOLDER_FREE)
			continue;
		if (pmu->arbiter->reserve(pmu, idx)) {
			pmu->perf_refused &= ~BIT_ULL(idx);
			return idx;
		}
		pmu->perf_refused |= BIT_ULL(idx);
	}
	return -EBUSY;
}

/**
 * kp_pmu_free_counter() - give a counter back to Linux and empty its slot.
 * @pmu: the layer; @pmu->lock held.
 * @idx: a counter kp_pmu_alloc_counter() (or kp_pmu_hold()) took.
 */
void kp_pmu_free_counter(struct kp_pmu *pmu, unsigned int idx)
{
	struct kp_counter *k = &pmu->counters[idx];

	lockdep_assert_held(&pmu->lock);
	pmu->arbiter->release(pmu, idx);
	k->kind = KP_HOLDER_FREE;
	k->source = 0;
	k->mode = KPROFILE_MODE_TABLE;
	k->users = 0;
	k->select = 0;
	k->all_cpus = false;
	cpumask_clear(k->cpus);
	k->owner[0] = '\0';
	put_pid(k->owner_pid);
	k->owner_pid = NULL;
}

/* The IPI of kp_pmu_stop_everywhere(). */
struct kp_stop_ipi {
	struct kp_pmu *pmu;
	unsigned int idx;
};

static void kp_pmu_ipi_stop(void *info)
{
	struct kp_stop_ipi *a = info;
	u64 bit = BIT_ULL(a->idx);
	struct kp_pmu_cpu *c = this_cpu_ptr(a->pmu->cpu);

	a->pmu->ops->disable_monitoring(a->pmu, a->idx);
	WRITE_ONCE(c->armed, c->armed & ~bit);
	WRITE_ONCE(c->counting, c->counting & ~bit);
}

/**
 * kp_pmu_stop_everywhere() - disable counter @idx on every online CPU
 *	(DisableMonitoring), whatever it was doing there.
 * @pmu: the layer; cpus_read_lock() and @pmu->lock held.
 * @idx: the counter.
 */
void kp_pmu_stop_everywhere(struct kp_pmu *pmu, unsigned int idx)
{
	struct kp_stop_ipi a = { .pmu = pmu, .idx = idx };

	lockdep_assert_held(&pmu->lock);
	on_each_cpu(kp_pmu_ipi_stop, &a, 1);
}

/**
 * kp_pmu_holder_locked() - kp_pmu_holder() with @pmu->lock held.
 * @pmu: the layer.
 * @idx: a counter.
 * @h:   filled in.
 */
void kp_pmu_holder_locked(struct kp_pmu *pmu, unsigned int idx,
			  struct kp_counter_holder *h)
{
	const struct kp_counter *k = &pmu->counters[idx];

	lockdep_assert_held(&pmu->lock);
	memset(h, 0, sizeof(*h));
	h->kind = k->kind;
	h->source = k->source;
	h->mode = k->mode;
	h->users = k->users;
	if (k->owner_pid)
		scnprintf(h->owner, sizeof(h->owner), "%s %d", k->owner,
			  pid_vnr(k->owner_pid));
	else
		strscpy(h->owner, k->owner, sizeof(h->owner));
	/*
	 * Never ask Linux by reserving and releasing: perf's own reservation
	 * is all or nothing, so a probe makes a concurrent perf_event_open()
	 * or NMI-watchdog enable fail.  A counter is perf's when Linux
	 * refused it at kprofile's last real attempt to take it.
	 */
	if (k->kind == KP_HOLDER_FREE && pmu->ops &&
	    (pmu->perf_refused & BIT_ULL(idx)))
		h->kind = KP_HOLDER_PERF;
}

/**
 * kp_pmu_holder() - who holds counter @idx, as far as kprofile knows.
 * @pmu: the layer.
 * @idx: a counter, < desc->num_counters.
 * @h:   filled in; a counter kprofile does not hold is KP_HOLDER_PERF when
 *	 Linux's arbitration refused it at kprofile's last attempt to take
 *	 it (arming, reserving, thread profiling), else KP_HOLDER_FREE.
 *	 Linux is not asked: that would disturb perf.
 *
 * Takes @pmu->lock.
 */
void kp_pmu_holder(struct kp_pmu *pmu, unsigned int idx,
		   struct kp_counter_holder *h)
{
	mutex_lock(&pmu->lock);
	kp_pmu_holder_locked(pmu, idx, h);
	mutex_unlock(&pmu->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_holder);

/**
 * kp_pmu_busy_reason_locked() - kp_pmu_busy_reason() with @pmu->lock held.
 * @pmu:    the layer.
 * @reason: filled in.
 * @len:    bytes at @reason.
 */
void kp_pmu_busy_reason_locked(struct kp_pmu *pmu, char *reason, size_t len)
{
	unsigned int i, n = pmu->desc->num_counters, perf = 0, held = 0;
	struct kp_counter_holder h;
	size_t pos;

	if (!reason || !len)
		return;
	for (i = 0; i < n; i++) {
		kp_pmu_holder_locked(pmu, i, &h);
		perf += h.kind == KP_HOLDER_PERF;
		held += h.kind != KP_HOLDER_FREE;
	}
	if (perf && perf == held) {
		scnprintf(reason, len,
			  "%u of %u counters are held by perf (the NMI watchdog?); sysctl kernel.nmi_watchdog=0 frees them",
			  perf, n);
		return;
	}
	pos = scnprintf(reason, len, "%u of %u counters in use:", held, n);
	for (i = 0; i < n && pos < len; i++) {
		kp_pmu_holder_locked(pmu, i, &h);
		switch (h.kind) {
		case KP_HOLDER_SOURCE:
			pos += scnprintf(reason + pos, len - pos, " %u:%s", i,
					 kp_source_name(pmu->desc->iface, h.source));
			break;
		case KP_HOLDER_RESERVED:
		case KP_HOLDER_COUNTING:
			pos += scnprintf(reason + pos, len - pos, " %u:%s", i,
					 h.owner);
			break;
		case KP_HOLDER_PERF:
			pos += scnprintf(reason + pos, len - pos,
					 " %u:perf(nmi_watchdog?)", i);
			break;
		default:
			break;
		}
	}
}

/**
 * kp_pmu_busy_reason() - say what holds the counters, for an -EBUSY.
 * @pmu:    the layer.
 * @reason: filled with e.g. "4 of 4 counters in use: 0:ProfileTotalIssues
 *	    1:reserved by pid 42 ..." or, when perf holds them, the advice
 *	    to turn the NMI watchdog off.
 * @len:    bytes at @reason.
 */
void kp_pmu_busy_reason(struct kp_pmu *pmu, char *reason, size_t len)
{
	mutex_lock(&pmu->lock);
	kp_pmu_busy_reason_locked(pmu, reason, len);
	mutex_unlock(&pmu->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_busy_reason);

/**
 * kp_pmu_hold() - hold counters for a reservation (HalAllocateHardwareCounters).
 * @pmu:    the layer.
 * @mask:   the counters, each < desc->num_counters.
 * @owner:  who, for messages (e.g. "reserve pid 42").
 * @claim:  overflows of these counters kprofile takes (acknowledges, unmasks
 *	    the LVTPC, counts and hands to @claim->fn), or NULL.
 * @reason: on failure, why (may be NULL).
 * @len:    bytes at @reason.
 *
 * All or nothing: if any counter is held by kprofile or refused by
 * Linux's arbitration (perf), nothing is held and nothing written.
 * Nothing is programmed either way: the holder programs them.
 *
 * Return: 0, -EOPNOTSUPP (no profile interface), -EINVAL (an index out of
 * range or an empty mask), -EBUSY.
 */
int kp_pmu_hold(struct kp_pmu *pmu, u64 mask, const char *owner,
		struct kp_claim *claim, char *reason, size_t len)
{
	unsigned int i, n = pmu->desc->num_counters;
	u64 taken = 0;
	int ret = 0;

	if (!pmu->ops) {
		if (reason)
			scnprintf(reason, len, "no profile interface: %s",
				  pmu->desc->reason);
		return -EOPNOTSUPP;
	}
	if (!mask || (n < 64 && (mask >> n))) {
		if (reason)
			scnprintf(reason, len,
				  "counters 0x%llx: this processor has %u",
				  mask, n);
		return -EINVAL;
	}
	if (mask & ~kp_pmu_usable_counters(pmu)) {
		if (reason)
			scnprintf(reason, len,
				  "counter %u is not usable on every CPU: %s",
				  (unsigned int)__ffs64(mask &
							~kp_pmu_usable_counters(pmu)),
				  pmu->desc->avoid_reason[0] ?
				  pmu->desc->avoid_reason :
				  "a CPU lacks it (CPUID 0xA/0x23 there)");
		return -EOPNOTSUPP;
	}
	mutex_lock(&pmu->lock);
	for (i = 0; i < n; i++) {
		if (!(mask & BIT_ULL(i)))
			continue;
		if (pmu->counters[i].kind != KP_HOLDER_FREE)
			break;
		if (!pmu->arbiter->reserve(pmu, i)) {
			pmu->perf_refused |= BIT_ULL(i);
			break;
		}
		pmu->perf_refused &= ~BIT_ULL(i);
		taken |= BIT_ULL(i);
	}
	if (taken != mask) {
		struct kp_counter_holder h;

		for (i = 0; i < n; i++)
			if (taken & BIT_ULL(i))
				pmu->arbiter->release(pmu, i);
		kp_pmu_holder_locked(pmu, __ffs64(mask & ~taken), &h);
		if (reason && h.kind == KP_HOLDER_PERF)
			scnprintf(reason, len,
				  "counter %llu is held by perf (the NMI watchdog?); sysctl kernel.nmi_watchdog=0 frees it",
				  (u64)__ffs64(mask & ~taken));
		else if (reason)
			scnprintf(reason, len, "counter %llu is in use by %s",
				  (u64)__ffs64(mask & ~taken),
				  h.kind == KP_HOLDER_SOURCE ?
				  kp_source_name(pmu->desc->iface, h.source) : h.owner);
		ret = -EBUSY;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!(mask & BIT_ULL(i)))
			continue;
		pmu->counters[i].kind = KP_HOLDER_RESERVED;
		strscpy(pmu->counters[i].owner, owner,
			sizeof(pmu->counters[i].owner));
		rcu_assign_pointer(pmu->counters[i].claim, claim);
	}
	if (claim)
		WRITE_ONCE(pmu->claimed, pmu->claimed | mask);
out:
	mutex_unlock(&pmu->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_hold);

/**
 * kp_pmu_set_owner_pid() - name the process that holds reserved counters.
 * @pmu:  the layer.
 * @mask: counters kp_pmu_hold() took.
 * @pid:  the process; each counter takes a reference (put when freed).
 *
 * Messages then give the holder as its owner string and the process's id
 * in the pid namespace of the caller that reads them (pid_vnr(); 0 when
 * it is not visible there), not the id in the holder's namespace.
 * Context: process; takes @pmu->lock.
 */
void kp_pmu_set_owner_pid(struct kp_pmu *pmu, u64 mask, struct pid *pid)
{
	unsigned int i;

	mutex_lock(&pmu->lock);
	for (i = 0; i < pmu->desc->num_counters; i++) {
		if (!(mask & BIT_ULL(i)) ||
		    pmu->counters[i].kind != KP_HOLDER_RESERVED)
			continue;
		put_pid(pmu->counters[i].owner_pid);
		pmu->counters[i].owner_pid = get_pid(pid);
	}
	mutex_unlock(&pmu->lock);
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_set_owner_pid);

/**
 * kp_pmu_unhold() - HalFreeHardwareCounters: give reserved counters back.
 * @pmu:  the layer.
 * @mask: counters kp_pmu_hold() took.
 *
 * The counters are disabled on every CPU (the holder may have left them
 * running) and returned to Linux.  On return the NMI path no longer uses
 * their claim: it may be freed.
 * Context: process; may sleep.
 */
void kp_pmu_unhold(struct kp_pmu *pmu, u64 mask)
{
	unsigned int i;

	cpus_read_lock();
	mutex_lock(&pmu->lock);
	WRITE_ONCE(pmu->claimed, pmu->claimed & ~mask);
	for (i = 0; i < pmu->desc->num_counters; i++) {
		if (!(mask & BIT_ULL(i)) ||
		    WARN_ON_ONCE(pmu->counters[i].kind != KP_HOLDER_RESERVED))
			continue;
		RCU_INIT_POINTER(pmu->counters[i].claim, NULL);
		kp_pmu_stop_everywhere(pmu, i);
		kp_pmu_free_counter(pmu, i);
	}
	mutex_unlock(&pmu->lock);
	cpus_read_unlock();
	synchronize_rcu();
}
EXPORT_SYMBOL_IF_KUNIT(kp_pmu_unhold);
