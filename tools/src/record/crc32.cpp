// SPDX-License-Identifier: GPL-2.0
// crc32.cpp - CRC-32 of the record file's sections.
//
// The reflected polynomial 0xedb88320, initial value and final xor ~0, as
// zlib.  Three ways, same result: a byte a step (one table), eight bytes a
// step ("slicing-by-8": eight tables, one lookup per byte with no chain
// between them), and on x86-64 with PCLMULQDQ, 64 bytes a step folded by
// carry-less multiplication (Intel's "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction", 2009; the constants are those
// of Linux's arch/x86/crypto/crc32-pclmul_asm.S and Chromium's zlib
// crc32_simd.c).  The tables are a few instructions a byte; in the bench's
// icount guest, where every instruction costs the same, the checksum of a
// dwarf recording's stack copies was a sizeable part of record's end.
#include "record/crc32.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(KP_CRC32_NO_CLMUL)
#include <immintrin.h>
#define KP_CRC32_CLMUL 1
#endif

namespace kprofile::record {

namespace {

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

const Tables &tables()
{
	static const Tables t = [] {
		Tables x{};
		for (std::uint32_t i = 0; i < 256; i++) {
			std::uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
			x[0][i] = c;
		}
		for (std::size_t k = 1; k < 8; k++)
			for (std::size_t i = 0; i < 256; i++)
				x[k][i] = (x[k - 1][i] >> 8) ^ x[0][x[k - 1][i] & 0xff];
		return x;
	}();
	return t;
}

// @c is the running register (not inverted).
std::uint32_t bytes_step(std::uint32_t c, const unsigned char *p, std::size_t len)
{
	const auto &t = tables()[0];

	for (std::size_t i = 0; i < len; i++)
		c = t[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c;
}

std::uint32_t slice8_step(std::uint32_t c, const unsigned char *p, std::size_t len)
{
	const Tables &t = tables();

	for (; len >= 8; p += 8, len -= 8) {
		std::uint32_t lo, hi;
		std::memcpy(&lo, p, 4);		// little-endian (profile_file.cpp)
		std::memcpy(&hi, p + 4, 4);
		lo ^= c;
		c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^
		    t[4][lo >> 24] ^ t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		    t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
	}
	return bytes_step(c, p, len);
}

#ifdef KP_CRC32_CLMUL
// @acc folded forward by 128 bits with @k (k3k4), into @next.
__attribute__((target("pclmul,sse4.1"))) inline __m128i fold128(__m128i acc, __m128i next,
								 __m128i k)
{
	const __m128i lo = _mm_clmulepi64_si128(acc, k, 0x00);
	const __m128i hi = _mm_clmulepi64_si128(acc, k, 0x11);
	return _mm_xor_si128(_mm_xor_si128(hi, next), lo);
}

// @len >= 64 and a multiple of 16; @c the running register.
__attribute__((target("pclmul,sse4.1"))) std::uint32_t clmul_step(std::uint32_t c,
								  const unsigned char *p,
								  std::size_t len)
{
	alignas(16) static const std::uint64_t k1k2[2] = {0x0154442bd4, 0x01c6e41596};
	alignas(16) static const std::uint64_t k3k4[2] = {0x01751997d0, 0x00ccaa009e};
	alignas(16) static const std::uint64_t k5k0[2] = {0x0163cd6124, 0x0000000000};
	alignas(16) static const std::uint64_t poly[2] = {0x01db710641, 0x01f7011641};
	auto load = [](const unsigned char *q) {
		return _mm_loadu_si128(reinterpret_cast<const __m128i *>(q));
	};
	__m128i x0, x1, x2, x3, x4, x5, x6, x7, x8;

	x1 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(c)));
	x2 = load(p + 16);
	x3 = load(p + 32);
	x4 = load(p + 48);
	p += 64;
	len -= 64;
	x0 = _mm_load_si128(reinterpret_cast<const __m128i *>(k1k2));
	// Fold four 128-bit lanes forward by 512 bits at a time.
	for (; len >= 64; p += 64, len -= 64) {
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
		x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
		x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
		x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
		x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), load(p));
		x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), load(p + 16));
		x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), load(p + 32));
		x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), load(p + 48));
	}
	// The four lanes into one, then the rest 128 bits at a time.
	x0 = _mm_load_si128(reinterpret_cast<const __m128i *>(k3k4));
	x1 = fold128(x1, x2, x0);
	x1 = fold128(x1, x3, x0);
	x1 = fold128(x1, x4, x0);
	for (; len >= 16; p += 16, len -= 16)
		x1 = fold128(x1, load(p), x0);
	// 128 bits to 64.
	x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
	x3 = _mm_setr_epi32(~0, 0, ~0, 0);
	x1 = _mm_srli_si128(x1, 8);
	x1 = _mm_xor_si128(x1, x2);
	x0 = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(k5k0));
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_and_si128(x1, x3);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	// Barrett reduction to 32 bits.
	x0 = _mm_load_si128(reinterpret_cast<const __m128i *>(poly));
	x2 = _mm_and_si128(x1, x3);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
	x2 = _mm_and_si128(x2, x3);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return static_cast<std::uint32_t>(_mm_extract_epi32(x1, 1));
}

bool have_clmul()
{
	static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
	return yes;
}
#endif

} // namespace

std::uint32_t crc32_bytewise(std::uint32_t crc, const void *p, std::size_t len)
{
	return ~bytes_step(~crc, static_cast<const unsigned char *>(p), len);
}

std::uint32_t crc32(std::uint32_t crc, const void *p, std::size_t len)
{
	const auto *b = static_cast<const unsigned char *>(p);
	std::uint32_t c = ~crc;

#ifdef KP_CRC32_CLMUL
	if (len >= 64 && have_clmul()) {
		const std::size_t n = len & ~std::size_t(15);
		c = clmul_step(c, b, n);
		b += n;
		len -= n;
	}
#endif
	return ~slice8_step(c, b, len);
}

} // namespace kprofile::record
