// SPDX-License-Identifier: GPL-2.0
/*
 * rng.c - the fuzzer's deterministic generator (splitmix64) and the edge
 * values it draws integers from.
 */
#include <string.h>

#include "kpfuzz.h"

/**
 * kpf_rand() - the next 64 random bits.
 * @r: the generator.
 *
 * Return: a pseudo-random value; the sequence depends only on the seed.
 */
uint64_t kpf_rand(struct kpf_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * kpf_seed() - seed a worker's generator from the run's seed.
 * @r:      the generator.
 * @seed:   the run's seed.
 * @phase:  the phase's name (each phase draws its own sequence).
 * @worker: the worker's index.
 */
void kpf_seed(struct kpf_rng *r, uint64_t seed, const char *phase, int worker)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; phase[i]; i++)
		h = (h ^ (unsigned char)phase[i]) * 1099511628211ULL;
	r->s = seed ^ h ^ ((uint64_t)worker << 48);
	kpf_rand(r);
}

/**
 * kpf_below() - a value in [0, n).
 * @r: the generator.
 * @n: the bound (0 gives 0).
 *
 * Return: the value.
 */
uint64_t kpf_below(struct kpf_rng *r, uint64_t n)
{
	return n ? kpf_rand(r) % n : 0;
}

/**
 * kpf_chance() - true with the given probability.
 * @r:       the generator.
 * @percent: 0..100.
 *
 * Return: 1 or 0.
 */
int kpf_chance(struct kpf_rng *r, unsigned int percent)
{
	return kpf_below(r, 100) < percent;
}

static const uint64_t edges[] = {
	0, 1, 2, 3, 4, 7, 8, 31, 32, 33, 63, 64, 255, 256, 4095, 4096, 4097,
	0x7fff, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe,
	0xffffffff, 0x100000000ULL, 0x7fffffffffffULL, 0x800000000000ULL,
	0xffff800000000000ULL, 0xffffffff80000000ULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xfffffffffffff000ULL, 0xfffffffffffffffeULL,
	0xffffffffffffffffULL,
};

/**
 * kpf_edge() - an integer for a request field: an edge value (0, 1, the
 *	powers of two around 2^31, 2^32, 2^47, 2^63, -1, ...), one off it,
 *	or random bits.
 * @r: the generator.
 *
 * Return: the value.
 */
uint64_t kpf_edge(struct kpf_rng *r)
{
	uint64_t v = edges[kpf_below(r, sizeof(edges) / sizeof(edges[0]))];

	switch (kpf_below(r, 8)) {
	case 0:
		return v + 1;
	case 1:
		return v - 1;
	case 2:
		return kpf_rand(r);
	case 3:
		return kpf_rand(r) & 0xffffffff;
	default:
		return v;
	}
}
