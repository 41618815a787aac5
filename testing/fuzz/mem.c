// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c - memory the fuzzer hands to the module: each worker's arena
 * (read-write pages around a PROT_NONE page, a read-only page and an
 * unmapped hole), the edge pointers, and the hot function profiles count.
 */
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "kpfuzz.h"

/*
 * Arena layout, in pages:
 *   0-2 read-write (scratch), 3 PROT_NONE, 4 read-only, 5 unmapped,
 *   6-7 read-write (unused).
 */
#define A_RW		0
#define A_NONE		3
#define A_RO		4
#define A_HOLE		5

extern const char __start_kpf_hot_text[], __stop_kpf_hot_text[];

/**
 * kpf_hot() - the function profiles of the fuzzer count: it sits alone in
 *	section "kpf_hot_text" (the binary is static and not PIE, so its range is
 *	the same in every process, the set-user-ID copy's included).
 * @n: iterations.
 *
 * Return: a value that depends on @n (so the loop is not optimised away).
 */
__attribute__((noinline, section("kpf_hot_text")))
uint64_t kpf_hot(uint64_t n)
{
	volatile uint64_t x = 0;

	while (n--)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

/** kpf_hot_start() - first byte of kpf_hot(). Return: the address. */
uint64_t kpf_hot_start(void)
{
	return (uint64_t)(uintptr_t)__start_kpf_hot_text;
}

/** kpf_hot_size() - bytes of section kpf_hot_text. Return: the size. */
uint64_t kpf_hot_size(void)
{
	return (uint64_t)(__stop_kpf_hot_text - __start_kpf_hot_text);
}

/**
 * kpf_spin_ms() - run kpf_hot() for about @ms milliseconds of wall time.
 * @ms: milliseconds.
 */
void kpf_spin_ms(unsigned int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		kpf_hot(20000);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 +
		 (b.tv_nsec - a.tv_nsec) / 1000000 < (long)ms);
}

/**
 * kpf_map() - anonymous private read-write memory.
 * @len: bytes.
 *
 * Return: the mapping, or NULL.
 */
void *kpf_map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/**
 * kpf_arena_init() - map the worker's arena.
 * @c: the worker.
 */
void kpf_arena_init(struct kpf_ctx *c)
{
	/*
	 * Far below where mmap() places things (top-down from the stack), so
	 * the unmapped hole is never filled by a later mapping (a profile's
	 * buffer, a thread's stack) that the fuzzer's writes would corrupt.
	 */
	static uint64_t next = 0x100000000000ULL;
	uint64_t want = __atomic_fetch_add(&next, 0x100000, __ATOMIC_RELAXED);
	unsigned char *a = mmap((void *)(uintptr_t)want, KPF_ARENA_PAGES * KPF_PAGE,
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				-1, 0);

	if (a == MAP_FAILED || a != (void *)(uintptr_t)want) {
		kpf_fail(c, "cannot map the arena at 0x%llx",
			 (unsigned long long)want);
		return;
	}
	memset(a + A_RO * KPF_PAGE, 0x5a, KPF_PAGE);
	mprotect(a + A_NONE * KPF_PAGE, KPF_PAGE, PROT_NONE);
	mprotect(a + A_RO * KPF_PAGE, KPF_PAGE, PROT_READ);
	munmap(a + A_HOLE * KPF_PAGE, KPF_PAGE);
	c->arena = a;
}

/**
 * kpf_scratch() - valid writable memory for a request of @len bytes,
 *	sometimes misaligned or ending at the last byte before the PROT_NONE
 *	page.
 * @c:   the worker.
 * @len: bytes (at most two pages).
 *
 * Return: the pointer, filled with 0xa5 (so bytes the kernel leaves alone
 * are visible).
 */
void *kpf_scratch(struct kpf_ctx *c, size_t len)
{
	unsigned char *p;

	if (len > 2 * KPF_PAGE)
		len = 2 * KPF_PAGE;
	switch (kpf_below(&c->rng, 4)) {
	case 0:	/* flush against the PROT_NONE page */
		p = c->arena + A_NONE * KPF_PAGE - len;
		break;
	case 1:	/* misaligned */
		p = c->arena + 1 + kpf_below(&c->rng, 7);
		break;
	default:
		p = c->arena;
	}
	memset(p, 0xa5, len);
	return p;
}

/**
 * kpf_edge_ptr() - a pointer the module must refuse or survive: NULL, 1,
 *	kernel text, the direct map, the vsyscall page, non-canonical, the
 *	top of the address space, PROT_NONE, read-only, an unmapped hole, a
 *	request straddling into PROT_NONE or the hole, or valid memory.
 * @c:   the worker.
 * @len: bytes of the request.
 *
 * Return: the pointer.
 */
void *kpf_edge_ptr(struct kpf_ctx *c, size_t len)
{
	unsigned char *a = c->arena;

	switch (kpf_below(&c->rng, 14)) {
	case 0:
		return NULL;
	case 1:
		return (void *)1;
	case 2:
		return (void *)0xffffffff81000000UL;
	case 3:
		return (void *)0xffff888000000000UL;
	case 4:
		return (void *)0xffffffffff600000UL;
	case 5:
		return (void *)0x0000800000000000UL;
	case 6:
		return (void *)0xfffffffffffff000UL;
	case 7:
		return a + A_NONE * KPF_PAGE;
	case 8:
		return a + A_RO * KPF_PAGE;
	case 9:
		return a + A_HOLE * KPF_PAGE;
	case 10:
		return a + A_NONE * KPF_PAGE - (len > 1 ? len / 2 : 1);
	case 11:
		return a + A_HOLE * KPF_PAGE - (len > 1 ? len / 2 : 1);
	case 12:	/* the upper half: never the fuzzer's own memory */
		return (void *)(uintptr_t)(kpf_edge(&c->rng) | (1ULL << 63));
	default:
		return kpf_scratch(c, len);
	}
}
